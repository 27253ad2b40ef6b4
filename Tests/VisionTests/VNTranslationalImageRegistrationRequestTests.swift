import CoreImage
import CoreVideo
import Foundation
import Testing
import Vision

/// A smooth texture without repeats (value noise: random heights on grids 12, 40 and 130 pixels apart, blended by a
/// smooth step), its content moved by (dx, dy) pixels, right and down. Evaluated at each pixel's centre, so a
/// fractional move is exact.
struct Waves: DrawnPicture {
    let width: Int
    let height: Int
    var dx = 0.0, dy = 0.0

    /// A fixed height in 0…1 for grid node (i, j) of octave `o` (a hash, the same on every run).
    private static func height(_ i: Int, _ j: Int, _ o: Int) -> Double {
        var h = UInt64(bitPattern: Int64(i &* 73_856_093 ^ j &* 19_349_663 ^ o &* 83_492_791))
        h = (h ^ (h >> 33)) &* 0xff51_afd7_ed55_8ccd
        h = (h ^ (h >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return Double((h ^ (h >> 33)) >> 11) / Double(1 << 53)
    }

    private static func noise(_ u: Double, _ v: Double, cell: Double, octave: Int) -> Double {
        let (x, y) = (u / cell, v / cell)
        let (i, j) = (Int(x.rounded(.down)), Int(y.rounded(.down)))
        func smooth(_ t: Double) -> Double { t * t * (3 - 2 * t) }
        let (fx, fy) = (smooth(x - Double(i)), smooth(y - Double(j)))
        let top = height(i, j, octave) * (1 - fx) + height(i + 1, j, octave) * fx
        let bottom = height(i, j + 1, octave) * (1 - fx) + height(i + 1, j + 1, octave) * fx
        return top * (1 - fy) + bottom * fy
    }

    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let (u, v) = (Double(x) + 0.5 - dx, Double(y) + 0.5 - dy)
        let value =
            0.15 + 0.35 * Self.noise(u, v, cell: 130, octave: 0) + 0.3 * Self.noise(u, v, cell: 40, octave: 1)
            + 0.2 * Self.noise(u, v, cell: 12, octave: 2)
        let byte = UInt8((255 * min(max(value, 0), 1)).rounded())
        return (byte, byte, byte)
    }
}

@Suite struct VNTranslationalImageRegistrationRequestTests {
    /// The translation found aligning `floating` with `reference`.
    static func alignment(reference: Waves, floating: Waves) throws -> CGAffineTransform {
        let request = VNTranslationalImageRegistrationRequest(targetedCGImage: try floating.cgImage())
        try VNImageRequestHandler(cgImage: try reference.cgImage(), options: [:]).perform([request])
        let results = try #require(request.results)
        #expect(results.count == 1)
        return try #require(results.first).alignmentTransform
    }

    @Test func theSameImageNeedsNoMove() throws {
        let t = try Self.alignment(reference: Waves(width: 320, height: 240), floating: Waves(width: 320, height: 240))
        #expect(abs(t.tx) < 0.05 && abs(t.ty) < 0.05 && t.a == 1 && t.d == 1 && t.b == 0 && t.c == 0, "\(t)")
    }

    @Test func aMovedImageMovesBackByAsMuchInCoreImagesCoordinates() throws {
        // Content 13.4 pixels right and 7.25 down in the floating image: it moves back 13.4 left and, with y
        // counting up, 7.25 up.
        let t = try Self.alignment(
            reference: Waves(width: 320, height: 240), floating: Waves(width: 320, height: 240, dx: 13.4, dy: 7.25))
        #expect(abs(t.tx - -13.4) < 0.1 && abs(t.ty - 7.25) < 0.1, "\(t)")
        #expect(VNTranslationalImageRegistrationRequest.supportedRevisions == IndexSet(integer: 1))
    }

    @Test(arguments: [(2048, 1536, -41.0, 23.0), (1600, 1200, 300.0, -12.0)])
    func aLargeImageIsRegisteredAtTheWorkingSizeAndScaledBack(width: Int, height: Int, dx: Double, dy: Double) throws {
        // Registered at half size; the move comes back in full-size pixels, within a working pixel. The second pair
        // overlaps by less than four fifths, as two screenshots of a scrolled page do.
        let t = try Self.alignment(
            reference: Waves(width: width, height: height),
            floating: Waves(width: width, height: height, dx: dx, dy: dy))
        #expect(abs(t.tx + dx) < 1 && abs(t.ty - dy) < 1, "\(t)")
    }

