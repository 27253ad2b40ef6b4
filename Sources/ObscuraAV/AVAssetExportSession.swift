import CaptureRules
import Foundation
import Imaging

/// Exports a movie in the form a preset describes (`AVAssetExportSession`): camera apps shrink a recording before
/// they upload it, or trim it to a time range (Capture rules §25 rules 10–12).
///
/// The movie is decoded with the asset reader and encoded again with the asset writer, through FFmpeg's libraries
/// as both are, so an export needs them installed and fails with the writer's `AVError.encoderNotFound` where they
/// are not.
open class AVAssetExportSession: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// Where an export stands (`AVAssetExportSession.Status`).
    public enum Status: Int, Sendable {
        case unknown = 0
        case waiting = 1
        case exporting = 2
        case completed = 3
        case failed = 4
        case cancelled = 5
    }

    /// What `states(updateInterval:)` reports while an export runs.
    public enum State: Sendable {
        case pending
        case waiting
        case exporting(progress: Progress)
    }

    /// The movie exported.
    public let asset: AVAsset
    /// The preset's name.
    public let presetName: String
    let preset: ExportPreset

    let lock = NSLock()
    /// Observers of `status`, which Apple documents as key-value observable.
    let observers = ObserverRegistry()
    private var url: URL?
    private var fileType: AVFileType?
    private var optimizesForNetwork = false
    private var range = CMTimeRange(start: .zero, duration: .positiveInfinity)
    private var items: [AVMetadataItem]?
    private var lengthLimit: Int64 = 0
    private var composition: AVVideoComposition?
    private var mix: AVAudioMix?
    private var state = Status.unknown
    private var failure: (any Error)?
    private var fraction: Float = 0
    private var cancelled = false

    /// A session exporting `asset` with the preset `presetName`; nil for a name that is not an export preset here
    /// (`AVAssetExportPresetAppleM4A` included: the movies read here always have a video track).
    public init?(asset: AVAsset, presetName: String) {
        guard let preset = ExportPreset.named(presetName) else { return nil }
        self.asset = asset
        self.presetName = presetName
        self.preset = preset
        super.init()
    }

    /// The presets' names, Passthrough apart, as Apple lists them.
    open class func allExportPresets() -> [String] { ExportPreset.offered.map(\.name) }

    /// The presets `asset` can be exported with: all of them for a movie that can be read, none otherwise.
    open class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        asset.isExportable ? allExportPresets() : []
    }

    /// Whether `asset` can be exported with `presetName` to `outputFileType` (any type the preset writes when nil).
    open class func determineCompatibility(
        ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?,
        completionHandler handler: @escaping @Sendable (Bool) -> Void
    ) {
        let compatible = Self.isCompatible(presetName, asset, outputFileType)
        DispatchQueue.global().async { handler(compatible) }
    }

    /// Whether `asset` can be exported with `presetName` to `outputFileType`.
    open class func compatibility(ofExportPreset presetName: String, with asset: AVAsset, outputFileType: AVFileType?)
        async -> Bool
    {
        isCompatible(presetName, asset, outputFileType)
    }

    private static func isCompatible(_ name: String, _ asset: AVAsset, _ type: AVFileType?) -> Bool {
        guard ExportPreset.named(name) != nil, asset.isExportable else { return false }
        return type.map { writtenTypes.contains($0) } ?? true
    }

    /// The movie containers an export writes.
    static let writtenTypes: [AVFileType] = [.mov, .mp4, .m4v]

    // MARK: - Configuration

    /// Where the movie goes: a file URL with nothing there yet.
    open var outputURL: URL? {
        get { lock.withLock { url } }
        set { lock.withLock { url = newValue } }
    }

    /// The container written; one of `supportedFileTypes`.
    open var outputFileType: AVFileType? {
        get { lock.withLock { fileType } }
        set { lock.withLock { fileType = newValue } }
    }

    /// The containers this session writes: QuickTime and MPEG-4 movies, for a movie that can be read.
    open var supportedFileTypes: [AVFileType] { asset.isExportable ? Self.writtenTypes : [] }

    /// The same, handed to `handler` on another queue.
    open func determineCompatibleFileTypes(completionHandler handler: @escaping @Sendable ([AVFileType]) -> Void) {
        let types = supportedFileTypes
        DispatchQueue.global().async { handler(types) }
    }

    /// The same, awaited.
    open var compatibleFileTypes: [AVFileType] {
        get async { supportedFileTypes }
    }

    /// Whether the movie box goes before the media, so that a player can start before the file has arrived.
    open var shouldOptimizeForNetworkUse: Bool {
        get { lock.withLock { optimizesForNetwork } }
        set { lock.withLock { optimizesForNetwork = newValue } }
    }

    /// The part of the movie exported (default: all of it); clipped to the movie (rule 11).
    open var timeRange: CMTimeRange {
        get { lock.withLock { range } }
        set { lock.withLock { range = newValue } }
    }

    /// The metadata items written; nil (the default) writes the movie's own (rule 11).
    open var metadata: [AVMetadataItem]? {
        get { lock.withLock { items } }
        set { lock.withLock { items = newValue } }
    }

    /// How the video tracks become the exported frames (Capture rules §25 rule 16); nil exports the first video
    /// track as it is. The session keeps a copy. With one, the movie is written at the composition's render size
    /// (scaled down to the preset's limit) with no turn in its track, and a composition that cannot compose the asset
    /// fails the export with `AVError.invalidVideoComposition`.
    open var videoComposition: AVVideoComposition? {
        get { lock.withLock { composition } }
        set {
            let copy = newValue?.copy(as: AVVideoComposition.self)
            lock.withLock { composition = copy }
        }
    }

    /// How loud each sound track plays over time (Capture rules §25 rule 17); nil plays each at its
    /// `preferredVolume`. The session keeps a copy.
    open var audioMix: AVAudioMix? {
        get { lock.withLock { mix } }
        set {
            let copy = newValue?.copy(as: AVAudioMix.self)
            lock.withLock { mix = copy }
        }
    }

    /// The most bytes the file may hold (0, the default: no limit); the export ends at the last picture before
    /// the limit (rule 11).
    open var fileLengthLimit: Int64 {
        get { lock.withLock { lengthLimit } }
        set { lock.withLock { lengthLimit = newValue } }
    }

    /// Whether the export may run in parallel with others; it runs as one here either way.
    open var allowsParallelizedExport = true
    /// Whether the export may read the source more than once; it reads it once here either way.
    open var canPerformMultiplePassesOverSourceMediaData = false
    /// Where temporary files go; the movie is written next to its destination here.
    open var directoryForTemporaryFiles: URL?

    /// The longest span the export can hold: the whole movie (no file length limit stops it earlier than its end).
    open var maxDuration: CMTime { asset.duration }

    /// An estimate of the file's length in bytes: the preset's bit rates over the time range.
    open var estimatedOutputFileLength: Int64 {
        guard let contents = try? asset.contents.get(),
            let plan = try? ExportPlan(
                contents: contents, preset: preset, range: lock.withLock({ range }))
        else { return 0 }
        return plan.estimatedBytes
    }

    /// The same, handed to `handler` with nil for an error.
    open func estimateOutputFileLength(completionHandler handler: @escaping @Sendable (Int64, (any Error)?) -> Void) {
        let estimate = estimatedOutputFileLength
        DispatchQueue.global().async { handler(estimate, nil) }
    }

    /// The same, awaited; throws why the movie cannot be read.
    open var estimatedOutputFileLengthInBytes: Int64 {
        get async throws {
            _ = try asset.contents.get()
            return estimatedOutputFileLength
        }
    }

    /// The longest span the export can hold, handed to `handler`.
    open func estimateMaximumDuration(completionHandler handler: @escaping @Sendable (CMTime, (any Error)?) -> Void) {
        let duration = maxDuration
        DispatchQueue.global().async { handler(duration, nil) }
    }

    /// The same, awaited.
    open var maximumDuration: CMTime {
        get async throws {
            _ = try asset.contents.get()
            return maxDuration
        }
    }

    // MARK: - Exporting

    /// Where the export stands; key-value observable.
    open var status: Status { lock.withLock { state } }
    /// Why the export failed or was cancelled; nil otherwise.
    open var error: (any Error)? { lock.withLock { failure } }
    /// How much of the time range has been exported, 0 to 1.
    open var progress: Float { lock.withLock { fraction } }

    /// Starts the export on another queue and returns at once; `handler` runs there when it has completed, failed
    /// or been cancelled, with `status` and `error` saying which (rule 12). A second call while one runs, or after,
    /// changes nothing and calls its handler at once.
    open func exportAsynchronously(completionHandler handler: @escaping @Sendable () -> Void) {
        let starts: Bool = lock.withLock {
            guard state == .unknown else { return false }
            state = .waiting
            return true
        }
        if starts { observers.didChange(\AVAssetExportSession.status) }
        DispatchQueue.global().async { [self] in
            if starts { run() }
            handler()
        }
    }

    /// Exports and returns once the export has ended.
    open func export() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            exportAsynchronously { done.resume() }
        }
    }

    /// Exports to `url` as `fileType`, throwing why the export failed; cancelling the task cancels the export and
    /// throws `CancellationError`.
    public func export(to url: URL, as fileType: AVFileType, isolation: isolated (any Actor)? = #isolation)
        async throws
    {
        lock.withLock {
            self.url = url
            self.fileType = fileType
        }
        await withTaskCancellationHandler {
            await export()
        } onCancel: {
            cancelExport()
        }
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? AVError(.exportFailed)
        }
    }

    /// The export's state every `updateInterval` seconds (at its start and end only for the default, infinity),
    /// until it has ended.
    public func states(updateInterval: TimeInterval = .infinity) -> AsyncStream<State> {
        AsyncStream { continuation in
            let task = Task {
                var last: String?
                while !Task.isCancelled {
                    let (status, fraction) = lock.withLock { (state, self.fraction) }
                    let now: State
                    switch status {
                    case .unknown: now = .pending
                    case .waiting: now = .waiting
                    case .exporting:
                        let progress = Progress(totalUnitCount: 1000)
                        progress.completedUnitCount = Int64((fraction * 1000).rounded())
                        now = .exporting(progress: progress)
                    default:
                        continuation.finish()
                        return
                    }
                    let key = "\(status.rawValue) \(fraction)"
                    if key != last || updateInterval.isFinite {
                        continuation.yield(now)
                        last = key
                    }
                    let pause = updateInterval.isFinite ? max(updateInterval, 0.001) : 0.01
                    try? await Task.sleep(nanoseconds: UInt64(pause * 1e9))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Stops the export: nothing is left at the output URL, and `status` becomes `.cancelled` (rule 12).
    open func cancelExport() {
        let ended: Bool = lock.withLock {
            cancelled = true
            guard state == .unknown || state == .waiting else { return false }
            state = .cancelled
            failure = Self.cancellation
            return true
        }
        if ended { observers.didChange(\AVAssetExportSession.status) }
    }

    /// The error a cancelled export holds: Cocoa's user-cancelled error (our choice).
    static var cancellation: NSError { NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError) }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func report(progress: Float) { lock.withLock { fraction = min(max(progress, 0), 1) } }

    /// Writes the movie; with a file length limit, a file over it is written again over a range shortened in
    /// proportion (with a twentieth to spare), so that what stays at the URL keeps within the limit (rule 11).
    private func write(
        url: URL?, type: AVFileType?, range: CMTimeRange, fastStart: Bool, metadata: [AVMetadataItem], limit: Int64
    ) throws(AVError) {
        if try copyWhole(url: url, type: type, range: range, fastStart: fastStart, replacing: metadata, limit: limit) {
            return
        }
        var range = range
        for _ in 0..<6 {
            if isCancelled { return }
            let job = try AssetExport(
                session: self, url: url, fileType: type, range: range, fastStart: fastStart, metadata: metadata)
            try job.run()
            guard limit > 0, let url, let size = Self.fileSize(url), size > limit, !isCancelled else { return }
            try? FileManager.default.removeItem(at: url)
            let kept = job.range.duration.seconds * Double(limit) / Double(size) * 0.95
            range = CMTimeRange(start: job.range.start, duration: CMTime(seconds: kept, preferredTimescale: 600))
        }
        throw AVError(
            .exportFailed,
            userInfo: [
                NSLocalizedFailureReasonErrorKey:
                    "no part of the movie fits within the file length limit of \(limit) bytes"
            ])
    }

    /// Passthrough of the whole movie into its own container, its metadata kept and its box order as
    /// `shouldOptimizeForNetworkUse` asks, hands over the file itself: a copy, written beside the destination and put
    /// there only if nothing is there by then (rule 10). False, leaving the export to re-encode, otherwise.
    private func copyWhole(
        url: URL?, type: AVFileType?, range: CMTimeRange, fastStart: Bool, replacing metadata: [AVMetadataItem],
        limit: Int64
    ) throws(AVError) -> Bool {
        guard preset.codec == nil, let url, url.isFileURL, let type,
            lock.withLock({ items == nil && composition == nil && mix == nil }),
            let source = (try? asset.contents.get())?.url, let layout = MovieFileLayout(url: source),
            layout.fileType == type, layout.movieFirst || !fastStart,
            !range.start.isNumeric || range.start <= .zero,
            !range.isValid || !range.end.isNumeric || range.end >= asset.duration,
            let size = Self.fileSize(source), limit <= 0 || size <= limit
        else { return false }
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw AVError(.fileAlreadyExists, userInfo: [NSLocalizedFailureReasonErrorKey: "\(url.path) exists"])
        }
        do {
            let made = try StaleTemporaries.createFile(
                in: FileConfinement.folder(of: url.path), for: url.lastPathComponent)
            let output = FileHandle(fileDescriptor: made.descriptor, closeOnDealloc: true)
            var copied = false
            defer { if !copied { unlink(made.path) } }
            let input = try FileHandle(forReadingFrom: source)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                if isCancelled { return true }
                try output.write(contentsOf: chunk)
                report(progress: Float(Double(try output.offset()) / Double(max(size, 1))))
            }
            try output.synchronize()
            try output.close()
            copied = true
            try StaleTemporaries.publish(made.path, at: url.path)
        } catch let failure as AtomicFileError where errno == EEXIST {
            throw AVError(.fileAlreadyExists, userInfo: [NSLocalizedFailureReasonErrorKey: failure.description])
        } catch {
            throw AVError(.exportFailed, userInfo: [NSLocalizedFailureReasonErrorKey: "copying the movie: \(error)"])
        }
        return true
    }

    private static func fileSize(_ url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
    }

    /// Runs the export on the calling thread and records how it ended.
    private func run() {
        let (url, type, network, range, items, limit) = lock.withLock {
            () -> (URL?, AVFileType?, Bool, CMTimeRange, [AVMetadataItem]?, Int64) in
            if state == .waiting { state = .exporting }
            return (self.url, fileType, optimizesForNetwork, self.range, self.items, lengthLimit)
        }
        observers.didChange(\AVAssetExportSession.status)
        let outcome: Result<Void, AVError>
        do throws(AVError) {
            try write(
                url: url, type: type, range: range, fastStart: network, metadata: items ?? asset.metadata, limit: limit)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        lock.withLock {
            if cancelled {
                state = .cancelled
                failure = Self.cancellation
            } else if case let .failure(error) = outcome {
                state = .failed
                failure = error
            } else {
                state = .completed
                fraction = 1
            }
        }
        observers.didChange(\AVAssetExportSession.status)
        if case let .failure(error) = outcome, !isCancelled {
            let reason = error.userInfo[NSLocalizedFailureReasonErrorKey] ?? error.description
            Emulation.shared.record(
                TraceEntry(
                    section: "§25", rule: 12, outcome: .decided,
                    sentence: "The export with \(presetName) failed: \(reason)."))
        }
    }
}
