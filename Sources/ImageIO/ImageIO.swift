// On Linux, `import ImageIO` gives iOS photo code ImageIO's image sources and destinations over the photo files
// Obscura writes and reads (JPEG, HEIC, PNG), and, as the SDK's module does, the names its declarations are written
// in: Foundation, the CoreFoundation types and the CoreGraphics image (`CGImage`), with ImageIO's property keys.
@_exported import Foundation
@_exported import ObscuraAV
import Imaging

/// Options of image sources and their thumbnails (ImageIO's `kCGImageSource…` keys).
nonisolated(unsafe) public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
nonisolated(unsafe) public let kCGImageSourceShouldCacheImmediately: CFString = "kCGImageSourceShouldCacheImmediately"
nonisolated(unsafe) public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"
nonisolated(unsafe) public let kCGImageSourceThumbnailMaxPixelSize: CFString = "kCGImageSourceThumbnailMaxPixelSize"
nonisolated(unsafe) public let kCGImageSourceCreateThumbnailFromImageIfAbsent: CFString = "kCGImageSourceCreateThumbnailFromImageIfAbsent"
nonisolated(unsafe) public let kCGImageSourceCreateThumbnailFromImageAlways: CFString = "kCGImageSourceCreateThumbnailFromImageAlways"
nonisolated(unsafe) public let kCGImageSourceCreateThumbnailWithTransform: CFString = "kCGImageSourceCreateThumbnailWithTransform"

/// The type identifiers of the formats Obscura reads and writes.
enum ImageFileType {
    static let jpeg = "public.jpeg", heic = "public.heic", png = "public.png"
    /// A Digital Negative, by the identifier ImageIO gives it.
    static let dng = "com.adobe.raw-image"

    /// The format of a file's bytes, from its signature; nil for any other.
    static func of(_ bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png }
        if HEIF.isBaseMediaFile(bytes) { return heic }
        return nil
    }
}

/// A value of an options dictionary as a Boolean or a number, whatever type the caller used.
enum OptionValue {
    static func flag(_ options: CFDictionary?, _ key: CFString) -> Bool {
        let value = (options as? [String: Any])?[key as String]
        return (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false
    }
    static func number(_ options: CFDictionary?, _ key: CFString) -> Double? {
        let value = (options as? [String: Any])?[key as String]
        return (value as? Double) ?? (value as? Int).map(Double.init) ?? (value as? NSNumber)?.doubleValue
    }
}
