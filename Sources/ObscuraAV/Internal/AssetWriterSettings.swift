import Foundation

/// Reads an asset writer input's output settings into what the movie needs (Capture rules §23
/// rule 3), and says in words what cannot be written.
enum AssetWriterSettings {
    /// The video settings read, and the first problem found.
    struct VideoReading {
        var video = AssetWriterMovie.Video(
            codec: .h264, size: nil, bitRate: nil, keyFrameInterval: nil, frameRate: 30, rotationDegrees: 0)
        var problem: String?
        /// Whether the problem is a codec no encoder here writes.
        var unknownCodec = false
    }

    /// The codecs written: H.264 and HEVC, where FFmpeg has their encoders.
    static func writes(_ codec: AVVideoCodecType) -> Bool {
        guard codec == .h264 || codec == .hevc else { return false }
        return MovieWriter.unavailableReason != nil || MovieWriter.availableCodecs.contains(codec)
    }

    /// Video settings. Nil settings (pass-through on Apple's platforms, which stores uncompressed frames
    /// in a QuickTime movie) give H.264 at the first picture's size here.
    static func video(_ settings: [String: Any]?) -> VideoReading {
        var reading = VideoReading()
        guard let settings else { return reading }
        switch settings[AVVideoCodecKey] {
        case let codec as AVVideoCodecType: reading.video.codec = codec
        case let name as String: reading.video.codec = AVVideoCodecType(rawValue: name)
        case nil:
            reading.problem = "video output settings need AVVideoCodecKey"
            return reading
        case let other?:
            reading.problem = "AVVideoCodecKey must be an AVVideoCodecType, not \(type(of: other))"
            return reading
        }
        guard writes(reading.video.codec) else {
            reading.problem = "codec \(reading.video.codec.rawValue) is not written here; use .h264 or .hevc"
            reading.unknownCodec = true
            return reading
        }
        let width = number(settings[AVVideoWidthKey]), height = number(settings[AVVideoHeightKey])
        switch (width, height) {
        case (let w?, let h?) where w >= 2 && h >= 2 && w <= 16_384 && h <= 16_384:
            reading.video.size = (Int(w), Int(h))
        case (nil, nil):
            break
        default:
            reading.problem = "AVVideoWidthKey and AVVideoHeightKey must both be given, from 2 to 16384"
            return reading
        }
        let compression = settings[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        if let fps = number(compression[AVVideoExpectedSourceFrameRateKey]), fps > 0 { reading.video.frameRate = fps }
        if let bits = number(compression[AVVideoAverageBitRateKey]), bits > 0 { reading.video.bitRate = Int(bits) }
        if let frames = number(compression[AVVideoMaxKeyFrameIntervalKey]), frames >= 1 {
            reading.video.keyFrameInterval = Int(frames)
        }
        if let seconds = number(compression[AVVideoMaxKeyFrameIntervalDurationKey]), seconds > 0 {
            let frames = max(1, Int((seconds * reading.video.frameRate).rounded(.down)))
            reading.video.keyFrameInterval = min(reading.video.keyFrameInterval ?? frames, frames)
        }
        return reading
    }

    /// The sample rates an AAC track is written at: the MPEG-4 audio rates from 8 to 96 kHz.
    static let audioRates: Set<Int> = [8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000, 64_000, 88_200, 96_000]

    /// What is wrong with audio settings, or nil: AAC (nil settings too), at one of `audioRates` (the
    /// microphone's 44.1 kHz is resampled to another), one or two channels.
    static func audioProblem(_ settings: [String: Any]?) -> String? {
        guard let settings else { return nil }
        if let format = number(settings[AVFormatIDKey]), format != Double(kAudioFormatMPEG4AAC) {
            return "audio is written as AAC (kAudioFormatMPEG4AAC) only"
        }
        if let rate = number(settings[AVSampleRateKey]), rate != rate.rounded() || !audioRates.contains(Int(rate)) {
            return "AAC is written at 8, 11.025, 12, 16, 22.05, 24, 32, 44.1, 48, 64, 88.2 or 96 kHz, not \(rate) Hz"
        }
        if let channels = number(settings[AVNumberOfChannelsKey]), channels != 1 && channels != 2 {
            return "audio is written with 1 or 2 channels"
        }
        if let layout = settings[AVChannelLayoutKey] {
            // The layout's bytes must hold a layout (our choice for an empty one: refused, as it describes nothing)
            // of the channel count the settings name.
            guard let bytes = layout as? Data, let count = AudioChannelLayout.channelCount(bytes) else {
                return "AVChannelLayoutKey must hold an AudioChannelLayout's bytes (at least 12) as Data"
            }
            let channels = Int(number(settings[AVNumberOfChannelsKey]) ?? 1)
            if count != channels {
                return "AVChannelLayoutKey describes \(count) channel(s), AVNumberOfChannelsKey \(channels)"
            }
        }
        return nil
    }

    /// The channel count, bit rate and sample rate audio settings ask for (0: the defaults). The bit rate is
    /// `AVEncoderBitRateKey`'s, else `AVEncoderBitRatePerChannelKey`'s for each channel; the quality, strategy and
    /// converter keys change nothing (spec §23 rule 3).
    static func audio(_ settings: [String: Any]?) -> (channels: Int, bitRate: Int, rate: Int) {
        let channels = Int(number(settings?[AVNumberOfChannelsKey]) ?? 1)
        let total = number(settings?[AVEncoderBitRateKey]).map { Int($0) }
        let perChannel = number(settings?[AVEncoderBitRatePerChannelKey]).map { Int($0) * channels }
        return (channels, total ?? perChannel ?? 0, Int(number(settings?[AVSampleRateKey]) ?? 0))
    }

    /// A settings value as a number, however the app spelled it; nil for anything else, and for a
    /// value that is not finite or is beyond 2³¹ (no setting here is larger).
    static func number(_ value: Any?) -> Double? {
        let number: Double
        switch value {
        case let n as NSNumber: number = n.doubleValue
        case let v as Int: number = Double(v)
        case let v as Int32: number = Double(v)
        case let v as UInt32: number = Double(v)
        case let v as Double: number = v
        case let v as Float: number = Double(v)
        case let v as CGFloat: number = Double(v)
        default: return nil
        }
        return number.isFinite && abs(number) < 2_147_483_648 ? number : nil
    }
}
