import Foundation
import Imaging
import Sensor

/// What portrait effects and semantic segmentation mattes share: one byte of coverage a pixel
/// (`kCVPixelFormatType_OneComponent8`, 0 = none, 255 = all), in buffers and in the auxiliary-data
/// dictionaries files store.
///
/// A matte's dictionary holds its rows in `kCGImageAuxiliaryDataInfoData`, `Width`, `Height`,
/// `BytesPerRow` and `PixelFormat` in `kCGImageAuxiliaryDataInfoDataDescription`, and an empty
/// `kCGImageAuxiliaryDataInfoMetadata` (where Apple writes XMP naming the matte's version).
package enum MatteRepresentation {
    /// A matte's buffer; a one-byte-per-pixel layout always exists, so this cannot fail.
    static func buffer(_ plane: PixelPlane<UInt8>) -> CVPixelBuffer {
        guard let made = PixelBufferFilling.oneComponent8(plane) else {
            preconditionFailure("no OneComponent8 buffer of \(plane.width)x\(plane.height)")
        }
        return made
    }

    /// The coverage in a `kCVPixelFormatType_OneComponent8` buffer; nil for any other format.
    package static func plane(of buffer: CVPixelBuffer) -> PixelPlane<UInt8>? {
        guard buffer.pixelFormat == kCVPixelFormatType_OneComponent8 else { return nil }
        let p = buffer.planes[0]
        return PixelPlane(width: buffer.width, height: buffer.height) { x, y, _ in
            p.base.advanced(by: y * p.bytesPerRow).assumingMemoryBound(to: UInt8.self)[x]
        }
    }

    /// The plane turned or mirrored, as `applyingExifOrientation(_:)` asks.
    static func oriented(_ plane: PixelPlane<UInt8>, _ orientation: CGImagePropertyOrientation) -> PixelPlane<UInt8> {
        guard let o = ExifOrientation(rawValue: Int(orientation.rawValue)) else {
            preconditionFailure("every CGImagePropertyOrientation is an EXIF orientation")
        }
        return plane.applying(o)
    }

    static func dictionary(of plane: PixelPlane<UInt8>) -> [AnyHashable: Any] {
        var data = Data(capacity: plane.width * plane.height)
        for y in 0..<plane.height {
            for x in 0..<plane.width { data.append(plane[x, y, 0]) }
        }
        return [
            kCGImageAuxiliaryDataInfoData: data,
            kCGImageAuxiliaryDataInfoDataDescription: [
                "Width": plane.width, "Height": plane.height, "BytesPerRow": plane.width,
                "PixelFormat": Int(kCVPixelFormatType_OneComponent8),
            ] as [String: Any],
            kCGImageAuxiliaryDataInfoMetadata: [String: Any](),
        ]
    }

    static func plane(from dictionary: [AnyHashable: Any]) throws -> PixelPlane<UInt8> {
        guard let data = dictionary[kCGImageAuxiliaryDataInfoData] as? Data else {
            throw MatteDataError.malformed("no \(kCGImageAuxiliaryDataInfoData)")
        }
        guard let description = dictionary[kCGImageAuxiliaryDataInfoDataDescription] as? [String: Any],
            let width = description["Width"] as? Int, let height = description["Height"] as? Int,
            let bytesPerRow = description["BytesPerRow"] as? Int, let format = description["PixelFormat"] as? Int
        else { throw MatteDataError.malformed("\(kCGImageAuxiliaryDataInfoDataDescription) lacks a key") }
        guard format == Int(kCVPixelFormatType_OneComponent8) else {
            throw MatteDataError.malformed("PixelFormat \(format) is not kCVPixelFormatType_OneComponent8")
        }
        guard width > 0, height > 0, bytesPerRow >= width, data.count >= bytesPerRow * height else {
            throw MatteDataError.malformed("\(width)x\(height) at \(bytesPerRow) bytes per row needs more data")
        }
        let bytes = [UInt8](data)
        return PixelPlane(width: width, height: height) { x, y, _ in bytes[y * bytesPerRow + x] }
    }
}

/// Why an auxiliary-data dictionary or a pixel buffer holds no readable matte.
package enum MatteDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key or value that is missing or wrong.
    case malformed(String)

    package var description: String {
        switch self {
        case .malformed(let what): return "malformed matte: \(what)"
        }
    }
}
