import CaptureRules
import Foundation

/// One recording of a file output, from `startRecording(to:recordingDelegate:)` to
/// `didFinishRecordingTo` (spec §20).
///
///     preparing ─begin─▶ waiting ─first frame─▶ writing ─stop, limit, failure─▶ finishing ─▶ finished
///                           └──────── stop before any frame ──────────────────▶ finishing
///
/// Time (spec §20 rule 14, DESIGN "Time"): outside the manual clock, a recording holds the wall-clock
/// time between `startRecording` and `stopRecording`, within a frame. The free-running stream may lead
/// the wall clock by many seconds, so while a recording takes frames the stream is held to its pace
/// (`framesDue`): no more frames than the wall time since the start allows. A stop asks for the frames
/// the wall time between start and stop holds; when the renderer is slower than real time, the
/// recording keeps taking frames until it has them, then finishes. Under the manual clock a recording
/// holds exactly the frames the test advances through.
///
/// The stream engine hands each frame to `accept` on its thread; encoding runs on the recording's
/// own serial queue with at most `backlogFrames` frames waiting, so a slow encoder slows the
/// stream instead of piling up frames. The file is written under a temporary name next to the
/// target and moved there once its trailer is written (`MovieWriter`), so a recording that dies
/// midway leaves nothing under the client's name (spec §20 rule 10 [I]).
final class MovieRecording: @unchecked Sendable {
    enum State { case preparing, waiting, writing, finishing, finished }

    /// Why a recording ends.
    enum Ending {
        case clientStopped, sessionStopped, maximumDuration, maximumFileSize, diskFull, failed(AVError)
    }

    /// Frames allowed to wait for the encoder.
    static let backlogFrames = 8

    let url: URL
    private weak var output: AVCaptureFileOutput?
    /// Held strongly until `didFinishRecordingTo` has run, as Apple holds it [D].
    private var delegate: AVCaptureFileOutputRecordingDelegate?
    private let plan: MovieWriter.Plan?
    private let limits: (duration: CMTime, size: Int64, freeSpace: Int64)
    private let delegateQueue: DispatchQueue
    private let encodeQueue = DispatchQueue(label: "obscura.movie.encode")
    private let backlog = DispatchSemaphore(value: MovieRecording.backlogFrames)

    private let lock = NSLock()
    private var state = State.preparing
    private var ending: Ending?
    private var frames: Int64 = 0
    /// The stream's sample index that sits at the file's sample 0: audio buffer j goes to the file at
    /// j · samplesPerBuffer − startSample. A resume moves it on, so the file's audio has no gap.
    private var startSample: Int64 = 0
    private var nextAudio = 0
    /// The file's audio so far, in samples (where the next buffer may start at the earliest).
    private var audioEnd: Int64 = 0
    /// Paused (spec §20 rule 13), and whether the next frame taken is the first after a resume.
    private var paused = false
    private var resuming = false
    private var bytes: Int64 = 0
    /// Whether the recording follows the wall clock (every clock but the manual one).
    private let followsWallClock: Bool
    /// When `startRecording` was called, in the monotonic clock's nanoseconds, moved on by each pause's
    /// length so that paused wall time does not count.
    private var wallStart: UInt64 = DispatchTime.now().uptimeNanoseconds
    private var pausedAt: UInt64?
    /// The frames a client stop asked for; the recording finishes once it holds them.
    private var framesAtStop: Int64?
    /// Touched only on `encodeQueue`.
    private var writer: MovieWriter?
    private var writeFailure: String?

    init(
        output: AVCaptureFileOutput, url: URL, delegate: AVCaptureFileOutputRecordingDelegate, plan: MovieWriter.Plan?,
        limits: (duration: CMTime, size: Int64, freeSpace: Int64), delegateQueue: DispatchQueue,
        followsWallClock: Bool = false
    ) {
        self.followsWallClock = followsWallClock
        self.output = output
        self.url = url
        self.delegate = delegate
        // spec §20 rule 10 [I]: MPEG-4 for .mp4 and .m4v names, QuickTime otherwise.
        self.plan = plan.map { plan in
            var chosen = plan
            chosen.container = ["mp4", "m4v"].contains(url.pathExtension.lowercased()) ? "mp4" : "mov"
            return chosen
        }
        self.limits = limits
        self.delegateQueue = delegateQueue
    }

