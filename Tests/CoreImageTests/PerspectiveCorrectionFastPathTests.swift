import AVFoundation
import CoreImage
import Foundation
import Testing

/// A warp of an image held as bytes, rendered to 8-bit, takes a fast path that samples the bytes directly; every
/// other chain renders the warp's input to floats first. Pixels with alpha, and those whose taps reach an edge, repeat
/// the general path's arithmetic on the same values and give the same bytes exactly; runs of opaque pixels wholly
/// inside the source mix their taps in fixed point (`LinearBilinear8`) and may differ by one code, never more.
/// Cropping an image to its own extent changes no pixel whose centre lies inside that extent, but puts a crop at the
/// chain's root, which sends the render down the general path, so the pair compares the two paths through the
/// public API.
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

    /// How far `fast` strays from `general`: the largest difference of a colour byte, of an alpha byte (every fourth),
    /// and the share of bytes that are equal. The noise's neighbours differ by up to 63 codes, so mixing encoded codes
    /// instead of linear light, or misplacing a tap, moves far more than one code.
    static func difference(_ fast: [UInt8], _ general: [UInt8]) -> (colour: Int, alpha: Int, equalShare: Double) {
        guard fast.count == general.count, !fast.isEmpty else { return (.max, .max, 0) }
        var colour = 0, alpha = 0, equal = 0
        for (i, (a, b)) in zip(fast, general).enumerated() {
            let d = abs(Int(a) - Int(b))
            if i % 4 == 3 { alpha = max(alpha, d) } else { colour = max(colour, d) }
            if d == 0 { equal += 1 }
        }
        return (colour, alpha, Double(equal) / Double(fast.count))
    }

    /// Within one code in colour, equal in alpha, and equal in at least 90 % of the bytes.
    static func expectAgreement(_ fast: [UInt8], _ general: [UInt8]) {
        let d = difference(fast, general)
        #expect(d.colour <= 1 && d.alpha == 0 && d.equalShare >= 0.9, "\(d)")
    }

    /// An opaque 320 × 240 picture (alpha skipped), the noise unless given its pixels.
    static func opaqueImage(_ pixel: (Int, Int) -> [UInt8] = { noise($0, $1, alpha: false) }) -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<240 { for x in 0..<320 { bytes += pixel(x, y) } }
        return CGImage(
            width: 320, height: 240, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4 * 320,
            space: CGColorSpace(name: CGColorSpace.sRGB)!,
            bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue),
            provider: CGDataProvider(data: Data(bytes) as CFData)!, decode: nil, shouldInterpolate: true,
            intent: .defaultIntent)!
    }

    /// A quadrilateral inside the picture, one reaching past its edges (taps outside it are clear), and a steep
    /// trapezoid, whose positions bend enough along a row that some runs leave the fixed-point path.
    static let quadrilaterals: [[CGPoint]] = [
        [
            CGPoint(x: 31.3, y: 210.7), CGPoint(x: 290.2, y: 221.9), CGPoint(x: 270.6, y: 18.4),
            CGPoint(x: 45.1, y: 30.8),
        ],
        [
            CGPoint(x: -20.5, y: 260.2), CGPoint(x: 335.7, y: 230.1), CGPoint(x: 300.3, y: -12.6),
            CGPoint(x: 12.9, y: 5.5),
        ],
        [
            CGPoint(x: 150.2, y: 236.5), CGPoint(x: 171.9, y: 236.1), CGPoint(x: 318.4, y: 2.3),
            CGPoint(x: 1.6, y: 3.7),
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

    @Test(arguments: [0, 1, 2]) func anOpaqueCGImageGivesTheSameBytesBothWaysWithinOneCode(_ index: Int) throws {
        let image = CIImage(cgImage: Self.opaqueImage())
        for context in [Fixture.managed, Fixture.raw] {
            let (fast, general) = try Self.bothPaths(try Self.corrected(image, Self.quadrilaterals[index]), context)
            Self.expectAgreement(fast, general)
            #expect(fast.contains { $0 != 0 })
        }
        // Uncropped, the output reaches past the quadrilateral and the picture.
        let wide = try Self.corrected(image, Self.quadrilaterals[index], crop: false)
        let (fast, general) = try Self.bothPaths(wide, Fixture.managed)
        Self.expectAgreement(fast, general)
    }

    /// A picture of one flat colour: every mix of equal taps is that colour, so both paths must give it exactly,
    /// and the fixed-point path's rounding cannot drift a flat area.
    @Test func aFlatOpaquePictureStaysExactlyItsColour() throws {
        for colour: [UInt8] in [[0, 0, 0, 255], [1, 128, 254, 255], [255, 255, 255, 255], [37, 190, 12, 255]] {
            let image = CIImage(cgImage: Self.opaqueImage { _, _ in colour })
            let corrected = try Self.corrected(image, Self.quadrilaterals[0])
            let (fast, _) = try Self.bothPaths(corrected, Fixture.managed)
            let pixels = stride(from: 0, to: fast.count, by: 4).map { Array(fast[$0..<($0 + 4)]) }
            #expect(pixels.allSatisfy { $0 == colour }, "\(colour)")
        }
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
