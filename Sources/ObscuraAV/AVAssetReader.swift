import CaptureRules
import Foundation
import Imaging

/// A movie's frames read back one sample buffer at a time (AVFoundation's `AVAssetReader`), as tests and apps check
/// what a capture recorded: add a track output, start reading, and copy sample buffers until there are none
/// (Capture rules §25 rules 6–9). Tracks are decoded through FFmpeg's libraries: video into pixel buffers of the
/// format the output settings ask for, sound into linear PCM at its own rate and channel count. Compressed
/// (pass-through) samples, resampling and remixing are not done here, and asking for them fails the reader with an
/// error rather than handing over something else.
open class AVAssetReader: NSObject, @unchecked Sendable {
    /// Where reading stands.
    public enum Status: Int, Sendable {
        case unknown = 0, reading, completed, failed, cancelled
    }

    /// The movie read.
    public let asset: AVAsset
    let lock = NSLock()
    private var state = Status.unknown
    private var failure: Error?
    private var outputList: [AVAssetReaderOutput] = []
    private var range = CMTimeRange(start: .zero, duration: .positiveInfinity)

    /// A reader of `asset`; throws the reason where the file cannot be read (as `AVAsset.load` does).
    public init(asset: AVAsset) throws {
        _ = try asset.contents.get()
        self.asset = asset
        super.init()
    }

    /// Where reading stands: unknown until `startReading()`, then reading, and completed once every output has
    /// given its last sample; failed with `error`, or cancelled.
    open var status: Status { lock.withLock { state } }

    /// Why reading failed; nil otherwise.
    open var error: Error? { lock.withLock { failure } }

    /// The outputs added, in order.
    open var outputs: [AVAssetReaderOutput] { lock.withLock { outputList } }

    /// The part of the movie read (default: all of it). Set before `startReading()`; setting it later raises
    /// `NSInternalInconsistencyException` (rule 6).
    open var timeRange: CMTimeRange {
        get { lock.withLock { range } }
        set {
            let started = lock.withLock { () -> Bool in
                guard state == .unknown else { return true }
                range = newValue
                return false
            }
            if started { Self.afterStart("-[AVAssetReader setTimeRange:]").raise() }
        }
    }

    static func afterStart(_ method: String) -> Violation {
        Violation(
            name: .internalInconsistencyException, method: method,
            message: "cannot be called after reading has started",
            rule: CaptureRule("§25", rule: 6, .observed, "a reader's configuration is fixed once reading starts"))
    }

    /// Whether `output` can be added: reading has not started, the output belongs to no reader yet, and its track
    /// is one of this reader's asset.
    open func canAdd(_ output: AVAssetReaderOutput) -> Bool {
        lock.withLock { state == .unknown } && output.reader == nil && output.source?.asset === asset
    }

    /// Adds an output; one that `canAdd(_:)` refuses raises `NSInvalidArgumentException` (rule 6).
    open func add(_ output: AVAssetReaderOutput) {
        guard canAdd(output) else {
            let reason =
                output.reader != nil
                ? "cannot add an output that already belongs to an asset reader"
                : lock.withLock({ state != .unknown })
                    ? "cannot add a new output after reading has started"
                    : "cannot add an output whose track is not one of the asset's"
            Violation.invalidArgument(
                "-[AVAssetReader addOutput:]", reason,
                CaptureRule(
                    "§25", rule: 6, .documented, "outputs are added before reading, once, from the asset's tracks")
            ).raise()
        }
        output.reader = self
        lock.withLock { outputList.append(output) }
    }

    /// Starts decoding: true when every output can be read, and the status is then `.reading`. False with the status
    /// `.failed` and an `error` where an output asks for what is not read here (compressed samples, a pixel format
    /// or a sound format not written here, another rate or channel count) or the movie fails to open; false, changing nothing, when reading has already
    /// started (rule 7).
    @discardableResult
    open func startReading() -> Bool {
        let (outputs, range) = lock.withLock { () -> ([AVAssetReaderOutput]?, CMTimeRange) in
            state == .unknown ? (outputList, self.range) : (nil, self.range)
        }
        guard let outputs else { return false }
        do {
            for output in outputs { try output.prepare(range: range) }
            lock.withLock { state = .reading }
            return true
        } catch {
            lock.withLock {
                state = .failed
                failure = error
            }
            return false
        }
    }

    /// Stops reading: the status becomes `.cancelled` and the outputs give no more samples.
    open func cancelReading() {
        lock.withLock { if state == .reading || state == .unknown { state = .cancelled } }
    }

