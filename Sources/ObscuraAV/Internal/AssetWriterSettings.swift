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

    /// What is wrong with audio settings, or nil: AAC (nil settings too), at 44.1 kHz (the
    /// microphone's rate, which is not resampled here), one or two channels.
    static func audioProblem(_ settings: [String: Any]?) -> String? {
        guard let settings else { return nil }
        if let format = number(settings[AVFormatIDKey]), format != Double(kAudioFormatMPEG4AAC) {
            return "audio is written as AAC (kAudioFormatMPEG4AAC) only"
        }
        if let rate = number(settings[AVSampleRateKey]), rate != Double(AVCaptureAudioDataOutput.sampleRate) {
            return "audio is written at the microphone's 44100 Hz; \(rate) Hz would need resampling, which is not done here"
        }
        if let channels = number(settings[AVNumberOfChannelsKey]), channels != 1 && channels != 2 {
            return "audio is written with 1 or 2 channels"
        }
        return nil
    }

    /// The channel count and bit rate audio settings ask for.
    static func audio(_ settings: [String: Any]?) -> (channels: Int, bitRate: Int) {
        (Int(number(settings?[AVNumberOfChannelsKey]) ?? 1), Int(number(settings?[AVEncoderBitRateKey]) ?? 0))
    }

    /// A settings value as a number, however the app spelled it.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let n as NSNumber: return n.doubleValue
        case let v as Int: return Double(v)
        case let v as Int32: return Double(v)
        case let v as UInt32: return Double(v)
        case let v as Double: return v
        case let v as Float: return Double(v)
        case let v as CGFloat: return Double(v)
        default: return nil
        }
    }
}
