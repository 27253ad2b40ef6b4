import AVFoundation
import CoreImage
import Foundation
import Testing

/// `CIImage`'s recipes and `CIContext`'s outputs, through the public API.
@Suite struct ImageAndContextTests {
    @Test func unknownFilterNamesGiveNil() {
        #expect(CIFilter(name: "CINoSuchFilter") == nil)
        #expect(CIFilter(name: "CIGaussianBlur") != nil)
    }

    @Test func aMissingInputImageGivesANilOutput() {
        #expect(CIFilter(name: "CIGaussianBlur")?.outputImage == nil)
        let blend = CIFilter.blendWithAlphaMask()
        blend.inputImage = CIImage(color: .red)
        #expect(blend.outputImage == nil, "no mask")
        // Anything but an image for an image key counts as missing.
        let f = CIFilter(name: "CIColorInvert")
        f?.setValue("not an image", forKey: kCIInputImageKey)
        #expect(f?.outputImage == nil)
    }

    @Test func aNumberOfTheWrongTypeIsIgnored() throws {
        let image = Fixture.image(1, 1) { _, _ in SIMD4(0.5, 0.5, 0.5, 1) }
        let f = try #require(CIFilter(name: "CIExposureAdjust"))
        f.setValue(image, forKey: kCIInputImageKey)
        f.setValue("two", forKey: kCIInputEVKey)
        let p = Fixture.pixels(try #require(f.outputImage), image.extent)[0][0]
        #expect(Fixture.close(p, SIMD4(0.5, 0.5, 0.5, 1)), "the default EV of 0 stands")
    }

    @Test func defaultsAreApplesDocumentedOnes() throws {
        let f = try #require(CIFilter(name: "CIPerspectiveCorrection"))
        #expect((f.value(forKey: "inputTopLeft") as? CIVector) == CIVector(x: 118, y: 484))
        #expect((f.value(forKey: "inputBottomRight") as? CIVector) == CIVector(x: 548, y: 140))
        #expect(CIFilter.gaussianBlur().radius == 10)
        #expect(CIFilter.colorControls().saturation == 1)
        #expect(CIFilter.lanczosScaleTransform().aspectRatio == 1)
        #expect(CIFilter.areaAverage().extent == CGRect(x: 0, y: 0, width: 640, height: 80))
    }

    @Test func recipesAreLazyAndRenderOnlyTheRegionAsked() throws {
        // A blurred image of ten billion pixels: building it computes nothing, rendering 8 × 8 of it little.
        let huge = CIImage(color: CIColor(red: 0.5, green: 0.25, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 100_000, height: 100_000))
        let start = Date()
        let chain = huge.applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: 4])
            .applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 1])
        #expect(chain.extent == CGRect(x: -12, y: -12, width: 100_024, height: 100_024))
        let p = Fixture.pixels(chain, CGRect(x: 50_000, y: 50_000, width: 8, height: 8))
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(Fixture.close(p[3][3], SIMD4(1, 0.5, 2, 1)))
    }

    @Test func orientedTurnsAsTheExifOrientationSays() throws {
        // One row: red then green. Orientation 6 (right) shows it turned a quarter clockwise: red on top.
        let image = Fixture.image(2, 1) { x, _ in x == 0 ? SIMD4(1, 0, 0, 1) : SIMD4(0, 1, 0, 1) }
        let right = image.oriented(.right)
        #expect(right.extent == CGRect(x: 0, y: 0, width: 1, height: 2))
        let p = Fixture.pixels(right, right.extent)
        #expect(p[0][0] == SIMD4(1, 0, 0, 1) && p[1][0] == SIMD4(0, 1, 0, 1))
        let left = image.oriented(.left)
        let q = Fixture.pixels(left, left.extent)
        #expect(q[0][0] == SIMD4(0, 1, 0, 1) && q[1][0] == SIMD4(1, 0, 0, 1))
        let mirrored = Fixture.pixels(image.oriented(.upMirrored), CGRect(x: 0, y: 0, width: 2, height: 1))[0]
        #expect(mirrored[0] == SIMD4(0, 1, 0, 1))
    }

    @Test func theDefaultContextDecodesSRGBAndEncodesItBack() throws {
        // Every 8-bit code survives the trip through the linear working space.
        let cg = Fixture.cgImage(256, 1) { x, _ in [UInt8(x), UInt8(255 - x), UInt8(x / 2), 255] }
        let image = CIImage(cgImage: cg)
        let out = try #require(Fixture.managed.createCGImage(image, from: image.extent))
        #expect(Fixture.bytes(out) == Fixture.bytes(cg))
        // In the working space the values are linear: exposure +1 doubles the linear value.
        let brighter = image.applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 1])
        let linear = Fixture.pixels(brighter, image.extent, Fixture.managed)[0]
        for code in [10, 64, 100] {
            #expect(abs(Double(linear[code].x) - 2 * Fixture.linear(code)) < 2e-3)
        }
    }

    @Test func renderingIntoABGRABufferWritesSRGBBytes() throws {
        let image = CIImage(color: CIColor(red: 0.5, green: 0.25, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        var buffer: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, 4, 4, kCVPixelFormatType_32BGRA, nil, &buffer)
        let b = try #require(buffer)
        CIContext().render(image, to: b)
        CVPixelBufferLockBaseAddress(b, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(b, .readOnly) }
        let p = CVPixelBufferGetBaseAddress(b)!.assumingMemoryBound(to: UInt8.self)
        #expect([p[0], p[1], p[2], p[3]] == [255, 64, 128, 255])
    }

    // The same colour into a 32 ARGB buffer: alpha first, then red, green, blue; read back, it is the
    // colour it was.
    @Test func anARGBBufferHoldsAlphaFirst() throws {
        let image = CIImage(color: CIColor(red: 0.5, green: 0.25, blue: 1)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        var buffer: CVPixelBuffer?
        #expect(CVPixelBufferCreate(nil, 4, 4, kCVPixelFormatType_32ARGB, nil, &buffer) == kCVReturnSuccess)
        let b = try #require(buffer)
        CIContext().render(image, to: b)
        CVPixelBufferLockBaseAddress(b, .readOnly)
        let p = CVPixelBufferGetBaseAddress(b)!.assumingMemoryBound(to: UInt8.self)
        #expect([p[0], p[1], p[2], p[3]] == [255, 128, 64, 255])
        CVPixelBufferUnlockBaseAddress(b, .readOnly)
        let back = CIImage(cvPixelBuffer: b)
        let cg = try #require(CIContext().createCGImage(back, from: back.extent))
        #expect(Array(Fixture.bytes(cg).prefix(4)) == [128, 64, 255, 255])
    }

    /// A frame's BGRA bytes made an image the usual way (a bitmap context over them, little-endian words with alpha
    /// first) reads as the colours stored, not with red and blue swapped; so does a premultiplied half-transparent
    /// pixel, made straight.
    @Test func aLittleEndianImageReadsItsColours() throws {
        var bytes: [UInt8] = [64, 128, 255, 255, 32, 16, 64, 128]  // B, G, R, A twice
        let cg = try bytes.withUnsafeMutableBytes { raw in
            let context = try #require(
                CGContext(
                    data: raw.baseAddress, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 8,
                    space: CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.premultipliedFirst.rawValue))
            return try #require(context.makeImage())
        }
        let image = CIImage(cgImage: cg)
        let out = Fixture.bytes(try #require(Fixture.managed.createCGImage(image, from: image.extent)))
        #expect(Array(out[0..<4]) == [255, 128, 64, 255])
        // Premultiplied (64, 16, 32) at alpha 128 is straight (128, 32, 64), to within a code.
        let straight = Array(out[4..<8]).map(Int.init)
        #expect(zip(straight, [128, 32, 64, 128]).allSatisfy { abs($0 - $1) <= 1 }, "\(straight)")
    }

    @Test func fileRepresentationsReadBack() throws {
        let cg = Fixture.cgImage(16, 8) { x, y in [UInt8(16 * x), UInt8(30 * y), 200, 255] }
        let image = CIImage(cgImage: cg)
        let context = CIContext()
        let space = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        let png = try #require(context.pngRepresentation(of: image, format: .RGBA8, colorSpace: space))
        let back = try #require(CIImage(data: png))
        #expect(back.extent == image.extent)
        #expect(Fixture.bytes(try #require(context.createCGImage(back, from: back.extent))) == Fixture.bytes(cg))
        let jpeg = try #require(context.jpegRepresentation(of: image, colorSpace: space))
        let fromJPEG = try #require(CIImage(data: jpeg))
        let bytes = Fixture.bytes(try #require(context.createCGImage(fromJPEG, from: fromJPEG.extent)))
        // JPEG's 4:2:0 chroma and quantisation move sharp colour steps by a few codes on average.
        let error = zip(bytes, Fixture.bytes(cg)).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(error) / Double(bytes.count) < 4)
        if let heic = context.heifRepresentation(of: image, format: .RGBA8, colorSpace: space) {
            #expect(CIImage(data: heic)?.extent == image.extent)
        }
    }

    // Apple's AVCam saves mattes with heifRepresentation's matte and depth options, and reads segmentation
    // mattes with CIImage's auxiliary options: what is written beside the picture reads back as it was. The
    // picture is under 64 pixels tall, which libheif stores as a grid over one tile.
    @Test func auxiliaryImagesOfAHEICReadBack() throws {
        func coverage(_ side: Int) throws -> CIImage {
            var made: CVPixelBuffer?
            #expect(CVPixelBufferCreate(nil, side, side, kCVPixelFormatType_OneComponent8, nil, &made) == kCVReturnSuccess)
            let buffer = try #require(made)
            CVPixelBufferLockBaseAddress(buffer, [])
            let base = try #require(CVPixelBufferGetBaseAddress(buffer)), stride = CVPixelBufferGetBytesPerRow(buffer)
            for y in 0..<side {
                for x in 0..<side { (base + y * stride).storeBytes(of: UInt8(4 * x), toByteOffset: x, as: UInt8.self) }
            }
            CVPixelBufferUnlockBaseAddress(buffer, [])
            return CIImage(cvImageBuffer: buffer, options: [.auxiliaryPortraitEffectsMatte: true])
        }
        let matte = try coverage(64)
        let depth = CIImage(
            cvPixelBuffer: Fixture.floatBuffer(64, 64, format: kCVPixelFormatType_DepthFloat32) { x, _ in
                0.5 + 0.025 * Float(x)
            }, options: [.colorSpace: NSNull()])
        let photo = CIImage(cgImage: Fixture.cgImage(48, 40) { x, y in [UInt8(4 * x), UInt8(5 * y), 200, 255] })
        let space = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        let context = CIContext()
        // A machine without libheif's HEVC encoder writes no HEIC at all.
        guard context.heifRepresentation(of: photo, format: .RGBA8, colorSpace: space) != nil else { return }
        let heic = try #require(
            context.heifRepresentation(
                of: photo, format: .RGBA8, colorSpace: space,
                options: [.portraitEffectsMatteImage: matte, .semanticSegmentationHairMatteImage: matte, .depthImage: depth]))
        #expect(CIImage(data: heic)?.extent == photo.extent)
        for option in [CIImageOption.auxiliaryPortraitEffectsMatte, .auxiliarySemanticSegmentationHairMatte] {
            let back = try #require(CIImage(data: heic, options: [option: true]), "\(option.rawValue)")
            #expect(back.extent.size == CGSize(width: 64, height: 64))
            let row = Fixture.pixels(back, back.extent)[20]
            for x in 0..<64 { #expect(abs(row[x].x - Float(4 * x) / 255) < 0.01, "\(option.rawValue) at \(x)") }
        }
        // A type that was not written is not there.
        #expect(CIImage(data: heic, options: [.auxiliarySemanticSegmentationSkinMatte: true]) == nil)
        // Depth is stored in 239 steps over its range (1.6 m here): within half a step, and half precision.
        let stored = try #require(CIImage(data: heic, options: [.auxiliaryDepth: true]))
        let row = Fixture.pixels(stored, stored.extent)[20]
        for x in 0..<64 { #expect(abs(row[x].x - (0.5 + 0.025 * Float(x))) < 0.005, "depth at \(x): \(row[x].x)") }
        // A matte under 64 pixels a side cannot be stored readably: no file, as when an encoder fails.
        let small = try coverage(32)
        #expect(
            context.heifRepresentation(
                of: photo, format: .RGBA8, colorSpace: space, options: [.portraitEffectsMatteImage: small]) == nil)
    }
}