    @Test func everyKindOfTargetedImageGivesTheSameAnswer() throws {
        let reference = Waves(width: 256, height: 192), floating = Waves(width: 256, height: 192, dx: -6, dy: 9)
        let requests = [
            VNTranslationalImageRegistrationRequest(targetedCVPixelBuffer: try floating.pixelBuffer()),
            VNTranslationalImageRegistrationRequest(targetedCGImage: try floating.cgImage(), options: [:]),
            VNTranslationalImageRegistrationRequest(targetedCIImage: CIImage(cgImage: try floating.cgImage())),
        ]
        var heard = 0
        let withHandler = VNTranslationalImageRegistrationRequest(
            targetedCGImage: try floating.cgImage(), options: [:],
            completionHandler: { request, error in
                heard += 1
                #expect(error == nil && (request.results?.count ?? 0) == 1)
            })
        try VNImageRequestHandler(cvPixelBuffer: try reference.pixelBuffer(), options: [:]).perform(
            requests + [withHandler])
        #expect(heard == 1)
        for request in requests + [withHandler] {
            let t = try #require(request.results?.first).alignmentTransform
            #expect(abs(t.tx - 6) < 0.1 && abs(t.ty - 9) < 0.1, "\(t)")
        }
    }

    @Test func theFloatingImageTransformedByTheAlignmentLinesUpWithTheReference() throws {
        // As an app stacks frames: Core Image moves the floating image by the transform, and in the overlap it
        // matches the reference to within a code value or two.
        let (width, height) = (240, 180)
        let reference = Waves(width: width, height: height),
            floating = Waves(width: width, height: height, dx: 10, dy: -5)
        let t = try Self.alignment(reference: reference, floating: floating)
        let moved = CIImage(cgImage: try floating.cgImage()).transformed(by: t)
        let context = CIContext(options: [.workingColorSpace: NSNull()])
        let overlap = CGRect(x: 20, y: 20, width: width - 40, height: height - 40)
        let image = try #require(context.createCGImage(moved, from: overlap))
        let bytes = try #require(image.dataProvider?.data as Data?)
        var worst = 0
        for y in 0..<Int(overlap.height) {
            for x in 0..<Int(overlap.width) {
                // Core Image's rectangle counts up from the bottom; the bitmap's rows run down from its top.
                let (rx, ry) = (x + 20, height - 20 - Int(overlap.height) + y)
                let expected = Int(reference.rgb(rx, ry).0)
                let got = Int(bytes[y * image.bytesPerRow + x * image.bitsPerPixel / 8])
                worst = max(worst, abs(got - expected))
            }
        }
        #expect(worst <= 3, "largest difference \(worst) codes")
    }
}

@Suite struct VNTrackTranslationalImageRegistrationRequestTests {
    @Test func eachFrameIsAlignedWithTheOneBefore() throws {
        // A pan: the content moves 5 pixels right, then 7 more and 3 down, then holds still.
        let moves: [(Double, Double)] = [(0, 0), (5, 0), (12, 3), (12, 3)]
        let request = VNTrackTranslationalImageRegistrationRequest()
        #expect(request.revision == VNTrackTranslationalImageRegistrationRequestRevision1)
        #expect(request.frameAnalysisSpacing == .zero)
        let handler = VNSequenceRequestHandler()
        var found: [CGAffineTransform?] = []
        for (dx, dy) in moves {
            try handler.perform([request], on: try Waves(width: 320, height: 240, dx: dx, dy: dy).cgImage())
            let results = try #require(request.results)
            found.append(results.first?.alignmentTransform)
        }
        // Nothing before the first frame.
        #expect(found[0] == nil)
        let expected: [(Double, Double)] = [(-5, 0), (-7, 3), (0, 0)]
        for (t, (tx, ty)) in zip(found.dropFirst(), expected) {
            let t = try #require(t)
            #expect(abs(t.tx - tx) < 0.1 && abs(t.ty - ty) < 0.1, "\(t) vs \(tx), \(ty)")
        }
    }
}
