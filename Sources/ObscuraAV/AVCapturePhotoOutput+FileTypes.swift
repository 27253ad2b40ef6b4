import Foundation

/// Which formats each file type can hold (spec §3.1 [D]). Every list is empty for a file type
/// the output does not offer now, and so empty until the output has a video source.
extension AVCapturePhotoOutput {
    /// Codecs a processed photo of `fileType` may use: HEVC in HEIF, JPEG in JPEG; none in TIFF,
    /// which holds uncompressed pixels.
    public func supportedPhotoCodecTypes(for fileType: AVFileType) -> [AVVideoCodecType] {
        guard availablePhotoFileTypes.contains(fileType) else { return [] }
        let codecs = availablePhotoCodecTypes
        switch fileType {
        case .heic: return codecs.filter { $0 == .hevc }
        case .jpg: return codecs.filter { $0 == .jpeg }
        default: return []
        }
    }

    /// Uncompressed pixel formats a processed photo of `fileType` may use: TIFF holds the
    /// available uncompressed formats; HEIF and JPEG hold compressed photos only.
    public func supportedPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] {
        guard availablePhotoFileTypes.contains(fileType), fileType == .tif else { return [] }
        return availablePhotoPixelFormatTypes
    }

    /// RAW pixel formats a RAW photo of `fileType` may use: DNG holds the available RAW formats.
    public func supportedRawPhotoPixelFormatTypes(for fileType: AVFileType) -> [OSType] {
        guard availableRawPhotoFileTypes.contains(fileType) else { return [] }
        return availableRawPhotoPixelFormatTypes
    }
}
