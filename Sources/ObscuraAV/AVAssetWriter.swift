import CaptureRules
import Foundation

/// Writes a QuickTime or MPEG-4 movie from sample buffers an app appends (`AVAssetWriter`), the way
/// camera apps record frames they have filtered (Capture rules §23).
///
/// Video is encoded in H.264 or HEVC and audio in AAC through FFmpeg's libraries, loaded at run
/// time, as the movie file output does (§20 rule 5). Where they are missing, `startWriting()`
/// returns false with `AVError.encoderNotFound`.
open class AVAssetWriter: NSObject, @unchecked Sendable {
    /// Where the writer stands (`AVAssetWriter.Status`).
    public enum Status: Int, Sendable {
        case unknown = 0
        case writing = 1
        case completed = 2
        case failed = 3
        case cancelled = 4
    }

    /// The file the movie goes to.
    public let outputURL: URL
    /// The container: `.mov`, `.mp4` or `.m4v`.
    public let outputFileType: AVFileType

    private let lock = NSLock()
    /// Held while a sample is encoded or the movie finished, so that inputs on different queues
    /// never reach the encoder at once.
    private let encoding = NSLock()
    private var state = Status.unknown
    private var failure: (any Error)?
    private var inputList: [AVAssetWriterInput] = []
    private var movie: AssetWriterMovie?
    private var fragmentInterval = CMTime.invalid
    private var optimizeForNetwork = false
    private var metadataItems: [AVMetadataItem] = []
    /// Entered when `finishWriting` starts and left when the movie is complete or has failed: inputs
    /// take nothing meanwhile, and a second call waits for the first.
    private var finishing: DispatchGroup?
    /// Whether the writer outputs segments to its delegate instead of writing a file (`init(contentType:)`).
    let writesSegments: Bool
    private var profile: AVFileTypeProfile?
    private var segmentInterval = CMTime.invalid
    private var segmentStart = CMTime.invalid
    private weak var segmentDelegate: AnyObject?
    /// Segment data made and not yet handed to the delegate, and whether a thread is handing it over: one thread
    /// at a time delivers, in order, holding no lock while the delegate runs, so a delegate that appends a sample
    /// only adds to the outbox. Guarded by the condition, which is signalled when delivery stops.
    private let outboxCondition = NSCondition()
    private var outbox: [(data: [UInt8], type: AVAssetSegmentType)] = []
    private var draining = false
    /// The tracks of the initialization segment, which the reports of later segments refer to; only the
    /// delivering thread touches them.
    private var segmentTracks: [FragmentedMP4.Track] = []

