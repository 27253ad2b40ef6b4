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
        Self.byte(at: Double(x) + 0.5 - dx, Double(y) + 0.5 - dy)
    }

    /// The texture's grey at a continuous point (pixels, y down), as an 8-bit colour.
    static func byte(at u: Double, _ v: Double) -> (UInt8, UInt8, UInt8) {
        let value =
            0.15 + 0.35 * noise(u, v, cell: 130, octave: 0) + 0.3 * noise(u, v, cell: 40, octave: 1)
            + 0.2 * noise(u, v, cell: 12, octave: 2)
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

    @Test func aSmallerPictureIsLiftedByTheDifferenceInHeight() throws {
        // The reference's top-left 280 × 200 pixels: with y counting up from each picture's bottom, the same content
        // lies 240 − 200 = 40 higher in the reference.
        let request = VNTranslationalImageRegistrationRequest(
            targetedCGImage: try WarpedWaves(width: 280, height: 200) { $0 }.cgImage())
        try VNImageRequestHandler(cgImage: try Waves(width: 320, height: 240).cgImage(), options: [:]).perform([request]
        )
        let t = try #require(request.results?.first).alignmentTransform
        #expect(abs(t.tx) < 0.1 && abs(t.ty - 40) < 0.1, "\(t)")
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

/// The texture as seen through a homography: pixel p of this picture shows the reference's point `toReference(p)`
/// (pixels, y down).
struct WarpedWaves: DrawnPicture {
    let width: Int
    let height: Int
    let toReference: (SIMD2<Double>) -> SIMD2<Double>

    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let q = toReference(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        return Waves.byte(at: q.x, q.y)
    }
}

@Suite struct VNHomographicImageRegistrationRequestTests {
    /// A turn of 1.5° about the centre, a move of (6, −4) pixels and a slight tilt (the far edge 2 % smaller): the
    /// point of the reference that the floating picture's pixel p shows, y down.
    static func tilted(_ p: SIMD2<Double>, width: Double, height: Double) -> SIMD2<Double> {
        let (c, s) = (cos(1.5 * .pi / 180), sin(1.5 * .pi / 180))
        let centred = p - SIMD2(width / 2, height / 2)
        let w = 1 + 1e-4 * centred.x - 5e-5 * centred.y
        let turned = SIMD2(c * centred.x - s * centred.y, s * centred.x + c * centred.y) / w
        return turned + SIMD2(width / 2 + 6, height / 2 - 4)
    }

    @Test func theWarpCarriesTheFloatingPicturesCornersOntoTheReference() throws {
        let (width, height) = (400, 300)
        let reference = Waves(width: width, height: height)
        let floating = WarpedWaves(width: width, height: height) {
            Self.tilted($0, width: Double(width), height: Double(height))
        }
        let request = VNHomographicImageRegistrationRequest(targetedCGImage: try floating.cgImage())
        #expect(VNHomographicImageRegistrationRequest.supportedRevisions == IndexSet(integer: 1))
        try VNImageRequestHandler(cgImage: try reference.cgImage(), options: [:]).perform([request])
        let warp = try #require(request.results?.first).warpTransform
        // Points a tenth in from each corner, y counting up in both pictures.
        let h = Double(height)
        for (x, y) in [(40.0, 30.0), (360.0, 30.0), (360.0, 270.0), (40.0, 270.0), (200.0, 150.0)] {
            let truth = Self.tilted(SIMD2(x, h - y), width: Double(width), height: h)
            let mapped = warp * SIMD3<Float>(Float(x), Float(y), 1)
            let found = SIMD2(Double(mapped.x / mapped.z), Double(mapped.y / mapped.z))
            let expected = SIMD2(truth.x, h - truth.y)
            #expect(simd_length(found - expected) < 0.5, "(\(x), \(y)) → \(found), not \(expected)")
        }
    }

    @Test func aSmallerPictureIsRegisteredToo() throws {
        // The reference's top-left 280 × 200 pixels: the same content, so with y counting up from each picture's
        // own bottom the warp only lifts it by the difference in height, 240 − 200 = 40.
        let reference = Waves(width: 320, height: 240)
        let floating = WarpedWaves(width: 280, height: 200) { $0 }
        let request = VNHomographicImageRegistrationRequest(targetedCGImage: try floating.cgImage())
        try VNImageRequestHandler(cgImage: try reference.cgImage(), options: [:]).perform([request])
        let warp = try #require(request.results?.first).warpTransform
        for (x, y) in [(20.0, 20.0), (260.0, 20.0), (260.0, 180.0), (20.0, 180.0)] {
            let mapped = warp * SIMD3<Float>(Float(x), Float(y), 1)
            let found = SIMD2(Double(mapped.x / mapped.z), Double(mapped.y / mapped.z))
            #expect(simd_length(found - SIMD2(x, y + 40)) < 0.5, "(\(x), \(y)) → \(found)")
        }
    }

    @Test func theSamePictureIsTheIdentity() throws {
        let picture = Waves(width: 320, height: 240)
        let request = VNHomographicImageRegistrationRequest(targetedCVPixelBuffer: try picture.pixelBuffer())
        try VNImageRequestHandler(cvPixelBuffer: try picture.pixelBuffer(), options: [:]).perform([request])
        let warp = try #require(request.results?.first).warpTransform
        let identity = matrix_identity_float3x3
        for c in 0..<3 {
            for r in 0..<3 { #expect(abs(warp[c][r] - identity[c][r]) < (c == 2 && r < 2 ? 0.05 : 1e-4), "\(warp)") }
        }
    }
}