    /// Called by an output that has given its last sample: the reader completes when all have.
    func outputFinished() {
        let outputs = lock.withLock { outputList }
        let allDone = outputs.allSatisfy(\.isFinished)
        lock.withLock { if allDone, state == .reading { state = .completed } }
    }

    /// Called by an output that failed to decode.
    func fail(_ error: Error) {
        lock.withLock {
            guard state == .reading else { return }
            state = .failed
            failure = error
        }
    }
}

/// What every reader output has (AVFoundation's `AVAssetReaderOutput`).
open class AVAssetReaderOutput: NSObject, @unchecked Sendable {
    /// The reader it was added to.
    weak var reader: AVAssetReader?
    let lock = NSLock()
    private var copies = true
    private var randomAccess = false

    /// The track read: every output here reads one.
    var source: AVAssetTrack? { nil }

    /// The media type of the samples.
    open var mediaType: AVMediaType { source?.mediaType ?? .video }

    /// Whether sample buffers are copies the app may change (default true); here they always are. Set before reading
    /// starts (rule 6).
    open var alwaysCopiesSampleData: Bool {
        get { lock.withLock { copies } }
        set {
            raiseIfStarted("-[AVAssetReaderOutput setAlwaysCopiesSampleData:]")
            lock.withLock { copies = newValue }
        }
    }

    /// Whether `reset(forReadingTimeRanges:)` may be called (default false). Set before reading starts (rule 6).
    open var supportsRandomAccess: Bool {
        get { lock.withLock { randomAccess } }
        set {
            raiseIfStarted("-[AVAssetReaderOutput setSupportsRandomAccess:]")
            lock.withLock { randomAccess = newValue }
        }
    }

    func raiseIfStarted(_ method: String) {
        if let reader, reader.status != .unknown { AVAssetReader.afterStart(method).raise() }
    }

    var isFinished: Bool { false }

    func prepare(range: CMTimeRange) throws {}

    /// The next sample buffer in presentation order, or nil after the last (and for a reader that is not reading).
    /// Before its reader starts, raises `NSInternalInconsistencyException` (rule 8).
    open func copyNextSampleBuffer() -> CMSampleBuffer? { nil }

    /// Reads the output again over `timeRanges` (increasing, not overlapping), after it has given its last sample of
    /// the ranges before (rule 9).
    open func reset(forReadingTimeRanges timeRanges: [NSValue]) {}

    /// Says no reset will follow: once the output gives its last sample, it is finished.
    open func markConfigurationAsFinal() {}

    /// The next sample of `decoding` for `copyNextSampleBuffer()`, `method` naming it in the exception raised before
    /// the reader starts (rule 8); a decoding error fails the reader.
    func nextSample(of decoding: TrackDecoding?, method: String) -> CMSampleBuffer? {
        guard let reader, reader.status != .unknown else {
            Violation(
                name: .internalInconsistencyException, method: method,
                message: "cannot copy next sample buffer before adding this output to an instance of AVAssetReader "
                    + "(using -addOutput:) and calling -startReading on that asset reader",
                rule: CaptureRule("§25", rule: 8, .observed, "samples are copied only after startReading")
            ).raise()
        }
        guard reader.status == .reading, let decoding else { return nil }
        do {
            if let sample = try decoding.next() { return sample }
            if decoding.isFinished { reader.outputFinished() }
            return nil
        } catch {
            reader.fail(error)
            return nil
        }
    }

    /// `markConfigurationAsFinal()` for an output reading through `decoding`.
    func markFinal(_ decoding: TrackDecoding?) {
        guard let decoding else { return }
        decoding.markFinal()
        if decoding.isFinished { reader?.outputFinished() }
    }
}

