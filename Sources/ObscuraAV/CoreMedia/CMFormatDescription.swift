import Foundation

/// `CMMediaType`: a four-character code such as `'vide'`.
public typealias CMMediaType = FourCharCode

/// `kCMMediaType_Video` (`'vide'`).
public let kCMMediaType_Video: CMMediaType = 0x7669_6465
/// `kCMMediaType_Metadata` (`'meta'`), the media type of depth formats' descriptions.
public let kCMMediaType_Metadata: CMMediaType = 0x6D65_7461

/// `kCMVideoCodecType_H264` (`'avc1'`).
public let kCMVideoCodecType_H264: CMVideoCodecType = 0x6176_6331
/// `kCMVideoCodecType_HEVC` (`'hvc1'`).
public let kCMVideoCodecType_HEVC: CMVideoCodecType = 0x6876_6331

/// A description of a media format (`CMFormatDescription`): media type, subtype and dimensions.
public final class CMFormatDescription: @unchecked Sendable {
    let mediaTypeCode: CMMediaType
    let subTypeCode: FourCharCode
    let videoDimensions: CMVideoDimensions
    /// The extensions (`CMFormatDescriptionGetExtensions`): for video, how the values are to be read.
    let extensionValues: [String: Any]
    /// For audio, the stream's layout and its channel layout's bytes, where the pointers Core Media's getters hand
    /// out stay valid for the description's life.
    let audio: (stream: UnsafeMutablePointer<AudioStreamBasicDescription>, layout: UnsafeMutableRawBufferPointer?)?

    init(
        mediaType: CMMediaType, mediaSubType: FourCharCode, dimensions: CMVideoDimensions,
        extensions: [String: Any] = [:]
    ) {
        mediaTypeCode = mediaType
        subTypeCode = mediaSubType
        videoDimensions = dimensions
        extensionValues = extensions
        audio = nil
    }

    /// An audio description: the stream's layout and, when given, its channel layout's bytes.
    init(audio stream: AudioStreamBasicDescription, layout: Data?, extensions: [String: Any] = [:]) {
        mediaTypeCode = kCMMediaType_Audio
        subTypeCode = stream.mFormatID
        videoDimensions = CMVideoDimensions()
        extensionValues = extensions
        let kept = UnsafeMutablePointer<AudioStreamBasicDescription>.allocate(capacity: 1)
        kept.initialize(to: stream)
        let bytes = layout.flatMap { data -> UnsafeMutableRawBufferPointer? in
            guard !data.isEmpty else { return nil }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 8)
            data.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return buffer
        }
        audio = (kept, bytes)
    }

    /// A video description of an image buffer: its pixel format and size, and as extensions the attachments
    /// that say how its values are read (primaries, transfer function, matrix, colour space), as Core Media
    /// takes them from the buffer.
    convenience init(videoOf buffer: CVImageBuffer, dimensions: CMVideoDimensions? = nil) {
        let read = [
            kCVImageBufferColorPrimariesKey, kCVImageBufferTransferFunctionKey, kCVImageBufferYCbCrMatrixKey,
            kCVImageBufferCGColorSpaceKey,
        ].map { $0 as String }
        self.init(
            mediaType: kCMMediaType_Video, mediaSubType: buffer.pixelFormat,
            dimensions: dimensions ?? CMVideoDimensions(width: Int32(buffer.width), height: Int32(buffer.height)),
            extensions: buffer.attachments.filter { read.contains($0.key) })
    }

    deinit {
        audio?.stream.deallocate()
        audio?.layout?.deallocate()
    }

    /// The media type (`.video`, `.metadata`, …).
    public var mediaType: MediaType { MediaType(rawValue: mediaTypeCode) }
    /// The subtype: for video, the pixel format or codec (`'420f'`, `'hdis'`, …).
    public var mediaSubType: MediaSubType { MediaSubType(rawValue: subTypeCode) }
    /// The width and height in pixels; zero for a description without them.
    public var dimensions: CMVideoDimensions { videoDimensions }

    /// The subtype's code, for tools that print it.
    package var mediaSubTypeCode: FourCharCode { subTypeCode }
}

