import AVFoundation
import CoreImage
import Foundation
import Testing

/// A warp of an image held as bytes, rendered to 8-bit, takes a fast path that samples the bytes directly; every
/// other chain renders the warp's input to floats first. Both must give the same bytes, exactly: the fast path
/// repeats the general one's arithmetic on the same values (see `BytesWarp`). Cropping an image to its own extent
/// changes no pixel whose centre lies inside that extent, but puts a crop at the chain's root, which sends the render
/// down the general path, so the pair compares the two paths through the public API.
@Suite struct PerspectiveCorrectionFastPathTests {
    /// The image warped, rendered once as it is (the fast path) and once cropped to its own extent (the general
    /// path), as `CGImage` bytes, over the whole pixels inside the extent (the crop clears pixels whose centres fall
    /// outside a fractional extent).
    static func bothPaths(_ image: CIImage, _ context: CIContext) throws -> (fast: [UInt8], general: [UInt8]) {
        let e = image.extent
        let inside = CGRect(
            x: e.minX.rounded(.up), y: e.minY.rounded(.up), width: e.maxX.rounded(.down) - e.minX.rounded(.up),
            height: e.maxY.rounded(.down) - e.minY.rounded(.up))
        let fast = try #require(context.createCGImage(image, from: inside))
        let general = try #require(context.createCGImage(image.cropped(to: image.extent), from: inside))
        #expect(fast.width == general.width && fast.height == general.height)
        return (Fixture.bytes(fast), Fixture.bytes(general))
    }

    /// Noise with gradients, so that neighbouring taps differ and every interpolation weight matters.
    static func noise(_ x: Int, _ y: Int, alpha: Bool) -> [UInt8] {
        let hash = (x &* 73_856_093) ^ (y &* 19_349_663)
        return [
            UInt8(truncatingIfNeeded: 20 + (x * 150) / 320 + (hash & 63)),
            UInt8(truncatingIfNeeded: 40 + (y * 120) / 240 + ((hash >> 6) & 63)),
            UInt8(truncatingIfNeeded: 10 + ((x + y) * 100) / 560 + ((hash >> 12) & 63)),
            alpha ? UInt8(truncatingIfNeeded: 96 + ((hash >> 18) & 159)) : 255,
        ]
    }

    static func opaqueImage() -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<240 { for x in 0..<320 { bytes += noise(x, y, alpha: false) } }
        return CGImage(
            width: 320, height: 240, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4 * 320,
            space: CGColorSpace(name: CGColorSpace.sRGB)!,
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue),
            provider: CGDataProvider(data: Data(bytes) as CFData)!, decode: nil, shouldInterpolate: true,
            intent: .defaultIntent)!
    }

    /// A quadrilateral inside the picture, and one reaching past its edges (taps outside it are clear).
    static let quadrilaterals: [[CGPoint]] = [
        [
            CGPoint(x: 31.3, y: 210.7), CGPoint(x: 290.2, y: 221.9), CGPoint(x: 270.6, y: 18.4),
            CGPoint(x: 45.1, y: 30.8),
        ],
        [
            CGPoint(x: -20.5, y: 260.2), CGPoint(x: 335.7, y: 230.1), CGPoint(x: 300.3, y: -12.6),
            CGPoint(x: 12.9, y: 5.5),
        ],
    ]

    static func corrected(_ image: CIImage, _ quad: [CGPoint], crop: Bool = true) throws -> CIImage {
        let f = CIFilter.perspectiveCorrection()
        f.inputImage = image
        f.topLeft = quad[0]
        f.topRight = quad[1]
        f.bottomRight = quad[2]
        f.bottomLeft = quad[3]
        f.crop = crop
        return try #require(f.outputImage)
    }

    @Test(arguments: [0, 1]) func anOpaqueCGImageGivesTheSameBytesBothWays(_ index: Int) throws {
        let image = CIImage(cgImage: Self.opaqueImage())
        for context in [Fixture.managed, Fixture.raw] {
            let (fast, general) = try Self.bothPaths(try Self.corrected(image, Self.quadrilaterals[index]), context)
            #expect(fast == general)
            #expect(fast.contains { $0 != 0 })
        }
        // Uncropped, the output reaches past the quadrilateral and the picture.
        let wide = try Self.corrected(image, Self.quadrilaterals[index], crop: false)
        let (fast, general) = try Self.bothPaths(wide, Fixture.managed)
        #expect(fast == general)
    }

    @Test func anImageWithAlphaGivesTheSameBytesBothWays() throws {
        let image = CIImage(cgImage: Fixture.cgImage(320, 240) { x, y in Self.noise(x, y, alpha: true) })
        for quad in Self.quadrilaterals {
            let (fast, general) = try Self.bothPaths(try Self.corrected(image, quad), Fixture.managed)
            #expect(fast == general)
        }
    }

    @Test func aRotatedFrameGivesTheSameBytesBothWays() throws {
        var made: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, 320, 240, kCVPixelFormatType_32BGRA, nil, &made)
        let buffer = try #require(made)
        CVPixelBufferLockBaseAddress(buffer, [])
        let base = try #require(CVPixelBufferGetBaseAddress(buffer)), stride = CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<240 {
            let row = (base + y * stride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<320 {
                let p = Self.noise(x, y, alpha: false)
                (row[4 * x], row[4 * x + 1], row[4 * x + 2], row[4 * x + 3]) = (p[2], p[1], p[0], p[3])
            }
        }
        CVPixelBufferUnlockBaseAddress(buffer, [])
        let turned = CIImage(cvPixelBuffer: buffer).transformed(
            by: CGAffineTransform(rotationAngle: 0.3).scaledBy(x: 1.7, y: 1.3))
        let (fast, general) = try Self.bothPaths(turned, Fixture.managed)
        #expect(fast == general)
    }
}
