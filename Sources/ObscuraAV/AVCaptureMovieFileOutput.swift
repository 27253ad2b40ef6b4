import CaptureRules
import Foundation

/// Records QuickTime movies (`AVCaptureMovieFileOutput`): H.264 or HEVC video at the camera's
/// active format and frame rate, with AAC audio when a microphone is connected (spec §20).
///
/// Encoding goes through FFmpeg's libraries, loaded at run time. Where they are missing the output
/// still joins sessions but offers no codec, and recordings end with `AVError.encoderNotFound`
/// (spec §20 rule 5).
open class AVCaptureMovieFileOutput: AVCaptureFileOutput, @unchecked Sendable {
    private let settingsLock = NSLock()
    private var videoSettings: [String: Any]?
    private var chosenAudioSettings: [String: Any]?
    private var fragmentInterval = CMTime(value: 10, timescale: 1)
    private var metadataItems: [AVMetadataItem]?

    public override init() { super.init() }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .video || mediaType == .audio }

    /// The codecs a recording can use; the first is the default (spec §20 rule 2 [D]). Empty where
    /// FFmpeg's libraries are missing [I].
    public var availableVideoCodecTypes: [AVVideoCodecType] { MovieWriter.availableCodecs }

    /// How often a movie fragment is written, so that an interrupted recording keeps what came
    /// before; 10 s by default, `.invalid` for one movie box at the end (spec §20 rule 11 [D]).
    public var movieFragmentInterval: CMTime {
        get { settingsLock.withLock { fragmentInterval } }
        set { settingsLock.withLock { fragmentInterval = newValue } }
    }

    /// Metadata items each recording started afterwards carries, written as QuickTime metadata (spec §20
    /// rule 15); nil by default.
    public var metadata: [AVMetadataItem]? {
        get { settingsLock.withLock { metadataItems } }
        set { settingsLock.withLock { metadataItems = newValue } }
    }

    /// The keys `setOutputSettings(_:for:)` honours on a connection (spec §20 rule 2 [I]).
    public func supportedOutputSettingsKeys(for connection: AVCaptureConnection) -> [String] {
        isVideo(connection)
            ? [AVVideoCodecKey, AVVideoCompressionPropertiesKey]
            : [AVFormatIDKey, AVNumberOfChannelsKey, AVSampleRateKey, AVEncoderBitRateKey, AVChannelLayoutKey]
    }

    /// The settings a recording of the connection uses: for video the codec, the frame size and
    /// the compression properties; for audio the format, channels and rate (AAC, mono, 44.1 kHz unless
    /// chosen) and the bit rate when one was chosen (spec §20 rule 2 [I]).
    public func outputSettings(for connection: AVCaptureConnection) -> [String: Any] {
        guard isVideo(connection) else {
            var settings = Self.audioSettings
            let chosen = settingsLock.withLock { chosenAudioSettings } ?? [:]
            for (key, value) in chosen { settings[key] = value }
            return settings
        }
        let chosen = settingsLock.withLock { videoSettings }
        let codec = (chosen?[AVVideoCodecKey] as? AVVideoCodecType) ?? availableVideoCodecTypes.first ?? .h264
        var settings: [String: Any] = [AVVideoCodecKey: codec]
        if let (dimensions, fps) = activeVideoFormat {
            settings[AVVideoWidthKey] = Int(dimensions.width)
            settings[AVVideoHeightKey] = Int(dimensions.height)
            var compression = Self.defaultCompression(codec, dimensions: dimensions, fps: fps)
            for (key, value) in chosen?[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:] {
                compression[key] = value
            }
            settings[AVVideoCompressionPropertiesKey] = compression
        }
        return settings
    }

    /// Chooses a connection's settings; nil restores the defaults. A codec not in
    /// `availableVideoCodecTypes`, a key not in `supportedOutputSettingsKeys(for:)` or a connection
    /// of another output raises `NSInvalidArgumentException` (spec §20 rule 2 [D]).
    public func setOutputSettings(_ outputSettings: [String: Any]?, for connection: AVCaptureConnection) {
        let method = "-[AVCaptureMovieFileOutput setOutputSettings:forConnection:]"
        let rule = CaptureRule("§20", rule: 2, .documented, "output settings use only offered codecs and keys")
        guard connection.output === self else {
            Violation.invalidArgument(method, "connection is not one of this output's connections", rule).raise()
        }
        let supported = supportedOutputSettingsKeys(for: connection)
        if let key = outputSettings?.keys.first(where: { !supported.contains($0) }) {
            Violation.invalidArgument(method, "Unsupported output settings key \(key)", rule).raise()
        }
        if let value = outputSettings?[AVVideoCodecKey] {
            guard let codec = value as? AVVideoCodecType, availableVideoCodecTypes.contains(codec) else {
                Violation.invalidArgument(
                    method, "Unsupported value \(value) for AVVideoCodecKey; see availableVideoCodecTypes", rule
                ).raise()
            }
        }
        guard isVideo(connection) else {
            // AAC at an MPEG-4 audio rate, one or two channels: what the writer can make of the microphone's
            // mono stream (resampled, or copied to both channels) [I].
            if let problem = AssetWriterSettings.audioProblem(outputSettings) {
                Violation.invalidArgument(method, "Unsupported audio settings: \(problem)", rule).raise()
            }
            settingsLock.withLock { chosenAudioSettings = outputSettings }
            return
        }
        settingsLock.withLock { videoSettings = outputSettings }
    }

    /// What the audio track holds (the microphone's stream, encoded as AAC).
    static var audioSettings: [String: Any] {
        [
            AVFormatIDKey: kAudioFormatMPEG4AAC, AVNumberOfChannelsKey: 1,
            AVSampleRateKey: Double(AVCaptureAudioDataOutput.sampleRate),
        ]
    }

    override func recordingPlan(_ connection: AVCaptureConnection) -> MovieWriter.Plan? {
        guard let (dimensions, _) = activeVideoFormat, let device = connection.deviceInput?.device else { return nil }
        let settings = outputSettings(for: connection)
        let compression = settings[AVVideoCompressionPropertiesKey] as? [String: Any] ?? [:]
        let audio = self.connection(with: .audio)
        let turn = connection.videoTransform.quarterTurns * 90
        var plan = MovieWriter.Plan(
            codec: settings[AVVideoCodecKey] as? AVVideoCodecType ?? .h264, container: "mov",
            width: Int(dimensions.width), height: Int(dimensions.height),
            frameDuration: device.activeVideoMinFrameDuration,
            bitRate: compression[AVVideoAverageBitRateKey] as? Int ?? 0,
            keyFrameInterval: compression[AVVideoMaxKeyFrameIntervalKey] as? Int ?? 30,
            hasAudio: audio.map { $0.isEnabled && $0.isActive } ?? false, fragmentInterval: movieFragmentInterval)
        plan.rotationDegrees = turn
        plan.metadata = AVMetadataItem.quickTimeEntries(metadata ?? [], for: "AVCaptureMovieFileOutput")
        let sound = AssetWriterSettings.audio(settingsLock.withLock { chosenAudioSettings })
        (plan.audioChannels, plan.audioBitRate, plan.audioRate) = (max(sound.channels, 1), sound.bitRate, sound.rate)
        return plan
    }

    private func isVideo(_ connection: AVCaptureConnection) -> Bool {
        connection.inputPorts.contains { $0.mediaType == .video }
    }

    /// The connected camera's frame size and frame rate; nil without one.
    private var activeVideoFormat: (CMVideoDimensions, Double)? {
        guard let device = connection(with: .video)?.deviceInput?.device else { return nil }
        let duration = device.activeVideoMinFrameDuration.seconds
        guard duration > 0 else { return nil }
        return (device.activeFormat.dimensions, 1 / duration)
    }

    /// The bit rate and key-frame spacing a recording uses unless told otherwise: the asset-writer
    /// recommendation's model (spec §15 [I]), a key frame each second.
    static func defaultCompression(
        _ codec: AVVideoCodecType, dimensions: CMVideoDimensions, fps: Double
    ) -> [String: Any] {
        let bitsPerPixel = codec == .hevc ? 0.125 : 0.25
        let bitRate = Int((Double(dimensions.width) * Double(dimensions.height) * fps * bitsPerPixel).rounded())
        return [
            AVVideoAverageBitRateKey: bitRate, AVVideoExpectedSourceFrameRateKey: Int(fps.rounded()),
            AVVideoMaxKeyFrameIntervalKey: max(1, Int(fps.rounded())),
        ]
    }
}