/// `CMVideoFormatDescription`.
public typealias CMVideoFormatDescription = CMFormatDescription

/// `CMFormatDescriptionGetMediaType`.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaTypeCode }

/// `CMFormatDescriptionGetMediaSubType`: for video, the pixel format (`'420f'`, `'hdis'`, …).
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode { desc.subTypeCode }

/// `CMVideoFormatDescriptionGetDimensions`.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMFormatDescription) -> CMVideoDimensions {
    videoDesc.videoDimensions
}

/// `CMVideoFormatDescriptionGetPresentationDimensions`: the size a picture of this format is shown at. Every
/// emulated format has square pixels and its clean aperture is the whole picture, so it is the encoded size
/// whichever adjustments are asked for.
public func CMVideoFormatDescriptionGetPresentationDimensions(
    _ videoDesc: CMVideoFormatDescription, usePixelAspectRatio: Bool, useCleanAperture: Bool
) -> CGSize {
    CGSize(width: CGFloat(videoDesc.videoDimensions.width), height: CGFloat(videoDesc.videoDimensions.height))
}

/// `CMVideoFormatDescriptionGetCleanAperture`: the part of the picture meant to be shown. An emulated format has
/// no clean-aperture extension, so it is the whole picture, at the origin either way up.
public func CMVideoFormatDescriptionGetCleanAperture(
    _ videoDesc: CMVideoFormatDescription, originIsAtTopLeft: Bool
) -> CGRect {
    CGRect(
        origin: .zero,
        size: CMVideoFormatDescriptionGetPresentationDimensions(
            videoDesc, usePixelAspectRatio: false, useCleanAperture: false))
}

/// The text of a four-character code in CoreMedia's quoted form, `'420f'`.
private func quoted(_ code: FourCharCode) -> String { "'\(fourCharString(code))'" }

extension CMFormatDescription {
    /// `CMFormatDescription.MediaType`: a media type's four-character code, printed as `'vide'`.
    public struct MediaType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: FourCharCode
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        public var description: String { quoted(rawValue) }

        /// `'vide'`.
        public static let video = MediaType(rawValue: kCMMediaType_Video)
        /// `'soun'`.
        public static let audio = MediaType(rawValue: kCMMediaType_Audio)
        /// `'meta'`.
        public static let metadata = MediaType(rawValue: kCMMediaType_Metadata)
        /// `'muxx'`.
        public static let muxed = MediaType(rawValue: 0x6D75_7878)
        /// `'text'`.
        public static let text = MediaType(rawValue: 0x7465_7874)
    }

    /// `CMFormatDescription.MediaSubType`: a subtype's four-character code, printed as `'420f'`.
    public struct MediaSubType: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
        ExpressibleByStringLiteral
    {
        public let rawValue: FourCharCode
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// From the code's four characters, as in `"420f"`.
        public init(stringLiteral value: String) { rawValue = fourCharCode(value) }
        public var description: String { quoted(rawValue) }

        /// `'avc1'`, H.264 video.
        public static let h264 = MediaSubType(rawValue: kCMVideoCodecType_H264)
        /// `'hvc1'`, HEVC video.
        public static let hevc = MediaSubType(rawValue: kCMVideoCodecType_HEVC)
        /// `'jpeg'`.
        public static let jpeg = MediaSubType(rawValue: 0x6A70_6567)
        /// `'lpcm'`, linear PCM audio.
        public static let linearPCM = MediaSubType(rawValue: kAudioFormatLinearPCM)
        /// `'BGRA'`.
        public static let pixelFormat_32BGRA = MediaSubType(rawValue: kCVPixelFormatType_32BGRA)
        /// `'420v'`.
        public static let pixelFormat_420YpCbCr8BiPlanarVideoRange = MediaSubType(
            rawValue: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
        /// `'420f'`.
        public static let pixelFormat_420YpCbCr8BiPlanarFullRange = MediaSubType(
            rawValue: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
        /// `'x420'`.
        public static let pixelFormat_420YpCbCr10BiPlanarVideoRange = MediaSubType(
            rawValue: kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange)
        /// `'xf20'`.
        public static let pixelFormat_420YpCbCr10BiPlanarFullRange = MediaSubType(
            rawValue: kCVPixelFormatType_420YpCbCr10BiPlanarFullRange)
        /// `'RGhA'`.
        public static let pixelFormat_64RGBAHalf = MediaSubType(rawValue: kCVPixelFormatType_64RGBAHalf)
        /// `'L008'`.
        public static let pixelFormat_OneComponent8 = MediaSubType(rawValue: kCVPixelFormatType_OneComponent8)
        /// `'hdep'`.
        public static let pixelFormat_DepthFloat16 = MediaSubType(rawValue: kCVPixelFormatType_DepthFloat16)
        /// `'fdep'`.
        public static let pixelFormat_DepthFloat32 = MediaSubType(rawValue: kCVPixelFormatType_DepthFloat32)
        /// `'hdis'`.
        public static let pixelFormat_DisparityFloat16 = MediaSubType(rawValue: kCVPixelFormatType_DisparityFloat16)
        /// `'fdis'`.
        public static let pixelFormat_DisparityFloat32 = MediaSubType(rawValue: kCVPixelFormatType_DisparityFloat32)
    }
}

/// `CMVideoFormatDescriptionCreateForImageBuffer`: a video description of the buffer's pixel format and size.
@discardableResult
public func CMVideoFormatDescriptionCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer,
    formatDescriptionOut: UnsafeMutablePointer<CMFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = CMFormatDescription(videoOf: imageBuffer)
    return 0
}

