import AVFoundation
import CoreImage
import Foundation
import Testing

/// Images and readings for the tests, through the public API only.
enum Fixture {
    /// A context with colour management off: values pass from input to output as they are, so filter
    /// arithmetic can be checked exactly.
    static let raw = CIContext(options: [.workingColorSpace: NSNull()])
    /// Core Image's default context: linear working space, sRGB-encoded inputs and outputs.
    static let managed = CIContext()

    /// A half-float RGBA buffer; `f(x, y)` gives the pixel at column x of row y, rows from the top.
    static func halfBuffer(_ w: Int, _ h: Int, _ f: (Int, Int) -> SIMD4<Float>) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, w, h, kCVPixelFormatType_64RGBAHalf, nil, &buffer)
        let b = buffer!
        CVPixelBufferLockBaseAddress(b, [])
        defer { CVPixelBufferUnlockBaseAddress(b, []) }
        let base = CVPixelBufferGetBaseAddress(b)!, stride = CVPixelBufferGetBytesPerRow(b)
        for y in 0..<h {
            let row = (base + y * stride).assumingMemoryBound(to: Float16.self)
            for x in 0..<w {
                let v = f(x, y)
                for c in 0..<4 { row[4 * x + c] = Float16(v[c]) }
            }
        }
        return b
    }

    /// An image of unmanaged values (no colour conversion), rows from the top.
    static func image(_ w: Int, _ h: Int, _ f: (Int, Int) -> SIMD4<Float>) -> CIImage {
        CIImage(cvPixelBuffer: halfBuffer(w, h, f), options: [.colorSpace: NSNull()])
    }

    /// A one-value-per-pixel float buffer of a depth or disparity format.
    static func floatBuffer(_ w: Int, _ h: Int, format: OSType, _ f: (Int, Int) -> Float) -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, w, h, format, nil, &buffer)
        let b = buffer!
        CVPixelBufferLockBaseAddress(b, [])
        defer { CVPixelBufferUnlockBaseAddress(b, []) }
        let base = CVPixelBufferGetBaseAddress(b)!, stride = CVPixelBufferGetBytesPerRow(b)
        for y in 0..<h {
            let row = (base + y * stride).assumingMemoryBound(to: Float.self)
            for x in 0..<w { row[x] = f(x, y) }
        }
        return b
    }

    /// The image's pixels over a rectangle, rows from the top, as half floats rendered by `context`.
    static func pixels(_ image: CIImage, _ rect: CGRect, _ context: CIContext = raw) -> [[SIMD4<Float>]] {
        let w = Int(rect.width), h = Int(rect.height)
        let buffer = halfBuffer(w, h) { _, _ in .zero }
        context.render(image, to: buffer, bounds: rect, colorSpace: nil)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(buffer)!, stride = CVPixelBufferGetBytesPerRow(buffer)
        return (0..<h).map { y in
            let row = (base + y * stride).assumingMemoryBound(to: Float16.self)
            return (0..<w).map { x in SIMD4(Float(row[4 * x]), Float(row[4 * x + 1]), Float(row[4 * x + 2]), Float(row[4 * x + 3])) }
        }
    }

    /// A value per pixel, rendered into a 32-bit float buffer (the red component), rows from the top.
    static func values(_ image: CIImage, _ rect: CGRect, _ context: CIContext = raw) -> [[Float]] {
        let w = Int(rect.width), h = Int(rect.height)
        let buffer = floatBuffer(w, h, format: kCVPixelFormatType_DepthFloat32) { _, _ in 0 }
        context.render(image, to: buffer, bounds: rect, colorSpace: nil)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(buffer)!, stride = CVPixelBufferGetBytesPerRow(buffer)
        return (0..<h).map { y in
            let row = (base + y * stride).assumingMemoryBound(to: Float.self)
            return (0..<w).map { row[$0] }
        }
    }

    /// An 8-bit sRGB `CGImage` of RGBA bytes (straight alpha), rows from the top.
    static func cgImage(_ w: Int, _ h: Int, _ f: (Int, Int) -> [UInt8]) -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<h { for x in 0..<w { bytes += f(x, y) } }
        return CGImage(
            width: w, height: h, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 4 * w,
            space: CGColorSpace(name: CGColorSpace.sRGB)!, bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
            provider: CGDataProvider(data: Data(bytes) as CFData)!, decode: nil, shouldInterpolate: true,
            intent: .defaultIntent)!
    }

    /// A `CGImage`'s bytes.
    static func bytes(_ image: CGImage) -> [UInt8] { [UInt8](image.dataProvider!.data! as Data) }

    /// The IEC 61966-2-1 sRGB decoding, written out here for the tests' expectations.
    static func linear(_ code: Int) -> Double {
        let v = Double(code) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// Four opaque colours, a 2 × 2 image of them (rows from the top), and its rectangle: the colour filters' probe.
    static let fourColours: [SIMD4<Float>] = [
        SIMD4(0.2, 0.5, 0.8, 1), SIMD4(1, 0, 0.25, 1), SIMD4(0.05, 0.9, 0.4, 1), SIMD4(0.6, 0.6, 0.6, 1),
    ]
    static let fourColourImage = image(2, 2) { x, y in fourColours[2 * y + x] }
    static let fourColourRect = CGRect(x: 0, y: 0, width: 2, height: 2)

    /// Each of the four colours beside what a filter of the four-colour image made of it.
    static func fourColourPairs(_ output: CIImage?, _ context: CIContext = raw) throws
        -> [(input: SIMD4<Float>, output: SIMD4<Float>)]
    {
        let out = try #require(output)
        return zip(fourColours, pixels(out, fourColourRect, context).flatMap { $0 }).map { ($0, $1) }
    }

    static func close(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ tolerance: Float = 2e-3) -> Bool {
        let d: SIMD4<Float> = a - b
        let worst: Float = max(abs(d.x), abs(d.y), abs(d.z), abs(d.w))
        let scale: Float = max(1, abs(b.x), abs(b.y), abs(b.z), abs(b.w))
        return worst <= tolerance * scale
    }
}
