import Foundation
import ISP
import Imaging
import Obscura
import ObscuraAV
import Sensor

/// A photo file opened for reading (ImageIO's `CGImageSource`): its pictures, their properties, its embedded
/// thumbnail and its auxiliary images, for the formats Obscura writes (JPEG, HEIC, PNG, and the DNG of a RAW photo,
/// whose picture is its development at the file's settings, as `CIRAWFilter` gives it, and whose thumbnail is its
/// preview). Any data makes a source,
/// as in ImageIO; one of another format has no type and no pictures.
public final class CGImageSource: @unchecked Sendable {
    let data: Data
    let bytes: [UInt8]
    /// The file's type identifier; nil when it is none of the formats read.
    let type: String?
    /// The file read as a DNG, where it is one.
    let raw: DNGFile?

    init(data: Data) {
        self.data = data
        bytes = [UInt8](data)
        raw = bytes.starts(with: [0x4D, 0x4D, 0, 0x2A]) || bytes.starts(with: [0x49, 0x49, 0x2A, 0])
            ? try? DNGFile(bytes: bytes) : nil
        type = raw == nil ? ImageFileType.of(bytes) : ImageFileType.dng
    }

    /// The primary picture's properties, computed once.
    private lazy var pictureProperties: [String: Any]? = raw?.properties(bytes: bytes) ?? ImageProperties.photoFile(bytes)
    private let lock = NSLock()

    func properties() -> [String: Any]? { lock.withLock { pictureProperties } }

    /// The primary picture as 8-bit RGB, as stored (the orientation not applied).
    func pixels() -> PixelPlane<UInt8>? {
        switch type {
        case ImageFileType.jpeg?: return try? JPEG.decodeRGB(bytes)
        case ImageFileType.heic?: return try? HEIF.decode(bytes, maximumPixels: 1 << 27).pixels
        case ImageFileType.png?:
            guard let png = try? PNG.decode(bytes) else { return nil }
            let plane: PixelPlane<UInt8>
            switch png.pixels {
            case .eightBit(let p): plane = p
            case .sixteenBit(let p): plane = p.mapPixels(to: UInt8.self, outputChannels: p.channels) { $0 }
            }
            return plane.channels == 3 ? plane : ImageRGB.rgb(plane)
        case ImageFileType.dng?:
            // As stored: the development before the file's orientation is applied.
            return raw.flatMap { DNGDevelopment(file: $0).developedSRGB() }
        default: return nil
        }
    }

    /// The Exif orientation of the primary picture, 1 when it has none.
    var orientation: Int { ((properties()?[ImageProperties.orientation] as? NSNumber)?.intValue) ?? 1 }
}

/// A source over data; ImageIO returns one for any data, so this is never nil.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    CGImageSource(data: data as Data)
}

/// A source over a file; nil when it cannot be read.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let data = try? Data(contentsOf: url as URL) else { return nil }
    return CGImageSource(data: data)
}

/// The file's type identifier (`public.jpeg`, `public.heic`, `public.png`, `com.adobe.raw-image`); nil for any
/// other data.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? { isrc.type.map { $0 as NSString } }

/// The pictures in the file: 1 for a photo file (its auxiliary images and thumbnail are not counted), 0 for data
/// that is none.
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int { isrc.type == nil ? 0 : 1 }

/// The container's properties: its size in bytes.
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    guard isrc.type != nil else { return nil }
    return [kCGImagePropertyFileSize: isrc.data.count] as NSDictionary
}

/// A picture's properties: its size, colour model, profile name, orientation and the `{TIFF}`, `{Exif}` and
/// `{GPS}` dictionaries of its Exif, under ImageIO's names, and a DNG's `{DNG}` dictionary; nil for an index past
/// the pictures.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CFDictionary?
{
    guard index == 0, let properties = isrc.properties() else { return nil }
    return properties as NSDictionary
}

/// A picture as a `CGImage`, its pixels as stored (ImageIO applies no orientation here either); nil for an index
/// past the pictures or data that does not decode.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    guard index == 0, let rgb = isrc.pixels() else { return nil }
    return CGImage(rgb: rgb, colorSpaceName: ImageRGB.colorSpaceName(isrc.properties()))
}