/// `CMVideoFormatDescriptionMatchesImageBuffer`: whether the description's format and size are the buffer's.
public func CMVideoFormatDescriptionMatchesImageBuffer(
    _ videoDesc: CMFormatDescription, imageBuffer: CVImageBuffer
) -> Bool {
    videoDesc.mediaTypeCode == kCMMediaType_Video && videoDesc.subTypeCode == imageBuffer.pixelFormat
        && Int(videoDesc.videoDimensions.width) == imageBuffer.width
        && Int(videoDesc.videoDimensions.height) == imageBuffer.height
}

/// `CMVideoCodecType`: a codec's or pixel format's four-character code.
public typealias CMVideoCodecType = FourCharCode

/// `CMPixelFormatType`: an uncompressed pixel format's four-character code, the same codes as Core Video's
/// `kCVPixelFormatType_…` constants.
public typealias CMPixelFormatType = FourCharCode
/// 32-bit ARGB (`kCVPixelFormatType_32ARGB`).
public let kCMPixelFormat_32ARGB: CMPixelFormatType = kCVPixelFormatType_32ARGB
/// 32-bit BGRA (`kCVPixelFormatType_32BGRA`).
public let kCMPixelFormat_32BGRA: CMPixelFormatType = kCVPixelFormatType_32BGRA
/// 24-bit RGB (`kCVPixelFormatType_24RGB`, the code 24).
public let kCMPixelFormat_24RGB: CMPixelFormatType = 0x0000_0018
/// 4:2:2 Y'CbCr, 8 bits, Cb Y'0 Cr Y'1 ('2vuy', `kCVPixelFormatType_422YpCbCr8`).
public let kCMPixelFormat_422YpCbCr8: CMPixelFormatType = 0x3276_7579
/// 4:2:2 Y'CbCr, 8 bits, Y'0 Cb Y'1 Cr ('yuvs', `kCVPixelFormatType_422YpCbCr8_yuvs`).
public let kCMPixelFormat_422YpCbCr8_yuvs: CMPixelFormatType = 0x7975_7673

/// `CMVideoFormatDescriptionCreate`: a video description of a codec or pixel format and a size; a size that is
/// not positive is `kCMFormatDescriptionError_InvalidParameter` (spec §18.4 [I]).
@discardableResult
public func CMVideoFormatDescriptionCreate(
    allocator: CFAllocator?, codecType: CMVideoCodecType, width: Int32, height: Int32, extensions: CFDictionary?,
    formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    guard width > 0, height > 0 else { return kCMFormatDescriptionError_InvalidParameter }
    formatDescriptionOut.pointee = CMFormatDescription(
        mediaType: kCMMediaType_Video, mediaSubType: codecType,
        dimensions: CMVideoDimensions(width: width, height: height),
        extensions: (extensions as? [String: Any]) ?? [:])
    return noErr
}

