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

    /// Scales encoded RGB down by averaging each output pixel's footprint (`PixelPlane.areaScaled`, in the
    /// optimised Imaging module, so that a dependent's debug build makes thumbnails at release speed).
    package static func scaled(_ source: PixelPlane<UInt8>, width: Int, height: Int) -> PixelPlane<UInt8> {
        source.areaScaled(width: width, height: height)
    }
}