/// The samples of one track (AVFoundation's `AVAssetReaderTrackOutput`): for video, decoded frames in pixel buffers
/// of the format `outputSettings` names under `kCVPixelBufferPixelFormatTypeKey` (a number, or a list whose first
/// format read here is taken): 32-bit BGRA, half-float RGBA, or 8- or 10-bit 4:2:0 Y'CbCr. For sound, interleaved
/// little-endian linear PCM (`AVFormatIDKey` `kAudioFormatLinearPCM`) of 16-bit integers or, with
/// `AVLinearPCMIsFloatKey`, 32-bit floats, one decoded frame of samples a buffer.
open class AVAssetReaderTrackOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The track read.
    public let track: AVAssetTrack
    /// The settings asked for; nil asks for the samples as stored (compressed), which are not read here.
    public let outputSettings: [String: Any]?
    private var decoding: TrackDecoding?

    /// An output of `track`'s samples with `outputSettings`.
    public init(track: AVAssetTrack, outputSettings: [String: Any]?) {
        self.track = track
        self.outputSettings = outputSettings
        super.init()
    }

    override var source: AVAssetTrack? { track }

    override var isFinished: Bool { lock.withLock { decoding?.isFinished ?? false } }

    override func prepare(range: CMTimeRange) throws {
        guard (try? track.asset?.contents.get()) != nil else {
            throw Self.unsupported("the movie can no longer be read")
        }
        let track = self.track
        guard let settings = outputSettings else {
            throw Self.unsupported("compressed (pass-through) samples are not read here: ask for decoded samples")
        }
        let decoding: TrackDecoding
        if track.mediaType == .audio {
            let pcm = try SoundUnits.pcm(settings)
            decoding = try TrackDecoding(range: range, final: !supportsRandomAccess) {
                let units = try SoundUnits(track: track, pcm: pcm)
                try units.check(settings)
                return units
            }
        } else {
            let key = kCVPixelBufferPixelFormatTypeKey as String
            let asked = (settings[key] as? [Any]) ?? [settings[key] ?? NSNumber(value: kCVPixelFormatType_32BGRA)]
            let formats = asked.compactMap { ($0 as? NSNumber)?.uint32Value ?? ($0 as? OSType) }
            guard let format = formats.first(where: VideoUnits.decodes) else {
                throw Self.unsupported("no pixel format asked for is decoded here: \(formats)")
            }
            decoding = try TrackDecoding(range: range, final: !supportsRandomAccess) {
                try VideoUnits(track: track, format: format)
            }
        }
        lock.withLock { self.decoding = decoding }
    }

    static func unsupported(_ reason: String) -> AVError {
        AVError(.operationNotSupportedForAsset, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
    }

    override open func copyNextSampleBuffer() -> CMSampleBuffer? {
        nextSample(of: lock.withLock { decoding }, method: "-[AVAssetReaderTrackOutput copyNextSampleBuffer]")
    }

    override open func reset(forReadingTimeRanges timeRanges: [NSValue]) {
        let method = "-[AVAssetReaderTrackOutput resetForReadingTimeRanges:]"
        let rule = CaptureRule(
            "§25", rule: 9, .documented, "reset needs random access, a drained output and ordered ranges")
        guard supportsRandomAccess else {
            Violation(
                name: .internalInconsistencyException, method: method,
                message: "cannot reset an output whose supportsRandomAccess is NO", rule: rule
            ).raise()
        }
        guard let reader, reader.status == .reading, let decoding = lock.withLock({ self.decoding }),
            decoding.isDrained, !decoding.isFinal
        else {
            Violation(
                name: .internalInconsistencyException, method: method,
                message: "can be called only while reading, after copyNextSampleBuffer has returned NULL and "
                    + "before markConfigurationAsFinal", rule: rule
            ).raise()
        }
        let ranges = timeRanges.map(\.timeRangeValue)
        let ordered =
            !ranges.isEmpty && zip(ranges, ranges.dropFirst()).allSatisfy { $0.end <= $1.start }
            && ranges.allSatisfy { $0.start.isNumeric && $0.duration >= .zero }
        guard ordered else {
            Violation.invalidArgument(
                method, "time ranges must be valid, in increasing order and not overlapping", rule
            ).raise()
        }
        do { try decoding.restart(ranges: ranges) } catch { reader.fail(error) }
    }

    override open func markConfigurationAsFinal() { markFinal(lock.withLock { decoding }) }
}

/// One decoded sample and the time it covers; `make` builds its sample buffer only when it is kept.
struct DecodedUnit {
    let time: Double
    let duration: Double
    let make: () throws -> CMSampleBuffer
}

/// A track's decoded samples in presentation order.
protocol UnitSource: AnyObject {
    func next() throws -> DecodedUnit?
}

/// A track decoded for an output: the samples whose time overlaps one of the ranges read, and the state of
/// reading them (drained, final) that the reader's rules follow.
final class TrackDecoding: @unchecked Sendable {
    private let open: () throws -> UnitSource
    private let lock = NSLock()
    private var source: UnitSource
    private var ranges: [CMTimeRange]
    private var drained = false
    private var final: Bool

    init(range: CMTimeRange, final: Bool, open: @escaping () throws -> UnitSource) throws {
        ranges = [range]
        self.final = final
        self.open = open
        source = try open()
    }