/// `kCMFormatDescriptionError_InvalidParameter`.
public let kCMFormatDescriptionError_InvalidParameter: OSStatus = -12710

/// `CMFormatDescriptionGetExtensions`: the description's extensions, or nil when it has none.
public func CMFormatDescriptionGetExtensions(_ desc: CMFormatDescription) -> CFDictionary? {
    desc.extensionValues.isEmpty ? nil : desc.extensionValues as NSDictionary
}

/// `CMFormatDescriptionGetExtension`: the extension under `extensionKey`, or nil.
public func CMFormatDescriptionGetExtension(_ desc: CMFormatDescription, extensionKey: CFString) -> CFPropertyList? {
    desc.extensionValues[extensionKey as String].map { $0 as AnyObject }
}

/// `kCMFormatDescriptionExtension_ColorPrimaries`: the same key as the buffer attachment's.
nonisolated(unsafe) public let kCMFormatDescriptionExtension_ColorPrimaries: CFString = kCVImageBufferColorPrimariesKey
/// `kCMFormatDescriptionExtension_TransferFunction`.
nonisolated(unsafe) public let kCMFormatDescriptionExtension_TransferFunction: CFString =
    kCVImageBufferTransferFunctionKey
/// `kCMFormatDescriptionExtension_YCbCrMatrix`.
nonisolated(unsafe) public let kCMFormatDescriptionExtension_YCbCrMatrix: CFString = kCVImageBufferYCbCrMatrixKey

/// `CMAudioFormatDescription`.
public typealias CMAudioFormatDescription = CMFormatDescription

/// `CMAudioFormatDescriptionGetStreamBasicDescription`: the stream's layout, valid while the description lives;
/// nil for a description that is not audio.
public func CMAudioFormatDescriptionGetStreamBasicDescription(_ desc: CMAudioFormatDescription)
    -> UnsafePointer<AudioStreamBasicDescription>?
{
    desc.audio.map { UnsafePointer($0.stream) }
}

/// `CMAudioFormatDescriptionGetChannelLayout`: the channel layout and its size in bytes, valid while the
/// description lives; nil (size 0) when it has none.
public func CMAudioFormatDescriptionGetChannelLayout(
    _ desc: CMAudioFormatDescription, sizeOut: UnsafeMutablePointer<Int>?
) -> UnsafePointer<AudioChannelLayout>? {
    guard let layout = desc.audio?.layout, let base = layout.baseAddress else {
        sizeOut?.pointee = 0
        return nil
    }
    sizeOut?.pointee = layout.count
    return UnsafePointer(base.assumingMemoryBound(to: AudioChannelLayout.self))
}

/// `CMAudioFormatDescriptionCreate`: an audio description of a stream layout and an optional channel layout of
/// `layoutSize` bytes; the magic cookie of compressed formats is not kept. A layout pointer without its size, or a
/// size too small for a layout, is `kCMFormatDescriptionError_InvalidParameter`.
@discardableResult
public func CMAudioFormatDescriptionCreate(
    allocator: CFAllocator?, asbd: UnsafePointer<AudioStreamBasicDescription>, layoutSize: Int,
    layout: UnsafePointer<AudioChannelLayout>?, magicCookieSize: Int, magicCookie: UnsafeRawPointer?,
    extensions: CFDictionary?, formatDescriptionOut: UnsafeMutablePointer<CMAudioFormatDescription?>
) -> OSStatus {
    var bytes: Data?
    if let layout {
        guard layoutSize >= AudioChannelLayout.byteCount(descriptions: 0) else {
            return kCMFormatDescriptionError_InvalidParameter
        }
        bytes = Data(bytes: UnsafeRawPointer(layout), count: layoutSize)
    }
    formatDescriptionOut.pointee = CMFormatDescription(
        audio: asbd.pointee, layout: bytes, extensions: (extensions as? [String: Any]) ?? [:])
    return noErr
}
