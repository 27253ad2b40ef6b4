import Foundation
import Imaging

/// The preview or thumbnail a photo request asked for: a pixel format (previews only) and the
/// size the photo is scaled to.
package struct PreviewImage: Sendable, Hashable {
    /// The preview's pixel format; nil for an embedded thumbnail, which has a codec instead.
    let pixelFormat: OSType?
    let width: Int
    let height: Int

    /// The largest size with the photo's aspect ratio that fits inside `box` (spec §4 [D]: the
    /// preview keeps the photo's aspect ratio). Without a box, our choice [I]: the photo fitted
    /// inside 1024 × 1024, and never larger than the photo.
    static func fitted(
        photo: (width: Int, height: Int), box: (width: Int, height: Int)?
    ) -> (width: Int, height: Int) {
        guard photo.width > 0, photo.height > 0 else { return (0, 0) }
        let limit = box ?? (1024, 1024)
        let scale = min(1, Double(limit.width) / Double(photo.width), Double(limit.height) / Double(photo.height))
        func side(_ n: Int) -> Int { max(1, Int((Double(n) * scale).rounded())) }
        return (side(photo.width), side(photo.height))
    }

    /// A number from a format dictionary, whatever numeric type the caller used.
    static func integer(_ value: Any?) -> Int? {
        switch value {
        case let v as Int: return v
        case let v as UInt32: return Int(v)
        case let v as Double: return Int(v)
        case let v as NSNumber: return v.intValue
        default: return nil
        }
    }

    /// Scales encoded RGB down by averaging each output pixel's footprint (a box filter, which
    /// does not alias when shrinking, unlike point sampling).
    package static func scaled(_ source: PixelPlane<UInt8>, width: Int, height: Int) -> PixelPlane<UInt8> {
        let sx = Double(source.width) / Double(width)
        let sy = Double(source.height) / Double(height)
        let channels = source.channels
        return PixelPlane<UInt8>(width: width, height: height, channels: channels) { x, y, c in
            let x0 = Int((Double(x) * sx).rounded(.down))
            let x1 = max(x0 + 1, min(source.width, Int((Double(x + 1) * sx).rounded(.up))))
            let y0 = Int((Double(y) * sy).rounded(.down))
            let y1 = max(y0 + 1, min(source.height, Int((Double(y + 1) * sy).rounded(.up))))
            var sum = 0
            for v in y0..<y1 { for u in x0..<x1 { sum += Int(source[u, v, c]) } }
            let count = (x1 - x0) * (y1 - y0)
            return UInt8((sum + count / 2) / count)
        }
    }
}
