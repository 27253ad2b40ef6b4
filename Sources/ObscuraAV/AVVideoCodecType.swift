import Foundation

/// A video codec (`AVVideoCodecType`).
public struct AVVideoCodecType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let jpeg = AVVideoCodecType(rawValue: "jpeg")
    public static let hevc = AVVideoCodecType(rawValue: "hvc1")
    public static let h264 = AVVideoCodecType(rawValue: "avc1")
}

/// A file type (`AVFileType`), a uniform type identifier.
public struct AVFileType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let jpg = AVFileType(rawValue: "public.jpeg")
    public static let heic = AVFileType(rawValue: "public.heic")
    public static let tif = AVFileType(rawValue: "public.tiff")
    public static let dng = AVFileType(rawValue: "com.adobe.raw-image")
    /// PNG: not offered by Apple's photo output; Obscura writes its photos as PNG whatever the codec.
    public static let png = AVFileType(rawValue: "public.png")
}

/// `AVVideoCodecKey`: the codec entry of a photo format dictionary.
public let AVVideoCodecKey = "AVVideoCodecKey"
/// `AVVideoCodecH264` and `AVVideoCodecJPEG`: the codecs' names as strings, before `AVVideoCodecType` (iOS 11),
/// still found in writers' settings; an `AVVideoCodecKey` entry may be either form.
@available(iOS, deprecated: 11.0, renamed: "AVVideoCodecType.h264")
public let AVVideoCodecH264 = AVVideoCodecType.h264.rawValue
@available(iOS, deprecated: 11.0, renamed: "AVVideoCodecType.jpeg")
public let AVVideoCodecJPEG = AVVideoCodecType.jpeg.rawValue
/// `AVVideoQualityKey`: compression quality 0…1 in a photo format dictionary.
public let AVVideoQualityKey = "AVVideoQualityKey"
/// `AVVideoCompressionPropertiesKey`.
public let AVVideoCompressionPropertiesKey = "AVVideoCompressionPropertiesKey"
/// `kCVPixelBufferPixelFormatTypeKey`: the pixel format entry of an uncompressed photo format dictionary.
nonisolated(unsafe) public let kCVPixelBufferPixelFormatTypeKey: CFString = "PixelFormatType"
/// `AVVideoWidthKey`: the width entry of a thumbnail or video settings dictionary.
public let AVVideoWidthKey = "AVVideoWidthKey"
/// `AVVideoHeightKey`: the height entry of a thumbnail or video settings dictionary.
public let AVVideoHeightKey = "AVVideoHeightKey"

extension AVFileType {
    /// A QuickTime movie.
    public static let mov = AVFileType(rawValue: "com.apple.quicktime-movie")
    /// An MPEG-4 movie.
    public static let mp4 = AVFileType(rawValue: "public.mpeg-4")
    /// An iTunes video file.
    public static let m4v = AVFileType(rawValue: "com.apple.m4v-video")
}

/// `AVVideoAverageBitRateKey`: bits per second, in `AVVideoCompressionPropertiesKey`.
public let AVVideoAverageBitRateKey = "AverageBitRate"
/// `AVVideoExpectedSourceFrameRateKey`: frames per second, in `AVVideoCompressionPropertiesKey`.
public let AVVideoExpectedSourceFrameRateKey = "ExpectedFrameRate"
/// `AVVideoMaxKeyFrameIntervalDurationKey`: seconds between key frames, in `AVVideoCompressionPropertiesKey`.
public let AVVideoMaxKeyFrameIntervalDurationKey = "MaxKeyFrameIntervalDuration"
/// `AVVideoProfileLevelKey`: the H.264 profile and level, in `AVVideoCompressionPropertiesKey`. Movies are
/// written with the encoder's own profile (x264's High), which every H.264 player reads.
public let AVVideoProfileLevelKey = "ProfileLevel"
/// `AVVideoProfileLevelH264BaselineAutoLevel`.
public let AVVideoProfileLevelH264BaselineAutoLevel = "H264_Baseline_AutoLevel"
/// `AVVideoProfileLevelH264MainAutoLevel`.
public let AVVideoProfileLevelH264MainAutoLevel = "H264_Main_AutoLevel"
/// `AVVideoProfileLevelH264HighAutoLevel`.
public let AVVideoProfileLevelH264HighAutoLevel = "H264_High_AutoLevel"
/// `AVVideoProfileLevelH264Baseline30`, `…31`, `…41`, `AVVideoProfileLevelH264Main30`, `…31`, `…32`, `…41`
/// and `AVVideoProfileLevelH264High40`, `…41`: fixed levels, taken like the automatic ones.
public let AVVideoProfileLevelH264Baseline30 = "H264_Baseline_3_0"
public let AVVideoProfileLevelH264Baseline31 = "H264_Baseline_3_1"
public let AVVideoProfileLevelH264Baseline41 = "H264_Baseline_4_1"
public let AVVideoProfileLevelH264Main30 = "H264_Main_3_0"
public let AVVideoProfileLevelH264Main31 = "H264_Main_3_1"
public let AVVideoProfileLevelH264Main32 = "H264_Main_3_2"
public let AVVideoProfileLevelH264Main41 = "H264_Main_4_1"
public let AVVideoProfileLevelH264High40 = "H264_High_4_0"
public let AVVideoProfileLevelH264High41 = "H264_High_4_1"
/// `AVVideoAllowFrameReorderingKey`: whether B-frames may be used, in `AVVideoCompressionPropertiesKey`. Movies
/// are written without them, as a phone's camera recordings are.
public let AVVideoAllowFrameReorderingKey = "AllowFrameReordering"
/// `AVVideoMaxKeyFrameIntervalKey`: frames between key frames, in `AVVideoCompressionPropertiesKey`.
public let AVVideoMaxKeyFrameIntervalKey = "MaxKeyFrameInterval"

/// On Apple's platforms a file type is an `NSString`, so iOS code hands one to ImageIO as `AVFileType.heic as
/// CFString`. Conforming to the standard library's bridging protocol, which Foundation on Linux uses for its own
/// types, lets that cast compile and give the identifier's string here too.
extension AVFileType: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { NSString(string: rawValue) }

    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout AVFileType?) {
        result = AVFileType(rawValue: String(describing: source))
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout AVFileType?) -> Bool {
        result = AVFileType(rawValue: String(describing: source))
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> AVFileType {
        AVFileType(rawValue: source.map { String(describing: $0) } ?? "")
    }
}
