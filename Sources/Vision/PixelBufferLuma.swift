import Foundation
import Imaging
import ObscuraAV

/// The luma of a pixel buffer, 0…1, for the formats that hold an image of light.
///
/// Y'CbCr buffers give their luma plane (video range rescaled from 16–235, or 64–940 for 10 bits, to 0–1; full
/// range from 0–255 or 0–1023); BGRA and half-float RGBA are weighed into luma; one-component buffers are luma
/// already. Depth, disparity and raw
/// Bayer buffers hold no picture to find rectangles in, and are refused with `VNErrorCode.invalidFormat`.
enum PixelBufferLuma {
    static func read(_ buffer: CVPixelBuffer) throws -> PixelPlane<Float> {
        let width = CVPixelBufferGetWidth(buffer), height = CVPixelBufferGetHeight(buffer)
        guard width > 0, height > 0 else { throw VisionFailure.emptyImage(width: width, height: height) }
        let format = CVPixelBufferGetPixelFormatType(buffer)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let planar = CVPixelBufferIsPlanar(buffer)
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, 0) : CVPixelBufferGetBaseAddress(buffer)
        else { throw VisionFailure.emptyImage(width: width, height: height) }
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) : CVPixelBufferGetBytesPerRow(buffer)
        let start = UnsafeRawPointer(base)
        func plane(_ value: (UnsafeRawPointer, Int) -> Float) -> PixelPlane<Float> {
            LumaPlane.filled(width: width, height: height) { y, row in
                let source = start + y * stride
                for x in 0..<width { row[x] = value(source, x) }
            }
        }
        switch format {
        case kCVPixelFormatType_OneComponent8:
            return plane { row, x in Float(row.load(fromByteOffset: x, as: UInt8.self)) / 255 }
        case kCVPixelFormatType_OneComponent32Float:
            return plane { row, x in row.loadUnaligned(fromByteOffset: 4 * x, as: Float.self) }
        case let format where YCbCrCoding.of(format) != nil:
            let coding = YCbCrCoding.of(format)!
            return plane { row, x in (coding.code(row, x) - coding.lumaOffset) / coding.lumaScale }
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB:
            // Where red, green and blue sit in each pixel's four bytes.
            let (ro, go, bo) = format == kCVPixelFormatType_32BGRA ? (2, 1, 0) : (1, 2, 3)
            return plane { row, x in
                let b = row.load(fromByteOffset: 4 * x + bo, as: UInt8.self)
                let g = row.load(fromByteOffset: 4 * x + go, as: UInt8.self)
                let r = row.load(fromByteOffset: 4 * x + ro, as: UInt8.self)
                return Rec709Luma.of(Float(r), Float(g), Float(b)) / 255
            }
        case kCVPixelFormatType_64RGBAHalf:
            return plane { row, x in
                func c(_ k: Int) -> Float { Float(row.loadUnaligned(fromByteOffset: 8 * x + 2 * k, as: Float16.self)) }
                return Rec709Luma.of(c(0), c(1), c(2))
            }
        default:
            // No picture to search (spec §22.1 rule 3).
            throw VisionFailure.unreadableFormat("pixel format '\(fourCharString(format))'")
        }
    }

    /// Calls `body` with a reader of the buffer's encoded R'G'B' (column, row; 0…1): bytes of BGRA and ARGB, half
    /// floats, and Y'CbCr through the inverse BT.601 matrix with the chroma of the 2 × 2 block (`YCbCrCoding`).
    /// Returns nil without calling it for formats without colour (one-component buffers).
    static func withColour<R>(_ buffer: CVPixelBuffer, _ body: ((Int, Int) -> SIMD3<Float>) throws -> R) throws -> R? {
        let format = CVPixelBufferGetPixelFormatType(buffer)
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let planar = CVPixelBufferIsPlanar(buffer)
        guard let base = planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, 0) : CVPixelBufferGetBaseAddress(buffer)
        else { return nil }
        let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) : CVPixelBufferGetBytesPerRow(buffer)
        let start = UnsafeRawPointer(base)
        switch format {
        case kCVPixelFormatType_32BGRA, kCVPixelFormatType_32ARGB:
            let (ro, go, bo) = format == kCVPixelFormatType_32BGRA ? (2, 1, 0) : (1, 2, 3)
            return try body { x, y in
                let row = start + y * stride
                func byte(_ o: Int) -> Float { Float(row.load(fromByteOffset: 4 * x + o, as: UInt8.self)) / 255 }
                return SIMD3(byte(ro), byte(go), byte(bo))
            }
        case kCVPixelFormatType_64RGBAHalf:
            return try body { x, y in
                let row = start + y * stride
                func c(_ k: Int) -> Float { Float(row.loadUnaligned(fromByteOffset: 8 * x + 2 * k, as: Float16.self)) }
                return SIMD3(c(0), c(1), c(2))
            }
        case let format where YCbCrCoding.of(format) != nil && planar:
            guard let coding = YCbCrCoding.of(format), let chromaBase = CVPixelBufferGetBaseAddressOfPlane(buffer, 1)
            else { return nil }
            let chroma = UnsafeRawPointer(chromaBase), chromaStride = CVPixelBufferGetBytesPerRowOfPlane(buffer, 1)
            return try body { x, y in
                let chromaRow = chroma + (y / 2) * chromaStride
                return coding.rgb(
                    coding.code(start + y * stride, x), coding.code(chromaRow, 2 * (x / 2)),
                    coding.code(chromaRow, 2 * (x / 2) + 1))
            }
        default:
            return nil
        }
    }
}
