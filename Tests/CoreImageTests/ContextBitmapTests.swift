import CoreImage
import Foundation
import Testing

/// Rendering into the caller's memory, writing files, and the `CIImage` shortcuts, as camera code uses them.
@Suite struct ContextBitmapTests {
    /// The IEC 61966-2-1 encoding, written out.
    static func encode(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }

    @Test func areaAverageIntoFourBytesIsTheLinearMeanEncoded() throws {
        // The brightness-metering idiom: a CGImage of sRGB bytes, averaged, read back as four bytes.
        let picture = CIImage(cgImage: Fixture.cgImage(2, 1) { x, _ in x == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255] })
        let average = picture.applyingFilter(
            "CIAreaAverage", parameters: [kCIInputExtentKey: CIVector(cgRect: picture.extent)])
        var bitmap = [UInt8](repeating: 0, count: 4)
        CIContext().render(
            average, toBitmap: &bitmap, rowBytes: 4, bounds: CGRect(x: 0, y: 0, width: 1, height: 1), format: .RGBA8,
            colorSpace: nil)
        let half = UInt8((Self.encode(0.5) * 255).rounded())
        #expect(bitmap == [half, 0, half, 255], "\(bitmap)")
        // In floats and a linear space, the mean itself.
        var floats = [Float](repeating: -1, count: 4)
        CIContext().render(
            average, toBitmap: &floats, rowBytes: 16, bounds: CGRect(x: 0, y: 0, width: 1, height: 1), format: .RGBAf,
            colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB))
        #expect(zip(floats, [0.5, 0, 0.5, 1]).allSatisfy { abs($0 - $1) < 1e-5 }, "\(floats)")
    }

    @Test func bitmapsArePremultipliedUnlessTheContextSaysOtherwise() throws {
        // Green 0.5 at half coverage, premultiplied as buffers hold it, in a context that leaves values alone.
        let image = Fixture.image(1, 1) { _, _ in SIMD4(0, 0.25, 0, 0.5) }
        let one = CGRect(x: 0, y: 0, width: 1, height: 1)
        var bytes = [UInt8](repeating: 0, count: 4)
        Fixture.raw.render(image, toBitmap: &bytes, rowBytes: 4, bounds: one, format: .BGRA8, colorSpace: nil)
        #expect(bytes == [0, 64, 0, 128], "\(bytes)")
        let straight = CIContext(options: [.workingColorSpace: NSNull(), .outputPremultiplied: false])
        straight.render(image, toBitmap: &bytes, rowBytes: 4, bounds: one, format: .BGRA8, colorSpace: nil)
        #expect(bytes == [0, 128, 0, 128], "\(bytes)")
        var grey = [UInt8](repeating: 0, count: 2)
        Fixture.raw.render(
            Fixture.image(2, 1) { x, _ in x == 0 ? SIMD4(1, 1, 1, 1) : SIMD4(0.2, 0.6, 0.1, 1) }, toBitmap: &grey,
            rowBytes: 2, bounds: CGRect(x: 0, y: 0, width: 2, height: 1), format: .L8, colorSpace: nil)
        let luma: Double = 0.2126 * 0.2 + 0.7152 * 0.6 + 0.0722 * 0.1
        #expect(grey == [255, UInt8((luma * 255).rounded())], "\(grey)")
    }

    @Test func aTranslucentFrameSurvivesARenderAndARead() throws {
        var out: CVPixelBuffer?
        CVPixelBufferCreate(nil, 2, 1, kCVPixelFormatType_32BGRA, nil, &out)
        let buffer = try #require(out)
        let image = Fixture.image(2, 1) { x, _ in x == 0 ? SIMD4(0.3, 0.1, 0.2, 0.5) : SIMD4(0.2, 0.4, 0.6, 1) }
        Fixture.raw.render(image, to: buffer)
        let back = Fixture.pixels(
            CIImage(cvPixelBuffer: buffer, options: [.colorSpace: NSNull()]), CGRect(x: 0, y: 0, width: 2, height: 1))[
                0]
        #expect(Fixture.close(back[0], SIMD4(0.3, 0.1, 0.2, 0.5), 6e-3), "\(back[0])")
        #expect(Fixture.close(back[1], SIMD4(0.2, 0.4, 0.6, 1), 4e-3), "\(back[1])")
    }

    @Test func filesAreWrittenWholeOrNotAtAll() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ci-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("look.jpg")
        let picture = CIImage(color: CIColor(red: 0.8, green: 0.4, blue: 0.2)).cropped(
            to: CGRect(x: 0, y: 0, width: 48, height: 32))
        let space = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        try CIContext().writeJPEGRepresentation(of: picture, to: url, colorSpace: space)
        let written = try Data(contentsOf: url)
        #expect(CIImage(contentsOf: url)?.extent == CGRect(x: 0, y: 0, width: 48, height: 32))
        // An infinite image has nothing to write: an error, and the file already there is untouched.
        #expect(throws: (any Error).self) {
            try CIContext().writeJPEGRepresentation(of: CIImage(color: .red), to: url, colorSpace: space)
        }
        #expect(try Data(contentsOf: url) == written)
        try CIContext().writePNGRepresentation(
            of: picture, to: directory.appendingPathComponent("look.png"), format: .RGBA8, colorSpace: space)
        #expect(CIImage(contentsOf: directory.appendingPathComponent("look.png"))?.extent.width == 48)
    }

    @Test func nearestSamplingKeepsHardEdgesWhereLinearMixes() throws {
        let checker = Fixture.image(2, 1) { x, _ in x == 0 ? SIMD4(0, 0, 0, 1) : SIMD4(1, 1, 1, 1) }
        let scale = CGAffineTransform(scaleX: 4, y: 4)
        let rect = CGRect(x: 0, y: 0, width: 8, height: 1)
        let nearest = Fixture.pixels(checker.samplingNearest().transformed(by: scale), rect)[0].map(\.x)
        #expect(nearest == [0, 0, 0, 0, 1, 1, 1, 1], "\(nearest)")
        let linear = Fixture.pixels(checker.transformed(by: scale), rect)[0].map(\.x)
        #expect(linear.contains { $0 > 0.05 && $0 < 0.95 }, "\(linear)")
        // The mark holds through a second transform, and `samplingLinear()` lifts it.
        let twice = checker.samplingNearest().transformed(by: CGAffineTransform(scaleX: 2, y: 2)).transformed(
            by: CGAffineTransform(scaleX: 2, y: 2))
        #expect(Fixture.pixels(twice, rect)[0].map(\.x) == nearest)
        let lifted = Fixture.pixels(checker.samplingNearest().samplingLinear().transformed(by: scale), rect)[0].map(\.x)
        #expect(lifted == linear)
    }

    @Test func shortcutsMatchTheFiltersTheyStandFor() throws {
        let image = Fixture.image(9, 9) { x, y in SIMD4(Float(x) / 8, Float(y) / 8, 0.5, 1) }
        let rect = CGRect(x: -2, y: -2, width: 13, height: 13)
        let viaFilter = image.applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: 1.5])
        #expect(Fixture.pixels(image.applyingGaussianBlur(sigma: 1.5), rect) == Fixture.pixels(viaFilter, rect))
        let clamped = image.clamped(to: CGRect(x: 2, y: 2, width: 3, height: 3))
        #expect(clamped.extent.isInfinite)
        // Far below and left, the clamped picture repeats its (2, 2) pixel, stored at row 6 from the top.
        #expect(
            Fixture.pixels(clamped, CGRect(x: -40, y: -40, width: 1, height: 1))[0][0]
                == Fixture.pixels(image, image.extent)[6][2])
        let translucent = Fixture.image(1, 1) { _, _ in SIMD4(0.2, 0.1, 0.05, 0.5) }
        let one = CGRect(x: 0, y: 0, width: 1, height: 1)
        #expect(
            Fixture.close(Fixture.pixels(translucent.unpremultiplyingAlpha(), one)[0][0], SIMD4(0.4, 0.2, 0.1, 0.5)))
        #expect(
            Fixture.close(Fixture.pixels(translucent.premultiplyingAlpha(), one)[0][0], SIMD4(0.1, 0.05, 0.025, 0.5)))
        #expect(
            Fixture.close(
                Fixture.pixels(translucent.unpremultiplyingAlpha().premultiplyingAlpha(), one)[0][0],
                SIMD4(0.2, 0.1, 0.05, 0.5)))
        let opaque = translucent.settingAlphaOne(in: one)
        #expect(opaque.extent == one)
        #expect(Fixture.close(Fixture.pixels(opaque, one)[0][0], SIMD4(0.2, 0.1, 0.05, 1)))
        #expect(Fixture.pixels(CIImage.yellow, one, Fixture.raw)[0][0] == SIMD4(1, 1, 0, 1))
        #expect(CIImage.clear.extent.isInfinite && image.insertingIntermediate() === image)
    }
}