    /// The media time written: whole frames of the plan's duration (never past the limit, rule 7).
    var recordedDuration: CMTime {
        guard let plan else { return .zero }
        let n = lock.withLock { frames }
        return CMTime(value: n * plan.frameDuration.value, timescale: plan.frameDuration.timescale)
    }

    var recordedFileSize: Int64 { lock.withLock { bytes } }

    var acceptsFrames: Bool { lock.withLock { state == .waiting || state == .writing } }

    /// How many frames the recording may hold by now: those the wall time since the start spans, and
    /// the one that begins it; after a stop, the frames the stop asked for. Nil when the stream need
    /// not wait for it (the manual clock, paused, or not taking frames).
    var framesDue: (due: Int64, taken: Int64)? {
        lock.withLock {
            guard followsWallClock, let plan, state == .waiting || state == .writing, !paused else { return nil }
            if let framesAtStop { return (framesAtStop, frames) }
            return (wallFrames(plan) + 1, frames)
        }
    }

    /// Whole frames of the plan in the wall time since the start (less pauses). Must hold the lock.
    private func wallFrames(_ plan: MovieWriter.Plan) -> Int64 {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- wallStart) / 1e9
        return Int64((elapsed / plan.frameDuration.seconds).rounded(.down))
    }

    var isPaused: Bool { lock.withLock { paused && (state == .waiting || state == .writing) } }

    /// Stops taking frames until `resume`; the delegate hears of it (spec §20 rule 13).
    func pause() {
        let changed = lock.withLock { () -> Bool in
            guard state == .waiting || state == .writing, !paused else { return false }
            paused = true
            pausedAt = DispatchTime.now().uptimeNanoseconds
            return true
        }
        if changed { tell { $0.fileOutput($1, didPauseRecordingTo: $2, from: $1.connections) } }
    }

    /// Takes frames again; the next one follows the last one written (spec §20 rule 13).
    func resume() {
        let changed = lock.withLock { () -> Bool in
            guard state == .waiting || state == .writing, paused else { return false }
            paused = false
            if let pausedAt { wallStart &+= DispatchTime.now().uptimeNanoseconds &- pausedAt }
            pausedAt = nil
            resuming = state == .writing
            return true
        }
        if changed { tell { $0.fileOutput($1, didResumeRecordingTo: $2, from: $1.connections) } }
    }

    /// Calls the delegate on its queue, in order with the other callbacks.
    private func tell(
        _ call: @escaping @Sendable (AVCaptureFileOutputRecordingDelegate, AVCaptureFileOutput, URL) -> Void
    ) {
        let job = lock.withLock { UncheckedSendable((delegate, output, url)) }
        delegateQueue.async {
            let (delegate, output, url) = job.value
            guard let delegate, let output else { return }
            call(delegate, output, url)
        }
    }

    /// Opens the file, or ends at once when recording cannot start (spec §20 rules 4, 5, 8).
    func begin(sessionRunning: Bool, unavailableReason: String?) {
        if let unavailableReason {
            Emulation.shared.record(
                TraceEntry(
                    section: "§20", rule: 5, outcome: .decided,
                    sentence: "No movie can be recorded: \(unavailableReason). The recording ends with "
                        + "AVError.encoderNotFound."))
            stop(.failed(AVError(.encoderNotFound, userInfo: [NSLocalizedFailureReasonErrorKey: unavailableReason])))
            return
        }
        if FileManager.default.fileExists(atPath: url.path) {
            stop(.failed(AVError(.fileAlreadyExists)))
            return
        }
        guard sessionRunning else {
            stop(.failed(AVError(.sessionNotRunning)))
            return
        }
        guard let plan else {
            stop(.failed(AVError(.unknown)))
            return
        }
        let path = url.path
        // The file opens on the encoding queue before any frame is queued there.
        lock.withLock {
            encodeQueue.async { [self] in
                do {
                    writer = try MovieWriter(destination: path, plan: plan)
                } catch {
                    writeFailure = "\(error)"
                    stop(.failed(AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: "\(error)"])))
                }
            }
            if state == .preparing { state = .waiting }
        }
    }

    /// Takes one video frame at stream time `time`, with the audio that plays during it.
    func accept(_ frame: CVPixelBuffer, time: CMTime, connections: [AVCaptureConnection]) {
        guard let plan else { return }
        let sampleRate = Int64(AVCaptureAudioDataOutput.sampleRate)
        let perBuffer = AVCaptureAudioDataOutput.samplesPerBuffer
        // A slot first: waiting for the encoder must not hold the lock `stop` needs.
        backlog.wait()
        // Taking the frame and queueing its encoding happen under one lock, as `stop` queues the
        // finish under it: every frame counted in `recordedDuration` is in the file.
        let taken = lock.withLock { () -> Taken? in
            guard state == .waiting || state == .writing, !paused else { return nil }
            if let framesAtStop, frames >= framesAtStop { return nil }
            if resuming {
                // The first frame after a pause: its audio starts with the first buffer at or after it and
                // goes where the file's video and audio end, so neither track has a gap.
                resuming = false
                let resumeSample = Int64((time.seconds * Double(sampleRate)).rounded())
                nextAudio = Int((resumeSample + Int64(perBuffer) - 1) / Int64(perBuffer))
                let videoEnd = Int64((Double(frames) * plan.frameDuration.seconds * Double(sampleRate)).rounded())
                startSample = Int64(nextAudio * perBuffer) - max(videoEnd, audioEnd)
            }
            if state == .waiting {
                state = .writing
                // Audio starts with the first buffer that begins at or after the first frame.
                startSample = Int64((time.seconds * Double(sampleRate)).rounded())
                nextAudio = Int((startSample + Int64(perBuffer) - 1) / Int64(perBuffer))
                if let delegate, let output {
                    let job = UncheckedSendable((delegate, output, connections, url))
                    delegateQueue.async {
                        let (delegate, output, connections, url) = job.value
                        delegate.fileOutput(output, didStartRecordingTo: url, from: connections)
                    }
                }
            }
            let index = frames
            frames += 1
            // The buffers that begin before this frame ends.
            let end = Int64(((time + plan.frameDuration).seconds * Double(sampleRate)).rounded())
            var last = nextAudio
            while Int64(last * perBuffer) < end { last += 1 }
            let audio = plan.hasAudio ? nextAudio..<last : last..<last
            nextAudio = last
            let start = startSample
            if !audio.isEmpty { audioEnd = Int64(audio.upperBound * perBuffer) - start }
            let work = UncheckedSendable(frame)
            encodeQueue.async { [self] in
                defer { backlog.signal() }
                encode(work.value, index: index, audio: audio, startSample: start)
            }
            if let framesAtStop, frames >= framesAtStop { return .stopped }
            let full = limits.duration.isValid && limits.duration.seconds > 0
                && Double(frames) * plan.frameDuration.seconds >= limits.duration.seconds - 1e-9
            return full ? .full : .taken
        }
        switch taken {
        case nil: backlog.signal()
        case .full: stop(.maximumDuration)
        case .stopped: finish()
        case .taken: break
        }
    }

    /// Writes one frame and the audio buffers that play during it (on `encodeQueue`).
    private func encode(_ frame: CVPixelBuffer, index: Int64, audio: Range<Int>, startSample: Int64) {
        guard let writer, writeFailure == nil else { return }
        let perBuffer = AVCaptureAudioDataOutput.samplesPerBuffer
        do {
            for j in audio {
                try writer.appendAudio(
                    AVCaptureAudioDataOutput.samples(index: j), sampleIndex: Int64(j * perBuffer) - startSample)
            }
            try writer.appendVideo(frame, index: index)
            let written = writer.bytes
            lock.withLock { bytes = written }
            if limits.size > 0, written >= limits.size { stop(.maximumFileSize) }
            // Free space is checked once a second of frames: a file-system query per frame is waste.
            if limits.freeSpace > 0, index % 30 == 0, let free = freeSpace(), free < limits.freeSpace {
                stop(.diskFull)
            }
        } catch {
            writeFailure = "\(error)"
            stop(.failed(AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: "\(error)"])))
        }
    }

    /// What taking a frame led to.
    private enum Taken { case taken, full, stopped }

    /// Ends the recording once; later calls do nothing. The file is finished on the encoding queue,
    /// after every frame already taken. A client's stop, following the wall clock, first waits for the
    /// frames the wall time since the start holds (see the type's comment); any other ending, the
    /// session's stop among them, finishes a waiting stop at once as the client's.
    func stop(_ why: Ending) {
        let finishNow = lock.withLock { () -> Bool in
            guard state == .preparing || state == .waiting || state == .writing else { return false }
            if framesAtStop != nil { return true }
            if case .clientStopped = why, followsWallClock, let plan, state == .waiting || state == .writing {
                let wanted = max(1, wallFrames(plan))
                if frames < wanted && !paused {
                    framesAtStop = wanted
                    ending = why
                    return false
                }
            }
            ending = why
            return true
        }
        if finishNow { finish() }
    }

    /// Finishes the file on the encoding queue with the ending already chosen.
    private func finish() {
        lock.withLock {
            guard state == .preparing || state == .waiting || state == .writing else { return }
            state = .finishing
            encodeQueue.async { [self] in finishOnQueue() }
        }
    }

    private func finishOnQueue() {
        let (why, written) = lock.withLock { (ending ?? .clientStopped, frames) }
        // The first error is the cause; later ones follow from it.
        var failure: AVError?
        switch why {
        case .failed(let cause): failure = cause
        case .maximumDuration: failure = AVError(.maximumDurationReached)
        case .maximumFileSize: failure = AVError(.maximumFileSizeReached)
        case .diskFull: failure = AVError(.diskFull)
        case .sessionStopped: failure = AVError(.sessionNotRunning)
        case .clientStopped: break
        }
        var success = false
        if let writer {
            self.writer = nil
            if written == 0 || writeFailure != nil {
                writer.discard()
            } else {
                do {
                    try writer.finish()
                    // spec §20 rule 4 [D]: never replace a file that appeared at the URL meanwhile.
                    try writer.publish()
                    success = true
                } catch let problem {
                    writer.discard()
                    failure = failure ?? (problem.destinationExists
                        ? AVError(.fileAlreadyExists)
                        : AVError(.unknown, userInfo: [NSLocalizedFailureReasonErrorKey: problem.description]))
                }
            }
        }
        if written == 0 { failure = failure ?? AVError(.noDataCaptured) }  // spec §20 rule 8 [D][I]
        let size = success ? (try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? Int64 : nil
        lock.withLock {
            if let size { bytes = size }
            state = .finished
        }
        let reported = failure.map { cause -> AVError in
            var info = cause.userInfo
            info[AVErrorRecordingSuccessfullyFinishedKey] = success
            info[AVErrorTimeKey] = recordedDuration
            info[AVErrorFileSizeKey] = recordedFileSize
            return AVError(cause.code, userInfo: info)
        }
        let delegate = lock.withLock { () -> AVCaptureFileOutputRecordingDelegate? in
            defer { self.delegate = nil }
            return self.delegate
        }
        let url = self.url
        let job = UncheckedSendable((delegate, output, reported, self))
        delegateQueue.async {
            let (delegate, output, reported, recording) = job.value
            guard let output else { return }
            delegate?.fileOutput(output, didFinishRecordingTo: url, from: output.connections, error: reported)
            output.recordingDidFinish(recording)
        }
    }

    /// Bytes free on the volume of the file.
    private func freeSpace() -> Int64? {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.deletingLastPathComponent().path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
