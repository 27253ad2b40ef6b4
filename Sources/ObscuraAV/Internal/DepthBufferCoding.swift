import Foundation
import Imaging

/// Moves single-channel depth values between float planes and CoreVideo buffers of the four
/// depth formats (16-bit formats store IEEE half floats, spec §9).
package enum DepthBufferCoding {
    /// A buffer of `pixelFormat` (one of hdis, fdis, hdep, fdep) holding the plane.
    package static func buffer(_ plane: PixelPlane<Float>, pixelFormat: OSType) -> CVPixelBuffer? {
        guard let buffer = CVPixelBuffer(width: plane.width, height: plane.height, pixelFormat: pixelFormat) else {
            return nil
        }
        let p = buffer.planes[0]
        let half = pixelFormat == kCVPixelFormatType_DepthFloat16 || pixelFormat == kCVPixelFormatType_DisparityFloat16
        for y in 0..<plane.height {
            let row = p.base.advanced(by: y * p.bytesPerRow)
            if half {
                let r = row.assumingMemoryBound(to: Float16.self)
                for x in 0..<plane.width { r[x] = Float16(plane[x, y]) }
            } else {
                let r = row.assumingMemoryBound(to: Float.self)
                for x in 0..<plane.width { r[x] = plane[x, y] }
            }
        }
        return buffer
    }

    /// The values of a depth-format buffer, or nil for any other format.
    package static func plane(of buffer: CVPixelBuffer) -> PixelPlane<Float>? {
        let f = buffer.pixelFormat
        let half = f == kCVPixelFormatType_DepthFloat16 || f == kCVPixelFormatType_DisparityFloat16
        guard half || f == kCVPixelFormatType_DepthFloat32 || f == kCVPixelFormatType_DisparityFloat32 else {
            return nil
        }
        let p = buffer.planes[0]
        var values = [Float](repeating: 0, count: buffer.width * buffer.height)
        for y in 0..<buffer.height {
            let row = p.base.advanced(by: y * p.bytesPerRow)
            for x in 0..<buffer.width {
                values[y * buffer.width + x] =
                    half
                    ? Float(row.assumingMemoryBound(to: Float16.self)[x]) : row.assumingMemoryBound(to: Float.self)[x]
            }
        }
        return PixelPlane(width: buffer.width, height: buffer.height, elements: values)
    }
}
