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
/// `AVVideoQualityKey`: compression quality 0…1 in a photo format dictionary.
public let AVVideoQualityKey = "AVVideoQualityKey"
/// `AVVideoCompressionPropertiesKey`.
public let AVVideoCompressionPropertiesKey = "AVVideoCompressionPropertiesKey"
/// `kCVPixelBufferPixelFormatTypeKey`: the pixel format entry of an uncompressed photo format dictionary.
public let kCVPixelBufferPixelFormatTypeKey = "PixelFormatType"
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
/// `AVVideoAllowFrameReorderingKey`: whether B-frames may be used, in `AVVideoCompressionPropertiesKey`. Movies
/// are written without them, as a phone's camera recordings are.
public let AVVideoAllowFrameReorderingKey = "AllowFrameReordering"
/// `AVVideoMaxKeyFrameIntervalKey`: frames between key frames, in `AVVideoCompressionPropertiesKey`.
public let AVVideoMaxKeyFrameIntervalKey = "MaxKeyFrameInterval"