/// A thumbnail of a picture, as ImageIO makes one: the file's embedded thumbnail (a JPEG's Exif IFD1, a HEIC's
/// thumbnail item, a DNG's preview) unless
/// `kCGImageSourceCreateThumbnailFromImageAlways`, else, with that option or
/// `kCGImageSourceCreateThumbnailFromImageIfAbsent`, the picture scaled so that its longer side is at most
/// `kCGImageSourceThumbnailMaxPixelSize` (the picture's own size without it). With
/// `kCGImageSourceCreateThumbnailWithTransform` it is turned as the picture's orientation says. Nil when there is
/// no embedded thumbnail and neither option asks for one from the picture.
public func CGImageSourceCreateThumbnailAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CGImage?
{
    guard index == 0, isrc.type != nil else { return nil }
    let always = OptionValue.flag(options, kCGImageSourceCreateThumbnailFromImageAlways)
    let ifAbsent = OptionValue.flag(options, kCGImageSourceCreateThumbnailFromImageIfAbsent)
    var picture: PixelPlane<UInt8>?
    if !always, isrc.type == ImageFileType.jpeg, let exif = ImageProperties.jpegExif(isrc.bytes),
        let thumbnail = ExifThumbnail.jpeg(in: exif)
    {
        picture = try? JPEG.decodeRGB(thumbnail)
    } else if !always, isrc.type == ImageFileType.heic {
        picture = (try? HEIF.thumbnail(in: isrc.bytes)) ?? nil
    } else if !always, let preview = isrc.raw?.preview {
        picture = try? JPEG.decodeRGB(preview.jpeg)
    }
    if picture == nil, always || ifAbsent { picture = isrc.pixels() }
    guard var rgb = picture else { return nil }
    if let limit = OptionValue.number(options, kCGImageSourceThumbnailMaxPixelSize), limit >= 1 {
        let scale = min(1, limit / Double(max(rgb.width, rgb.height)))
        if scale < 1 {
            rgb = PreviewImage.scaled(
                rgb, width: max(1, Int((Double(rgb.width) * scale).rounded())),
                height: max(1, Int((Double(rgb.height) * scale).rounded())))
        }
    }
    if OptionValue.flag(options, kCGImageSourceCreateThumbnailWithTransform),
        let orientation = ExifOrientation(rawValue: isrc.orientation)
    {
        rgb = ImageRGB.oriented(rgb, orientation)
    }
    return CGImage(rgb: rgb, colorSpaceName: ImageRGB.colorSpaceName(isrc.properties()))
}

/// The auxiliary data of a picture as ImageIO describes it, for `AVDepthData(fromDictionaryRepresentation:)`
/// and `AVPortraitEffectsMatte(fromDictionaryRepresentation:)`: the file's depth as depth or disparity (converted
/// to the type asked), or its portrait effects matte; nil when the file has none.
public func CGImageSourceCopyAuxiliaryDataInfoAtIndex(
    _ isrc: CGImageSource, _ index: Int, _ auxiliaryImageDataType: CFString
) -> CFDictionary? {
    guard index == 0 else { return nil }
    let type = auxiliaryImageDataType as String
    if type == kCGImageAuxiliaryDataTypeDepth as String || type == kCGImageAuxiliaryDataTypeDisparity as String {
        guard let depth = try? AVDepthData(fromFileData: isrc.data) else { return nil }
        let wanted = type == kCGImageAuxiliaryDataTypeDepth as String
            ? kCVPixelFormatType_DepthFloat32 : kCVPixelFormatType_DisparityFloat32
        return depth.converting(toDepthDataType: wanted).dictionaryRepresentation(forAuxiliaryDataType: nil)
            .map { $0 as NSDictionary }
    }
    if type == kCGImageAuxiliaryDataTypePortraitEffectsMatte as String {
        guard let matte = try? AVPortraitEffectsMatte(fromFileData: isrc.data) else { return nil }
        return matte.dictionaryRepresentation(forAuxiliaryDataType: nil).map { $0 as NSDictionary }
    }
    return nil
}