    /// A writer of `outputFileType` to `outputURL`. Throws for a URL that is not a file URL and for a
    /// file type other than a QuickTime or MPEG-4 movie (rule 1).
    public init(outputURL: URL, fileType outputFileType: AVFileType) throws {
        guard outputURL.isFileURL else {
            throw AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: "\(outputURL) is not a file URL"])
        }
        guard Self.containers[outputFileType] != nil else {
            throw AVError(
                .unknown,
                userInfo: [
                    NSLocalizedFailureReasonErrorKey:
                        "file type \(outputFileType.rawValue) is not written here; use .mov, .mp4 or .m4v"
                ])
        }
        self.outputURL = outputURL
        self.outputFileType = outputFileType
        writesSegments = false
        super.init()
    }

    /// A writer that outputs segment data of `outputContentType` to its delegate instead of writing a file: an
    /// initialization segment, then media segments of `preferredOutputSegmentInterval` each (rule 11). Its
    /// `outputURL` is `about:blank`.
    public init(contentType outputContentType: UTType) {
        outputURL = URL(string: "about:blank")!
        outputFileType = AVFileType(rawValue: outputContentType.identifier)
        writesSegments = true
        super.init()
    }

    /// The same writer, under its newer Swift name.
    public convenience init(url outputURL: URL, fileType outputFileType: AVFileType) throws {
        try self.init(outputURL: outputURL, fileType: outputFileType)
    }

    /// The FFmpeg container of each file type written.
    private static let containers: [AVFileType: String] = [.mov: "mov", .mp4: "mp4", .m4v: "mp4"]

    /// Where the writer stands.
    open var status: Status { lock.withLock { state } }

    /// Why writing failed; nil unless `status` is `.failed`.
    open var error: (any Error)? { lock.withLock { failure } }

    /// The inputs added, in order.
    open var inputs: [AVAssetWriterInput] { lock.withLock { inputList } }

    /// The media types a writer of this file type takes: video and audio.
    open var availableMediaTypes: [AVMediaType] { [.video, .audio] }

    /// How often a movie fragment is written, so that a writer that dies keeps what came before;
    /// `.invalid` (the default) writes one movie box at the end (rule 7).
    open var movieFragmentInterval: CMTime {
        get { lock.withLock { fragmentInterval } }
        set { lock.withLock { fragmentInterval = newValue } }
    }

    /// Whether the movie box goes before the media, so that a player can start before the whole
    /// file has arrived; only for a movie written with one movie box (rule 7).
    open var shouldOptimizeForNetworkUse: Bool {
        get { lock.withLock { optimizeForNetwork } }
        set { lock.withLock { optimizeForNetwork = newValue } }
    }

    /// The profile segment data is written in: `.mpeg4AppleHLS` or `.mpeg4CMAFCompliant`, which a writer of
    /// segments needs (default nil; rule 11).
    open var outputFileTypeProfile: AVFileTypeProfile? {
        get { lock.withLock { profile } }
        set { lock.withLock { profile = newValue } }
    }

    /// How long each segment lasts (default `.invalid`, which a writer of segments refuses); a segment ends at the
    /// first picture at or after its interval (rule 11).
    open var preferredOutputSegmentInterval: CMTime {
        get { lock.withLock { segmentInterval } }
        set { lock.withLock { segmentInterval = newValue } }
    }

    /// Where the first segment starts, in the appended samples' time line; a writer with a positive segment
    /// interval needs a number here (default `.invalid`; rule 11).
    open var initialSegmentStartTime: CMTime {
        get { lock.withLock { segmentStart } }
        set { lock.withLock { segmentStart = newValue } }
    }

    /// Receives the segment data of a writer made with `init(contentType:)`; held weakly.
    open var delegate: AVAssetWriterDelegate? {
        get { lock.withLock { segmentDelegate as? AVAssetWriterDelegate } }
        set { lock.withLock { segmentDelegate = newValue } }
    }

    /// Ends the current segment and hands it to the delegate, for a writer whose segment interval is
    /// `.indefinite`. Raises `NSInternalInconsistencyException` when the writer has no delegate or its interval is
    /// another (rule 11); such a writer cannot start here, so otherwise there is nothing to end.
    open func flushSegment() {
        let (hasDelegate, interval) = lock.withLock { (segmentDelegate != nil, segmentInterval) }
        let rule = CaptureRule("§23", rule: 11, .documented, "flushSegment needs a delegate and an indefinite interval")
        if !hasDelegate {
            Violation(
                name: .internalInconsistencyException, method: "-[AVAssetWriter flushSegment]",
                message: "-flushSegment can be called only if the delegate method to output segment data is implemented.",
                rule: rule
            ).raise()
        }
        if interval != .indefinite {
            Violation(
                name: .internalInconsistencyException, method: "-[AVAssetWriter flushSegment]",
                message: "-flushSegment can be called only if the value of the preferredOutputSegmentInterval property "
                    + "is kCMTimeIndefinite.",
                rule: rule
            ).raise()
        }
    }

    /// The movie's metadata items (default none), written as QuickTime metadata: set before `startWriting()`
    /// (Capture rules §20 rule 15).
    open var metadata: [AVMetadataItem] {
        get { lock.withLock { metadataItems } }
        set { lock.withLock { metadataItems = newValue } }
    }

    /// Whether `input` can be added and written: before writing starts, one video and one audio input at most,
    /// of those media types, each added to one writer (rule 2).
    open func canAdd(_ input: AVAssetWriterInput) -> Bool {
        lock.withLock { state == .unknown && !inputList.contains { $0 === input } && writeProblem(inputList + [input]) == nil }
    }

    /// Whether output settings could be used for a media type: the codecs and keys of rule 3.
    open func canApply(outputSettings: [String: Any]?, forMediaType mediaType: AVMediaType) -> Bool {
        switch mediaType {
        case .video: return AssetWriterSettings.video(outputSettings).problem == nil
        case .audio: return AssetWriterSettings.audioProblem(outputSettings) == nil
        default: return false
        }
    }

    /// Adds an input. Raises `NSInternalInconsistencyException` once writing has started (rule 2). An input that
    /// `canAdd(_:)` refuses otherwise is taken, and `startWriting()` then fails saying why; adding one twice
    /// changes nothing.
    open func add(_ input: AVAssetWriterInput) {
        let (added, violation): (Bool, Violation?) = lock.withLock {
            guard state == .unknown else {
                return (false, Violation(
                    name: .internalInconsistencyException, method: "-[AVAssetWriter addInput:]",
                    message: "Cannot call method when status is \(state.rawValue)",
                    rule: CaptureRule("§23", rule: 2, .documented, "inputs are added before writing starts")))
            }
            guard !inputList.contains(where: { $0 === input }) else { return (false, nil) }
            inputList.append(input)
            return (true, nil)
        }
        raiseIfNeeded(violation)
        if added, input.writer == nil { input.writer = self }
    }

    /// Why these inputs cannot be written together, or nil.
    private func writeProblem(_ inputs: [AVAssetWriterInput]) -> String? {
        for input in inputs {
            if let owner = input.writer, owner !== self { return "an input belongs to another asset writer" }
            guard input.mediaType == .video || input.mediaType == .audio else {
                return "an input of media type \(input.mediaType.rawValue) is not written here; video and audio are"
            }
        }
        for type in [AVMediaType.video, .audio] where inputs.filter({ $0.mediaType == type }).count > 1 {
            return "one \(type == .video ? "video" : "audio") input is written here, not several"
        }
        return nil
    }

    /// Opens the file. False, with `status` `.failed` and `error` set, when a file is already at
    /// the URL (`AVError.fileAlreadyExists`), when no encoder can be loaded
    /// (`AVError.encoderNotFound`), or when the inputs cannot be written (rules 3 and 4). Calling it
    /// twice raises `NSInternalInconsistencyException`.
    open func startWriting() -> Bool {
        let (plan, violation): (AssetWriterMovie?, Violation?) = lock.withLock {
            guard state == .unknown else {
                return (nil, Violation(
                    name: .internalInconsistencyException, method: "-[AVAssetWriter startWriting]",
                    message: "Cannot call method when status is \(state.rawValue)",
                    rule: CaptureRule("§23", rule: 4, .observed, "startWriting is called once")))
            }
            return (makeMovie(), nil)
        }
        raiseIfNeeded(violation)
        guard let plan else {
            if let error = lock.withLock({ failure as? AVError }) { trace(error) }
            return false
        }
        let opened: Result<Void, MovieWriter.Failure> = encoding.withLock {
            do throws(MovieWriter.Failure) {
                try plan.open()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let problem) = opened {
            fail(problem.destinationExists ? AVError(.fileAlreadyExists) : Self.error(problem))
            return false
        }
        let inputs: [AVAssetWriterInput]? = lock.withLock {
            // A cancel while the file opened wins.
            guard state == .unknown else { return nil }
            movie = plan
            state = .writing
            return inputList
        }
        guard let inputs else {
            encoding.withLock { plan.discard() }
            return false
        }
        for input in inputs { input.writerDidStart() }
        deliverSegments(of: plan)
        return true
    }

    /// The movie for the inputs, or nil after recording why not; called under the lock.
    private func makeMovie() -> AssetWriterMovie? {
        func refuse(_ error: AVError) -> AssetWriterMovie? {
            state = .failed
            failure = error
            return nil
        }
        if let reason = MovieWriter.unavailableReason {
            return refuse(AVError(.encoderNotFound, userInfo: [NSLocalizedFailureReasonErrorKey: reason]))
        }
        if FileManager.default.fileExists(atPath: outputURL.path) { return refuse(AVError(.fileAlreadyExists)) }
        if let problem = writeProblem(inputList) {
            return refuse(AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: problem]))
        }
        guard let videoInput = inputList.first(where: { $0.mediaType == .video }) else {
            return refuse(
                AVError(
                    .unknown,
                    userInfo: [NSLocalizedFailureReasonErrorKey: "a movie needs a video input; audio alone is not written"]))
        }
        let settings = AssetWriterSettings.video(videoInput.outputSettings)
        if let problem = settings.problem {
            let code: AVError.Code = settings.unknownCodec ? .encoderNotFound : .unknown
            return refuse(AVError(code, userInfo: [NSLocalizedFailureReasonErrorKey: problem]))
        }
        if let audioInput = inputList.first(where: { $0.mediaType == .audio }),
            let problem = AssetWriterSettings.audioProblem(audioInput.outputSettings)
        {
            return refuse(AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: problem]))
        }
        var segmenting: AssetWriterMovie.Segmenting?
        if writesSegments {
            switch segmentPlan() {
            case .success(let plan): segmenting = plan
            case .failure(let problem): return refuse(AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: problem.reason]))
            }
        }
        var video = settings.video
        video.rotationDegrees = videoInput.transform.quarterTurnDegrees ?? 0
        let fragments = segmenting == nil ? fragmentInterval : .invalid
        return AssetWriterMovie(
            destination: outputURL.path, container: Self.containers[outputFileType] ?? "mov", video: video,
            audio: inputList.first { $0.mediaType == .audio }.map { AssetWriterSettings.audio($0.outputSettings) },
            fragmentInterval: fragments,
            fastStart: optimizeForNetwork && !(fragments.isValid && fragments.seconds > 0),
            metadata: AVMetadataItem.quickTimeEntries(metadataItems, for: "AVAssetWriter"), segmenting: segmenting)
    }

    private struct SegmentProblem: Error { let reason: String }

    /// Where segments start and how long they last, or why this writer's segments cannot be written (rule 11);
    /// called under the lock.
    private func segmentPlan() -> Result<AssetWriterMovie.Segmenting, SegmentProblem> {
        func refuse(_ reason: String) -> Result<AssetWriterMovie.Segmenting, SegmentProblem> {
            .failure(SegmentProblem(reason: reason))
        }
        guard segmentDelegate != nil else {
            return refuse("Neither the outputURL nor the delegate method to output segment data is specified")
        }
        guard outputFileType == .mp4 else {
            return refuse("AVAssetWriter does not support file type \(outputFileType.rawValue) for segment data")
        }
        guard let profile, profile == .mpeg4AppleHLS || profile == .mpeg4CMAFCompliant else {
            return refuse(
                "The value of the outputFileTypeProfile property must be file type profile AppleHLS or "
                    + "CMAFCompliant to output segment data")
        }
        if segmentInterval == .indefinite {
            return refuse(
                "A preferredOutputSegmentInterval of kCMTimeIndefinite takes compressed samples passed through, "
                    + "which this writer does not take: give a positive interval")
        }
        guard segmentInterval.isNumeric, segmentInterval > .zero else {
            return refuse(
                "The value of the preferredOutputSegmentInterval property must be kCMTimeIndefinite or a positive "
                    + "numeric time to output segment data")
        }
        guard segmentStart.isNumeric else {
            return refuse("The value of the initialSegmentStartTime property must be a numeric time to output segment data")
        }
        if profile == .mpeg4CMAFCompliant, inputList.count > 1 {
            return refuse("More than one track is not allowed for file type profile \(profile.rawValue)")
        }
        return .success(
            AssetWriterMovie.Segmenting(start: segmentStart, interval: segmentInterval, cmaf: profile == .mpeg4CMAFCompliant))
    }

    /// Hands the segment data `movie` has made to the delegate, in order, each with its report: none for the
    /// initialization segment, each track's samples for a media segment (rule 11). When another call is already
    /// delivering (on another queue, or further up this thread from inside the delegate), the data joins its
    /// outbox and that call hands it over.
    private func deliverSegments(of movie: AssetWriterMovie) {
        guard writesSegments else { return }
        let made = encoding.withLock { movie.takeSegments() }
        let delivers: Bool = outboxCondition.withLock {
            outbox += made
            guard !draining, !outbox.isEmpty else { return false }
            draining = true
            return true
        }
        guard delivers else { return }
        while let segment = nextSegment() {
            var report: AVAssetSegmentReport?
            if segment.type == .initialization {
                segmentTracks = FragmentedMP4.tracks(initialization: segment.data)
            } else {
                report = .separable(fragment: segment.data, tracks: segmentTracks)
            }
            delegate?.assetWriter(
                self, didOutputSegmentData: Data(segment.data), segmentType: segment.type, segmentReport: report)
        }
    }

    /// The oldest segment not yet delivered; nil, ending the delivery, when there is none.
    private func nextSegment() -> (data: [UInt8], type: AVAssetSegmentType)? {
        outboxCondition.withLock {
            guard !outbox.isEmpty else {
                draining = false
                outboxCondition.broadcast()
                return nil
            }
            return outbox.removeFirst()
        }
    }

    /// Returns once every segment made so far has reached the delegate.
    private func waitForSegments() {
        outboxCondition.withLock { while draining || !outbox.isEmpty { outboxCondition.wait() } }
    }

    /// Starts the session: a sample appended with time T plays at T − `startTime` in the movie.
    /// Raises `NSInternalInconsistencyException` before `startWriting()`, and
    /// `NSInvalidArgumentException` for a time that is not a number (rule 5).
    open func startSession(atSourceTime startTime: CMTime) {
        let (started, violation): (AssetWriterMovie?, Violation?) = lock.withLock {
            let rule = CaptureRule("§23", rule: 5, .documented, "a session starts after startWriting, once")
            guard state == .writing, let movie else {
                if state == .failed || state == .cancelled { return (nil, nil) }
                return (nil, Violation(
                    name: .internalInconsistencyException, method: "-[AVAssetWriter startSessionAtSourceTime:]",
                    message: "Cannot call method when status is \(state.rawValue)", rule: rule))
            }
            guard startTime.isNumeric else {
                return (nil, .invalidArgument(
                    "-[AVAssetWriter startSessionAtSourceTime:]", "invalid parameter not satisfying: startTime is valid",
                    rule))
            }
            return (movie, nil)
        }
        raiseIfNeeded(violation)
        // A second session is not written here: the first one's start stays (our choice). The encoding lock is
        // taken alone, so that `status` answers while a sample is being encoded.
        if let started { encoding.withLock { if !started.sessionStarted { started.startSession(at: startTime) } } }
    }

    /// Ends the session at `endTime`: samples after it are left out of the movie (rule 6).
    open func endSession(atSourceTime endTime: CMTime) {
        let movie = lock.withLock { state == .writing ? self.movie : nil }
        guard let movie else { return }
        encoding.withLock { movie.endSession(at: endTime) }
    }

    /// Finishes the movie: every input is marked finished, the encoders drain, and the file gets its
    /// final name. `handler` runs afterwards on another queue, with `status` `.completed` or
    /// `.failed`. Raises `NSInternalInconsistencyException` before `startWriting()` (rule 8).
    open func finishWriting(completionHandler handler: @escaping @Sendable () -> Void) {
        enum Step {
            case finish(AssetWriterMovie, DispatchGroup)
            case wait(DispatchGroup)
            case call
            case raise(Violation)
        }
        let step: Step = lock.withLock {
            if let finishing { return .wait(finishing) }
            switch state {
            case .writing:
                guard let movie else { return .call }
                let group = DispatchGroup()
                group.enter()
                finishing = group
                return .finish(movie, group)
            case .unknown:
                return .raise(
                    Violation(
                        name: .internalInconsistencyException,
                        method: "-[AVAssetWriter finishWritingWithCompletionHandler:]",
                        message: "Cannot call method when status is 0",
                        rule: CaptureRule("§23", rule: 8, .observed, "finishWriting needs startWriting first")))
            default: return .call
            }
        }
        switch step {
        case .raise(let violation): violation.raise()
        case .call: DispatchQueue.global().async { handler() }
        case .wait(let group): group.notify(queue: .global()) { handler() }
        case .finish(let movie, let group):
            for input in inputs { input.markAsFinished() }
            DispatchQueue.global().async { [self] in
                let finished: MovieWriter.Failure? = encoding.withLock {
                    do throws(MovieWriter.Failure) {
                        try movie.finish()
                        return nil
                    } catch {
                        movie.discard()
                        return error
                    }
                }
                if let finished {
                    fail(finished.destinationExists ? AVError(.fileAlreadyExists) : Self.error(finished))
                } else {
                    // The last segment reaches the delegate before the handler runs, even when another queue is
                    // still delivering.
                    deliverSegments(of: movie)
                    waitForSegments()
                    lock.withLock { if state == .writing { state = .completed } }
                }
                group.leave()
                handler()
            }
        }
    }

    /// Finishes the movie and returns once it is complete or has failed.
    open func finishWriting() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            finishWriting { done.resume() }
        }
    }

    /// Stops writing and removes what was written; `status` becomes `.cancelled` (rule 8).
    open func cancelWriting() {
        let (movie, inputs): (AssetWriterMovie?, [AVAssetWriterInput]) = lock.withLock {
            guard (state == .writing && finishing == nil) || state == .unknown else { return (nil, []) }
            state = .cancelled
            defer { self.movie = nil }
            return (self.movie, inputList)
        }
        if let movie { encoding.withLock { movie.discard() } }
        for input in inputs { input.writerDidStop() }
    }

    // MARK: - What inputs call

    /// Whether samples are taken now: writing, and not finishing.
    var isWriting: Bool { lock.withLock { state == .writing && finishing == nil } }

    /// Encodes one sample for an input: false when the writer is not writing or the sample fails it.
    /// Appending before the session starts raises `NSInternalInconsistencyException` (rule 5).
    func encode(_ selector: String, _ body: (AssetWriterMovie) throws(MovieWriter.Failure) -> Void) -> Bool {
        let movie: AssetWriterMovie? = lock.withLock { state == .writing && finishing == nil ? self.movie : nil }
        guard let movie else { return false }
        let outcome: Result<Bool, MovieWriter.Failure>? = encoding.withLock {
            guard movie.sessionStarted else { return nil }
            // Finished or discarded while this sample waited for the encoder: it is not taken.
            guard !movie.closed else { return .success(false) }
            do throws(MovieWriter.Failure) {
                try body(movie)
                return .success(true)
            } catch {
                movie.discard()
                return .failure(error)
            }
        }
        guard let outcome else {
            Violation(
                name: .internalInconsistencyException, method: selector,
                message: "Must start a session (using -[AVAssetWriter startSessionAtSourceTime:]) first",
                rule: CaptureRule("§23", rule: 5, .observed, "samples are appended after the session starts")
            ).raise()
        }
        switch outcome {
        case .success(let taken):
            deliverSegments(of: movie)
            return taken
        case .failure(let problem):
            fail(Self.error(problem))
            return false
        }
    }

    private func fail(_ error: AVError) {
        let inputs: [AVAssetWriterInput] = lock.withLock {
            guard state == .writing || state == .unknown else { return [] }
            state = .failed
            failure = error
            movie = nil
            return inputList
        }
        trace(error)
        for input in inputs { input.writerDidStop() }
    }

    /// Records in the trace why the writer failed.
    private func trace(_ error: AVError) {
        let reason = error.userInfo[NSLocalizedFailureReasonErrorKey] ?? error.description
        Emulation.shared.record(
            TraceEntry(
                section: "§23", rule: 4, outcome: .decided,
                sentence: "The asset writer \(writesSegments ? "of segments" : "for \(outputURL.lastPathComponent)") "
                    + "failed: \(reason)."))
    }

    private static func error(_ failure: MovieWriter.Failure) -> AVError {
        AVError(failure.unavailable ? .encoderNotFound : .unknown, userInfo: [NSLocalizedFailureReasonErrorKey: failure.description])
    }
}

extension CGAffineTransform {
    /// The clockwise turn, in degrees, of a transform that turns by a multiple of 90 degrees
    /// (translation aside); nil for any other transform.
    var quarterTurnDegrees: Int? {
        let turns: [(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, degrees: Int)] = [
            (1, 0, 0, 1, 0), (0, 1, -1, 0, 90), (-1, 0, 0, -1, 180), (0, -1, 1, 0, 270),
        ]
        return turns.first { t in
            abs(a - t.a) < 1e-6 && abs(b - t.b) < 1e-6 && abs(c - t.c) < 1e-6 && abs(d - t.d) < 1e-6
        }?.degrees
    }
}
