import Foundation
import Imaging

/// What an export preset makes of a movie (Capture rules §25 rule 10): the codec, the largest picture, and how
/// many bits a second the video and the sound get.
struct ExportPreset: Sendable {
    /// How big the exported pictures are.
    enum Size: Sendable {
        /// The stored size.
        case source
        /// The stored size scaled down, never up, until it fits within this box, turned to lie as the
        /// picture does (the box's longer side along the picture's longer side).
        case box(long: Int, short: Int)
    }

    /// The codec; nil keeps the source's (passthrough).
    let codec: AVVideoCodecType?
    let size: Size
    /// The share of the bit rate a phone records the same size at (`AVCaptureMovieFileOutput`'s default) that
    /// the video gets.
    let bitRateShare: Double
    /// AAC bits per second, each channel.
    let audioBitRatePerChannel: Int

    /// The presets offered, by name, in `allExportPresets()`'s order. The size presets are Apple's boxes; the
    /// quality presets' sizes are the ones reported for phones' exports (568 × 320 and 224 × 128 from a 1080p
    /// clip, 480 × 360 and 192 × 144 from a 4:3 one), and their bit rates our choice.
    static let offered: [(name: String, preset: ExportPreset)] = [
        (
            AVAssetExportPresetLowQuality,
            ExportPreset(codec: .h264, size: .box(long: 224, short: 144), share: 0.25, audio: 32_000)
        ),
        (
            AVAssetExportPresetMediumQuality,
            ExportPreset(codec: .h264, size: .box(long: 568, short: 360), share: 0.5, audio: 48_000)
        ),
        (AVAssetExportPresetHighestQuality, ExportPreset(codec: .h264, size: .source, share: 1, audio: 64_000)),
        (AVAssetExportPresetHEVCHighestQuality, ExportPreset(codec: .hevc, size: .source, share: 1, audio: 64_000)),
        (
            AVAssetExportPresetHEVCHighestQualityWithAlpha,
            ExportPreset(codec: .hevc, size: .source, share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPreset640x480,
            ExportPreset(codec: .h264, size: .box(long: 640, short: 480), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPreset960x540,
            ExportPreset(codec: .h264, size: .box(long: 960, short: 540), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPreset1280x720,
            ExportPreset(codec: .h264, size: .box(long: 1280, short: 720), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPreset1920x1080,
            ExportPreset(codec: .h264, size: .box(long: 1920, short: 1080), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPreset3840x2160,
            ExportPreset(codec: .h264, size: .box(long: 3840, short: 2160), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPresetHEVC1920x1080,
            ExportPreset(codec: .hevc, size: .box(long: 1920, short: 1080), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPresetHEVC3840x2160,
            ExportPreset(codec: .hevc, size: .box(long: 3840, short: 2160), share: 1, audio: 64_000)
        ),
        (
            AVAssetExportPresetHEVC7680x4320,
            ExportPreset(codec: .hevc, size: .box(long: 7680, short: 4320), share: 1, audio: 64_000)
        ),
    ]

    /// Keeps the source's codec and size at the bit rate the file declares (else a phone's), re-encoded: the
    /// samples are decoded and encoded again, so the pictures are the source's within the codec's loss.
    static let passthrough = ExportPreset(codec: nil, size: .source, share: 1, audio: 64_000)

    private init(codec: AVVideoCodecType?, size: Size, share: Double, audio: Int) {
        self.codec = codec
        self.size = size
        bitRateShare = share
        audioBitRatePerChannel = audio
    }

    /// The preset of `name`; nil for a name not offered here (the audio-only `AVAssetExportPresetAppleM4A`: a
    /// movie here always has a video track).
    static func named(_ name: String) -> ExportPreset? {
        name == AVAssetExportPresetPassthrough ? passthrough : offered.first { $0.name == name }?.preset
    }

    /// The exported picture size for a stored `width` × `height`: even, as 4:2:0 pictures are.
    func pictureSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard case let .box(long, short) = size else { return (width & ~1, height & ~1) }
        let (boxWidth, boxHeight) = width >= height ? (long, short) : (short, long)
        let scale = min(1, Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        func even(_ v: Double) -> Int { max(2, Int((v / 2).rounded()) * 2) }
        return scale >= 1 ? (width & ~1, height & ~1) : (even(Double(width) * scale), even(Double(height) * scale))
    }

    /// The codec the export writes for a source in `sourceCodec`: the preset's, or for passthrough the source's
    /// (H.264 where the source's is not one written here).
    func codec(for sourceCodec: VideoCodec?) -> AVVideoCodecType {
        if let codec { return codec }
        return sourceCodec == .hevc ? .hevc : .h264
    }

    /// Video bits per second for pictures of `width` × `height` at `fps`: the preset's share of what a phone records
    /// that size at, or for passthrough what the source declares where it does.
    func videoBitRate(codec: AVVideoCodecType, width: Int, height: Int, fps: Double, sourceBitRate: Int) -> Int {
        if self.codec == nil, sourceBitRate > 0 { return sourceBitRate }
        let dimensions = CMVideoDimensions(width: Int32(width), height: Int32(height))
        let phone = AVCaptureMovieFileOutput.defaultCompression(codec, dimensions: dimensions, fps: fps)
        let full = phone[AVVideoAverageBitRateKey] as? Int ?? 0
        return max(1, Int((Double(full) * bitRateShare).rounded()))
    }
}

/// Export preset names (`AVAssetExportPreset…`), Apple's strings.
public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
public let AVAssetExportPresetHEVCHighestQuality = "AVAssetExportPresetHEVCHighestQuality"
public let AVAssetExportPresetHEVCHighestQualityWithAlpha = "AVAssetExportPresetHEVCHighestQualityWithAlpha"
public let AVAssetExportPreset640x480 = "AVAssetExportPreset640x480"
public let AVAssetExportPreset960x540 = "AVAssetExportPreset960x540"
public let AVAssetExportPreset1280x720 = "AVAssetExportPreset1280x720"
public let AVAssetExportPreset1920x1080 = "AVAssetExportPreset1920x1080"
public let AVAssetExportPreset3840x2160 = "AVAssetExportPreset3840x2160"
public let AVAssetExportPresetHEVC1920x1080 = "AVAssetExportPresetHEVC1920x1080"
public let AVAssetExportPresetHEVC3840x2160 = "AVAssetExportPresetHEVC3840x2160"
public let AVAssetExportPresetHEVC7680x4320 = "AVAssetExportPresetHEVC7680x4320"
public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"
public let AVAssetExportPresetAppleM4A = "AVAssetExportPresetAppleM4A"
