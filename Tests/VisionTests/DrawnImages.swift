import CoreVideo
import Foundation
import Testing

/// Test images drawn with known geometry: bright convex quadrilaterals on a dark surface, each pixel's value the
/// fraction of it the shapes cover (4 × 4 samples), so that the true corners are known to a fraction of a pixel.
struct Drawing: DrawnPicture {
    let width: Int
    let height: Int
    /// Each shape's corners in pixels, origin top-left, clockwise on screen from the top-left corner.
    var shapes: [[SIMD2<Double>]]
    var inside: (r: Double, g: Double, b: Double) = (0.92, 0.90, 0.86)
    var outside: (r: Double, g: Double, b: Double) = (0.35, 0.22, 0.14)

    /// How much of pixel (x, y) the shapes cover, 0…1.
    func coverage(_ x: Int, _ y: Int) -> Double {
        func isInside(_ p: SIMD2<Double>, _ corners: [SIMD2<Double>]) -> Bool {
            for k in 0..<corners.count {
                let a = corners[k], b = corners[(k + 1) % corners.count]
                if (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0 { return false }
            }
            return true
        }
        var covered = 0
        for sy in 0..<4 {
            for sx in 0..<4 {
                let p = SIMD2(Double(x) + (Double(sx) + 0.5) / 4, Double(y) + (Double(sy) + 0.5) / 4)
                if shapes.contains(where: { isInside(p, $0) }) { covered += 1 }
            }
        }
        return Double(covered) / 16
    }

    /// Encoded 8-bit R, G, B of pixel (x, y).
    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let a = coverage(x, y)
        func byte(_ i: Double, _ o: Double) -> UInt8 { UInt8((255 * (a * i + (1 - a) * o)).rounded()) }
        return (byte(inside.r, outside.r), byte(inside.g, outside.g), byte(inside.b, outside.b))
    }

    /// A pixel corner (origin top-left) in Vision's normalised coordinates (origin bottom-left) of an image of
    /// `width × height`: the definition the tests check against, written out here independently of the module.
    static func normalised(_ p: SIMD2<Double>, width: Int, height: Int) -> CGPoint {
        CGPoint(x: p.x / Double(width), y: 1 - p.y / Double(height))
    }
}

/// A test picture drawn in code: its size and each pixel's encoded 8-bit colour.
protocol DrawnPicture {
    var width: Int { get }
    var height: Int { get }
    /// Encoded 8-bit R, G, B of pixel (x, y).
    func rgb(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8)
}

extension DrawnPicture {
    /// The drawing in a BGRA pixel buffer, written through Core Video's API as a camera app fills one.
    func pixelBuffer() throws -> CVPixelBuffer {
        var made: CVPixelBuffer?
        let status = CVPixelBufferCreate(nil, width, height, kCVPixelFormatType_32BGRA, nil, &made)
        #expect(status == kCVReturnSuccess)
        let buffer = try #require(made)
        CVPixelBufferLockBaseAddress(buffer, [])
        defer { CVPixelBufferUnlockBaseAddress(buffer, []) }
        let base = try #require(CVPixelBufferGetBaseAddress(buffer))
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        for y in 0..<height {
            let row = base.advanced(by: y * stride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                row[4 * x] = b
                row[4 * x + 1] = g
                row[4 * x + 2] = r
                row[4 * x + 3] = 255
            }
        }
        return buffer
    }

    /// The drawing as an 8-bit RGBX `CGImage`, the layout of a photo's `cgImageRepresentation()`.
    func cgImage() throws -> CGImage {
        var bytes = [UInt8](repeating: 255, count: 4 * width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = rgb(x, y)
                bytes[4 * (y * width + x)] = r
                bytes[4 * (y * width + x) + 1] = g
                bytes[4 * (y * width + x) + 2] = b
            }
        }
        let provider = try #require(CGDataProvider(data: Data(bytes) as CFData))
        let space = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        return try #require(
            CGImage(
                width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4 * width,
                space: space, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue),
                provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent))
    }
}

/// Expects two normalised points within `tolerance` of each other on both axes.
func expectNear(
    _ got: CGPoint, _ want: CGPoint, _ tolerance: Double = 0.01, _ what: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        abs(Double(got.x - want.x)) < tolerance && abs(Double(got.y - want.y)) < tolerance,
        "\(what) \(got) vs \(want)", sourceLocation: sourceLocation)
}
