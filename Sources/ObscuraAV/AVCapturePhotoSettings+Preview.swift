import Foundation

/// Preview images and embedded thumbnails (spec §4).
extension AVCapturePhotoSettings {
    /// The pixel formats `previewPhotoFormat` may name: BGRA and the two 4:2:0 Y'CbCr formats,
    /// the uncompressed formats an iPhone offers (spec §4 [D]); BGRA first, so the common
    /// `availablePreviewPhotoPixelFormatTypes.first` idiom gets a format any image code reads
    /// (order [I]). Empty for RAW-only settings, which have no processed photo to preview [I].
    public var availablePreviewPhotoPixelFormatTypes: [OSType] {
        format == nil
            ? []
            : [
                kCVPixelFormatType_32BGRA, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange,
                kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            ]
    }

    /// `availablePreviewPhotoPixelFormatTypes` as Objective-C's array of numbers, the name Swift
    /// code reached for before the Swift array existed.
    public var __availablePreviewPhotoPixelFormatTypes: [NSNumber] {
        availablePreviewPhotoPixelFormatTypes.map { NSNumber(value: $0) }
    }

    /// The codecs `embeddedThumbnailPhotoFormat` may name: JPEG, for a compressed processed
    /// photo only (spec §4 [D]: an uncompressed photo has no file to embed a thumbnail in).
    public var availableEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] {
        codec == nil ? [] : [.jpeg]
    }

    /// The codecs `rawEmbeddedThumbnailPhotoFormat` may name: JPEG, the preview a DNG carries, for settings with a
    /// RAW format (spec §4).
    public var availableRawEmbeddedThumbnailPhotoCodecTypes: [AVVideoCodecType] {
        rawPhotoPixelFormatType == 0 ? [] : [.jpeg]
    }

    /// The preview the settings ask for, at the size it will have for a photo of `photo` size.
    func previewRequest(photo: (width: Int, height: Int)) -> PreviewImage? {
        guard let dictionary = previewPhotoFormat,
            let format = PreviewImage.integer(dictionary[kCVPixelBufferPixelFormatTypeKey])
        else { return nil }
        let box = Self.box(
            dictionary, widthKey: kCVPixelBufferWidthKey as String, heightKey: kCVPixelBufferHeightKey as String)
        let size = PreviewImage.fitted(photo: photo, box: box)
        return PreviewImage(pixelFormat: OSType(truncatingIfNeeded: format), width: size.width, height: size.height)
    }

    /// The longest side of a JPEG photo's thumbnail (our choice): Exif carries it in the APP1 segment, which
    /// holds at most 64 KB with the rest of the Exif, and Apple documents that the file format may limit a
    /// thumbnail's size (spec §4).
    static let jpegThumbnailSide = 320

    /// The thumbnail the settings ask for, at the size it will have for a photo of `photo` size.
    func thumbnailRequest(photo: (width: Int, height: Int)) -> PreviewImage? {
        guard let dictionary = embeddedThumbnailPhotoFormat, dictionary[AVVideoCodecKey] != nil else { return nil }
        var box = Self.box(dictionary, widthKey: AVVideoWidthKey, heightKey: AVVideoHeightKey)
        if codec == .jpeg {
            let side = Self.jpegThumbnailSide
            box = (min(box?.width ?? side, side), min(box?.height ?? side, side))
        }
        let size = PreviewImage.fitted(photo: photo, box: box)
        return PreviewImage(pixelFormat: nil, width: size.width, height: size.height)
    }

    /// The preview a RAW photo's DNG embeds, at the size it will have for a photo of `photo` size: the box asked
    /// for, or the photo's size without one (a DNG holds a preview of any size); nil when none was asked or its
    /// codec is not one the settings offer.
    func rawThumbnailRequest(photo: (width: Int, height: Int)) -> PreviewImage? {
        guard let dictionary = rawEmbeddedThumbnailPhotoFormat,
            let codec = (dictionary[AVVideoCodecKey] as? AVVideoCodecType)
                ?? (dictionary[AVVideoCodecKey] as? String).map(AVVideoCodecType.init(rawValue:)),
            availableRawEmbeddedThumbnailPhotoCodecTypes.contains(codec)
        else { return nil }
        let box = Self.box(dictionary, widthKey: AVVideoWidthKey, heightKey: AVVideoHeightKey)
        let size = PreviewImage.fitted(photo: photo, box: box)
        return PreviewImage(pixelFormat: nil, width: size.width, height: size.height)
    }

    /// The width and height entries, when both are given and positive.
    private static func box(_ dictionary: [String: Any], widthKey: String, heightKey: String) -> (
        width: Int, height: Int
    )? {
        guard let w = PreviewImage.integer(dictionary[widthKey]), let h = PreviewImage.integer(dictionary[heightKey]),
            w > 0, h > 0
        else { return nil }
        return (w, h)
    }

    /// Why the preview or thumbnail format cannot be served, in Apple's words; nil when it can.
    var previewFormatRefusal: String? {
        if let dictionary = previewPhotoFormat {
            guard let format = PreviewImage.integer(dictionary[kCVPixelBufferPixelFormatTypeKey]),
                availablePreviewPhotoPixelFormatTypes.contains(OSType(truncatingIfNeeded: format))
            else {
                return "Unsupported previewPhotoFormat - use -availablePreviewPhotoPixelFormatTypes"
            }
        }
        if let dictionary = embeddedThumbnailPhotoFormat {
            let codec = (dictionary[AVVideoCodecKey] as? AVVideoCodecType)
                ?? (dictionary[AVVideoCodecKey] as? String).map(AVVideoCodecType.init(rawValue:))
            guard let codec, availableEmbeddedThumbnailPhotoCodecTypes.contains(codec) else {
                return "Unsupported embeddedThumbnailPhotoFormat - use -availableEmbeddedThumbnailPhotoCodecTypes"
            }
        }
        return nil
    }
}