    /// Whether the ranges asked so far have been read to their end.
    var isDrained: Bool { lock.withLock { drained } }
    /// Whether no reset may follow.
    var isFinal: Bool { lock.withLock { final } }
    /// Drained with no reset to follow: the output has given its last sample.
    var isFinished: Bool { lock.withLock { drained && final } }

    func markFinal() { lock.withLock { final = true } }

    /// Reads again from the track's start, over new ranges.
    func restart(ranges: [CMTimeRange]) throws {
        let reopened = try open()
        lock.withLock {
            source = reopened
            self.ranges = ranges
            drained = false
        }
    }

    static func end(_ range: CMTimeRange) -> Double {
        range.duration.isPositiveInfinity ? .infinity : range.end.seconds
    }

    /// The next sample whose time overlaps a range, or nil once past the last range or the last sample.
    func next() throws -> CMSampleBuffer? {
        try lock.withLock { () throws -> CMSampleBuffer? in
            guard !drained else { return nil }
            let last = ranges.map(Self.end).max() ?? 0
            while let unit = try source.next() {
                if unit.time >= last { break }
                let overlaps = ranges.contains {
                    unit.time < Self.end($0) && unit.time + unit.duration > $0.start.seconds
                }
                if overlaps { return try unit.make() }
            }
            drained = true
            return nil
        }
    }
}

/// A video track's frames, each lasting until the next frame's time (one frame period for the last), in pixel
/// buffers of one format.
final class VideoUnits: UnitSource {
    /// Whether frames can be given in a pixel format.
    static func decodes(_ format: OSType) -> Bool {
        format == kCVPixelFormatType_32BGRA || format == kCVPixelFormatType_64RGBAHalf || YCbCrCoding.of(format) != nil
    }

    private let reader: any PictureSource
    private let format: OSType
    private var times: PictureTimes
    /// The frame decoded but not yet given, with its time.
    private var ahead: (PixelPlane<UInt8>, Double)?

    init(track: AVAssetTrack, format: OSType) throws {
        do { reader = try track.openPictures() } catch {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
        }
        self.format = format
        let rate = track.contents.rate
        times = PictureTimes(step: rate > 0 ? 1 / rate : 1.0 / 30)
    }

    /// The frames of a video composition (`ComposedFrames`), `step` seconds apart.
    init(pictures: any PictureSource, step: Double, format: OSType) {
        reader = pictures
        self.format = format
        times = PictureTimes(step: step)
    }

    /// The next frame with its time; a frame without a time follows the previous by one frame period.
    private func decode() throws -> (PixelPlane<UInt8>, Double)? {
        if let frame = ahead {
            ahead = nil
            return frame
        }
        let next: (PixelPlane<UInt8>, Double)?
        do { next = try reader.next() } catch {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
        }
        guard let (frame, stamp) = next else { return nil }
        return (frame, times.time(of: stamp))
    }

    func next() throws -> DecodedUnit? {
        guard let (frame, time) = try decode() else { return nil }
        let following = try decode()
        ahead = following
        let duration = following.map { $0.1 - time } ?? times.step
        let format = self.format
        return DecodedUnit(time: time, duration: duration) {
            guard let buffer = PixelBufferFilling.make(from: frame, format: format) else {
                throw AVError(
                    .decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: "no pixel buffer of the format"])
            }
            return CMSampleBuffer(
                imageBuffer: buffer, presentationTimeStamp: CMTime(seconds: time, preferredTimescale: 600),
                duration: CMTime(seconds: duration, preferredTimescale: 600),
                formatDescription: CMFormatDescription(videoOf: buffer))
        }
    }
}

/// An audio track's sound, a decoded frame of samples a buffer, as interleaved linear PCM of 16-bit integers or
/// 32-bit floats at the stream's own rate and channel count.
final class SoundUnits: UnitSource {
    /// How the samples are written.
    struct PCM: Equatable {
        var float: Bool
        var bits: Int { float ? 32 : 16 }
    }

    private let reader: any SoundSource
    private let pcm: PCM
    private var ahead: MovieSoundReader.Frame?
    private var position = 0.0
    let channels: Int, rate: Int

    /// Opens the sound and reads its first frame, which fixes the rate and channel count.
    init(track: AVAssetTrack, pcm: PCM) throws {
        do {
            reader = try track.openSound()
            ahead = try reader.next()
        } catch {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
        }
        self.pcm = pcm
        channels = ahead?.channels ?? 1
        rate = ahead?.rate ?? 44_100
    }

