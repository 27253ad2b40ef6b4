import CaptureRules
import Foundation
import Imaging

/// A movie's frames read back one sample buffer at a time (AVFoundation's `AVAssetReader`), as tests and apps check
/// what a capture recorded: add a track output, start reading, and copy sample buffers until there are none
/// (Capture rules §25 rules 6–9). Video tracks are decoded through FFmpeg's libraries into pixel buffers of the
/// format the output settings ask for; audio and compressed (pass-through) samples are not read here, and asking for
/// them fails the reader with an error rather than handing over something else.
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
    /// `.failed` and an `error` where an output asks for what is not read here (audio, compressed samples, a pixel
    /// format without a decoder here) or the movie fails to open; false, changing nothing, when reading has already
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
}

/// The samples of one track (AVFoundation's `AVAssetReaderTrackOutput`): for video, decoded frames in pixel buffers
/// of the format `outputSettings` names under `kCVPixelBufferPixelFormatTypeKey` (a number, or a list whose first
/// format read here is taken): 32-bit BGRA, half-float RGBA, or 8- or 10-bit 4:2:0 Y'CbCr.
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
        guard let contents = try? track.asset?.contents.get() ?? nil else {
            throw Self.unsupported("the movie can no longer be read")
        }
        guard track.mediaType == .video else {
            throw Self.unsupported("audio tracks are not decoded here; read the video track")
        }
        guard let settings = outputSettings else {
            throw Self.unsupported("compressed (pass-through) samples are not read here: ask for a pixel format")
        }
        let asked =
            (settings[kCVPixelBufferPixelFormatTypeKey as String] as? [Any]) ?? [
                settings[kCVPixelBufferPixelFormatTypeKey as String] ?? NSNumber(value: kCVPixelFormatType_32BGRA)
            ]
        let formats = asked.compactMap { ($0 as? NSNumber)?.uint32Value ?? ($0 as? OSType) }
        guard let format = formats.first(where: TrackDecoding.decodes) else {
            throw Self.unsupported("no pixel format asked for is decoded here: \(formats)")
        }
        let decoding = try TrackDecoding(contents: contents, format: format, range: range, final: !supportsRandomAccess)
        lock.withLock { self.decoding = decoding }
    }

    static func unsupported(_ reason: String) -> AVError {
        AVError(.operationNotSupportedForAsset, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
    }

    override open func copyNextSampleBuffer() -> CMSampleBuffer? {
        guard let reader, reader.status != .unknown else {
            Violation(
                name: .internalInconsistencyException, method: "-[AVAssetReaderTrackOutput copyNextSampleBuffer]",
                message: "cannot copy next sample buffer before adding this output to an instance of AVAssetReader "
                    + "(using -addOutput:) and calling -startReading on that asset reader",
                rule: CaptureRule("§25", rule: 8, .observed, "samples are copied only after startReading")
            ).raise()
        }
        guard reader.status == .reading, let decoding = lock.withLock({ self.decoding }) else { return nil }
        do {
            if let sample = try decoding.next() { return sample }
            if decoding.isFinished { reader.outputFinished() }
            return nil
        } catch {
            reader.fail(error)
            return nil
        }
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

    override open func markConfigurationAsFinal() {
        guard let decoding = lock.withLock({ self.decoding }) else { return }
        decoding.markFinal()
        if decoding.isFinished { reader?.outputFinished() }
    }
}

/// One video track decoded for an output: frames in presentation order, each with its duration (to the next
/// frame's time; one frame period for the last), kept where its display overlaps one of the ranges read.
final class TrackDecoding: @unchecked Sendable {
    /// Whether frames can be given in a pixel format.
    static func decodes(_ format: OSType) -> Bool {
        format == kCVPixelFormatType_32BGRA || format == kCVPixelFormatType_64RGBAHalf || YCbCrCoding.of(format) != nil
    }

    private let contents: AssetContents
    private let format: OSType
    private let lock = NSLock()
    private var reader: MovieFrameReader
    private var ranges: [CMTimeRange]
    /// The frame decoded but not yet given, with its time.
    private var ahead: (PixelPlane<UInt8>, Double)?
    private var previous = -1.0
    private var drained = false
    private var final: Bool

    init(contents: AssetContents, format: OSType, range: CMTimeRange, final: Bool) throws {
        self.contents = contents
        self.format = format
        ranges = [range]
        self.final = final
        reader = try Self.open(contents)
    }

    static func open(_ contents: AssetContents) throws -> MovieFrameReader {
        do { return try MovieFrameReader(path: contents.url.path) } catch {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.message])
        }
    }

    /// Whether the ranges asked so far have been read to their end.
    var isDrained: Bool { lock.withLock { drained } }
    /// Whether no reset may follow.
    var isFinal: Bool { lock.withLock { final } }
    /// Drained with no reset to follow: the output has given its last sample.
    var isFinished: Bool { lock.withLock { drained && final } }

    func markFinal() { lock.withLock { final = true } }

    /// Reads again from the movie's start, over new ranges.
    func restart(ranges: [CMTimeRange]) throws {
        let reopened = try Self.open(contents)
        lock.withLock {
            reader = reopened
            self.ranges = ranges
            ahead = nil
            previous = -1
            drained = false
        }
    }

    private var step: Double { contents.rate > 0 ? 1 / contents.rate : 1.0 / 30 }

    /// The next frame of the movie with its time; a frame without a time follows the previous by one frame period.
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
        let time = stamp >= 0 ? max(stamp, previous + 1e-6) : (previous < 0 ? 0 : previous + step)
        previous = time
        return (frame, time)
    }

    /// The next sample whose display overlaps a range, or nil once past the last range or the last frame.
    func next() throws -> CMSampleBuffer? {
        try lock.withLock { () throws -> CMSampleBuffer? in
            guard !drained else { return nil }
            let last = ranges.map { $0.duration.isPositiveInfinity ? Double.infinity : $0.end.seconds }.max() ?? 0
            while let (frame, time) = try decode() {
                let following = try decode()
                ahead = following
                let duration = following.map { $0.1 - time } ?? step
                if time >= last { break }
                let overlaps = ranges.contains { range in
                    let end = range.duration.isPositiveInfinity ? Double.infinity : range.end.seconds
                    return time < end && time + duration > range.start.seconds
                }
                guard overlaps else { continue }
                return try sample(frame, time: time, duration: duration)
            }
            drained = true
            return nil
        }
    }

    private func sample(_ frame: PixelPlane<UInt8>, time: Double, duration: Double) throws -> CMSampleBuffer {
        guard let buffer = PixelBufferFilling.make(from: frame, format: format) else {
            throw AVError(.decodeFailed, userInfo: [NSLocalizedFailureReasonErrorKey: "no pixel buffer of the format"])
        }
        return CMSampleBuffer(
            imageBuffer: buffer, presentationTimeStamp: CMTime(seconds: time, preferredTimescale: 600),
            duration: CMTime(seconds: duration, preferredTimescale: 600),
            formatDescription: CMFormatDescription(videoOf: buffer))
    }
}
