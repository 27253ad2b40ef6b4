import Foundation
import Imaging
import ObscuraAV

/// A photo file being written (ImageIO's `CGImageDestination`): one picture with its properties, encoded as
/// JPEG, HEIC (where libheif can encode HEVC) or PNG when finalised, into mutable data or a file. The common idiom
/// of photo apps, copying a captured photo with changed metadata (a location, an orientation), is
/// `CGImageDestinationAddImageFromSource` with the new properties.
public final class CGImageDestination: @unchecked Sendable {
    fileprivate enum Target {
        case data(NSMutableData)
        case file(URL)
    }
    private let target: Target
    let type: String
    private let capacity: Int
    private let options: [String: Any]
    private var pictures: [(pixels: PixelPlane<UInt8>, properties: [String: Any], colorSpace: String)] = []
    private var finalized = false
    private let lock = NSLock()

    fileprivate init?(target: Target, type: String, count: Int, options: CFDictionary?) {
        guard CGImageDestinationCopyTypeIdentifiers().contains(where: { ($0 as? String) == type }), count >= 1 else {
            return nil
        }
        self.target = target
        self.type = type
        capacity = count
        self.options = (options as? [String: Any]) ?? [:]
    }

    fileprivate func add(_ pixels: PixelPlane<UInt8>, _ properties: [String: Any], colorSpace: String) {
        lock.withLock {
            guard !finalized, pictures.count < capacity else { return }
            pictures.append((pixels, properties, colorSpace))
        }
    }

    fileprivate func setProperties(_ properties: [String: Any]) {
        lock.withLock {
            for (key, value) in properties { mergedOptions[key] = value }
        }
    }
    private var mergedOptions: [String: Any] = [:]

    /// Encodes the picture; false when none was added or it cannot be written.
    fileprivate func finalize() -> Bool {
        let (picture, settings): ((pixels: PixelPlane<UInt8>, properties: [String: Any], colorSpace: String)?, [String: Any]) =
            lock.withLock {
                guard !finalized else { return (nil, [:]) }
                finalized = true
                return (pictures.first, options.merging(mergedOptions) { $1 })
            }
        guard let picture, let bytes = encode(picture, settings) else { return false }
        switch target {
        case .data(let data):
            data.append(Data(bytes))
            return true
        case .file(let url):
            return (try? Data(bytes).write(to: url, options: .atomic)) != nil
        }
    }

    private func encode(
        _ picture: (pixels: PixelPlane<UInt8>, properties: [String: Any], colorSpace: String), _ settings: [String: Any]
    ) -> [UInt8]? {
        let properties = picture.properties.merging(settings.filter { $0.key.hasPrefix("{") || $0.key == ImageProperties.orientation }) {
            $1
        }
        let exif = ImageProperties.exifTIFF(from: properties)
        let icc = picture.colorSpace == CGColorSpace.displayP3 ? ICCProfile.displayP3 : ICCProfile.sRGB
        // The picture's own quality first, as apps pass it with the image, then the file's.
        let asked = picture.properties[kCGImageDestinationLossyCompressionQuality as String]
            ?? settings[kCGImageDestinationLossyCompressionQuality as String]
        let quality = asked.flatMap { ($0 as? Double) ?? ($0 as? NSNumber)?.doubleValue } ?? 0.9
        switch type {
        case ImageFileType.jpeg:
            let segments = exif.map { [JPEG.Segment(marker: 0xE1, data: Array("Exif".utf8) + [0, 0] + $0)] } ?? []
            return try? JPEG.encode(
                picture.pixels, quality: max(1, Int((min(1, max(0, quality)) * 100).rounded())), segments: segments,
                iccProfile: icc)
        case ImageFileType.heic:
            // Quality q is libheif's 50·q, as the photo output writes HEIC (Capture rules §5).
            return try? HEIF.encode(
                picture.pixels, quality: Int((min(1, max(0, quality)) * 50).rounded()), iccProfile: icc, exif: exif)
        default:
            let space: PNGColorSpace = picture.colorSpace == CGColorSpace.displayP3 ? .displayP3 : .sRGB
            return try? PNG.encode(PNGImage(pixels: picture.pixels, colorSpace: space))
        }
    }
}

/// The types a destination writes: JPEG and PNG, and HEIC where libheif can encode HEVC.
public func CGImageDestinationCopyTypeIdentifiers() -> CFArray {
    ([ImageFileType.jpeg] + (HEIF.isAvailable ? [ImageFileType.heic] : []) + [ImageFileType.png]) as NSArray
}

/// A destination that appends the file to `data` when finalised; nil for a type it does not write.
public func CGImageDestinationCreateWithData(
    _ data: CFMutableData, _ type: CFString, _ count: Int, _ options: CFDictionary?
) -> CGImageDestination? {
    CGImageDestination(target: .data(data), type: type as String, count: count, options: options)
}

/// A destination that writes the file at `url` when finalised; nil for a type it does not write.
public func CGImageDestinationCreateWithURL(
    _ url: CFURL, _ type: CFString, _ count: Int, _ options: CFDictionary?
) -> CGImageDestination? {
    CGImageDestination(target: .file(url as URL), type: type as String, count: count, options: options)
}

/// Options for the whole file, such as `kCGImageDestinationLossyCompressionQuality`.
public func CGImageDestinationSetProperties(_ idst: CGImageDestination, _ properties: CFDictionary?) {
    idst.setProperties((properties as? [String: Any]) ?? [:])
}

/// Adds a picture with its properties (`Orientation`, `{TIFF}`, `{Exif}`, `{GPS}` and the quality option).
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    guard let rgb = ImageRGB.rgb(image) else { return }
    let space = image.colorSpace?.name.map { $0.contains("P3") ? CGColorSpace.displayP3 : CGColorSpace.sRGB }
    idst.add(rgb, (properties as? [String: Any]) ?? [:], colorSpace: space ?? CGColorSpace.sRGB)
}

/// Adds a source's picture with its own properties, each top-level key of `properties` replacing the source's
/// (a dictionary such as `{GPS}` whole, as ImageIO merges them; `kCFNull` removes a key).
public func CGImageDestinationAddImageFromSource(
    _ idst: CGImageDestination, _ isrc: CGImageSource, _ index: Int, _ properties: CFDictionary?
) {
    guard index == 0, let rgb = isrc.pixels() else { return }
    var merged = isrc.properties() ?? [:]
    for (key, value) in (properties as? [String: Any]) ?? [:] {
        if value is NSNull { merged[key] = nil } else { merged[key] = value }
    }
    idst.add(rgb, merged, colorSpace: ImageRGB.colorSpaceName(isrc.properties()))
}

/// Writes the file; false when no picture was added or it could not be encoded or written.
@discardableResult
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool { idst.finalize() }
