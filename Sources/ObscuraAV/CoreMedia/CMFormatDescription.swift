/// `CMMediaType`: a four-character code such as `'vide'`.
public typealias CMMediaType = FourCharCode

/// `kCMMediaType_Video` (`'vide'`).
public let kCMMediaType_Video: CMMediaType = 0x7669_6465
/// `kCMMediaType_Metadata` (`'meta'`), the media type of depth formats' descriptions.
public let kCMMediaType_Metadata: CMMediaType = 0x6D65_7461

/// A description of a media format (`CMFormatDescription`): media type, subtype and dimensions.
public final class CMFormatDescription: @unchecked Sendable {
    let mediaType: CMMediaType
    let mediaSubType: FourCharCode
    let dimensions: CMVideoDimensions

    init(mediaType: CMMediaType, mediaSubType: FourCharCode, dimensions: CMVideoDimensions) {
        self.mediaType = mediaType
        self.mediaSubType = mediaSubType
        self.dimensions = dimensions
    }
}

/// `CMVideoFormatDescription`.
public typealias CMVideoFormatDescription = CMFormatDescription

/// `CMFormatDescriptionGetMediaType`.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaType }

/// `CMFormatDescriptionGetMediaSubType`: for video, the pixel format (`'420f'`, `'hdis'`, …).
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode { desc.mediaSubType }

/// `CMVideoFormatDescriptionGetDimensions`.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMFormatDescription) -> CMVideoDimensions {
    videoDesc.dimensions
}

extension CMFormatDescription {
    /// The Swift overlay's `mediaSubType` and `dimensions` accessors.
    public var mediaSubTypeCode: FourCharCode { mediaSubType }
}