    /// The settings' PCM format, or why it is not written here.
    static func pcm(_ settings: [String: Any]) throws -> PCM {
        func number(_ key: String) -> Double? {
            (settings[key] as? NSNumber)?.doubleValue ?? (settings[key] as? Double)
        }
        func flag(_ key: String) -> Bool {
            (settings[key] as? Bool) ?? ((settings[key] as? NSNumber)?.boolValue ?? false)
        }
        let format = (settings[AVFormatIDKey] as? NSNumber)?.uint32Value ?? (settings[AVFormatIDKey] as? AudioFormatID)
        guard format == kAudioFormatLinearPCM else {
            throw AVAssetReaderTrackOutput.unsupported(
                "sound is read as linear PCM only (AVFormatIDKey kAudioFormatLinearPCM)")
        }
        guard !flag(AVLinearPCMIsNonInterleaved), !flag(AVLinearPCMIsBigEndianKey) else {
            throw AVAssetReaderTrackOutput.unsupported("sound is read interleaved and little-endian only")
        }
        let isFloat = flag(AVLinearPCMIsFloatKey)
        let bits = number(AVLinearPCMBitDepthKey).map(Int.init) ?? (isFloat ? 32 : 16)
        guard bits == (isFloat ? 32 : 16) else {
            throw AVAssetReaderTrackOutput.unsupported("sound is read as 16-bit integers or 32-bit floats only")
        }
        return PCM(float: isFloat)
    }

    /// Refuses settings that ask for another rate or channel count than the stream's (no conversion here).
    func check(_ settings: [String: Any]) throws {
        let asked = { (key: String) in (settings[key] as? NSNumber)?.intValue ?? (settings[key] as? Int) }
        if let r = asked(AVSampleRateKey), r != rate {
            throw AVAssetReaderTrackOutput.unsupported("the sound is \(rate) Hz and is not resampled to \(r) Hz")
        }
        if let c = asked(AVNumberOfChannelsKey), c != channels {
            throw AVAssetReaderTrackOutput.unsupported("the sound has \(channels) channels and is not remixed to \(c)")
        }
    }

    var description: CMFormatDescription {
        let bytes = UInt32(channels * pcm.bits / 8)
        let stream = AudioStreamBasicDescription(
            mSampleRate: Float64(rate), mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: (pcm.float ? kAudioFormatFlagIsFloat : kAudioFormatFlagIsSignedInteger)
                | kAudioFormatFlagIsPacked,
            mBytesPerPacket: bytes, mFramesPerPacket: 1, mBytesPerFrame: bytes, mChannelsPerFrame: UInt32(channels),
            mBitsPerChannel: UInt32(pcm.bits), mReserved: 0)
        let tag = channels == 1 ? kAudioChannelLayoutTag_Mono : channels == 2 ? kAudioChannelLayoutTag_Stereo : nil
        let layout = tag.map { tag in
            var data = Data(count: AudioChannelLayout.byteCount(descriptions: 0))
            data.withUnsafeMutableBytes { $0.storeBytes(of: tag, toByteOffset: 0, as: UInt32.self) }
            return data
        }
        return CMFormatDescription(audio: stream, layout: layout)
    }

    func next() throws -> DecodedUnit? {
        let frame: MovieSoundReader.Frame
        if let held = ahead {
            frame = held
            ahead = nil
        } else {
            do {
                guard let decoded = try reader.next() else { return nil }
                frame = decoded
            } catch {
                throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
            }
        }
        let count = frame.samples.count / max(1, frame.channels)
        // Times from the stream where it gives them, never going back; otherwise one frame after the last.
        let time = frame.seconds >= 0 ? max(frame.seconds, position) : position
        let duration = Double(count) / Double(rate)
        position = time + duration
        let (pcm, rate, description) = (self.pcm, self.rate, self.description)
        return DecodedUnit(time: time, duration: duration) {
            var bytes = Data(capacity: frame.samples.count * pcm.bits / 8)
            for v in frame.samples {
                if pcm.float {
                    withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                } else {
                    let s = Int16((min(max(v, -1), 1) * 32767).rounded())
                    withUnsafeBytes(of: s.littleEndian) { bytes.append(contentsOf: $0) }
                }
            }
            let start = Int64((time * Double(rate)).rounded())
            return CMSampleBuffer(
                imageBuffer: nil, presentationTimeStamp: CMTime(value: start, timescale: Int32(rate)),
                duration: CMTime(value: Int64(count), timescale: Int32(rate)), formatDescription: description,
                dataBuffer: CMBlockBuffer(bytes: bytes), sampleCount: count)
        }
    }
}
