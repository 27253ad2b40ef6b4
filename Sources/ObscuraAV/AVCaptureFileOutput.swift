import CaptureRules
import Foundation

/// Learns how a file recording goes (`AVCaptureFileOutputRecordingDelegate`). Only
/// `didFinishRecordingTo` is required, as in Objective-C; the start, pause and resume callbacks have
/// empty defaults.
public protocol AVCaptureFileOutputRecordingDelegate: NSObjectProtocol {
    func fileOutput(
        _ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    func fileOutput(
        _ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    func fileOutput(
        _ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection])
    func fileOutput(
        _ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
        error: Error?)
}

extension AVCaptureFileOutputRecordingDelegate {
    public func fileOutput(
        _ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]
    ) {}
    public func fileOutput(
        _ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]
    ) {}
    public func fileOutput(
        _ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]
    ) {}
}

/// An output that records media to files (`AVCaptureFileOutput`); `AVCaptureMovieFileOutput` is the
/// one kind iOS has.
///
/// One recording at a time; each runs through `MovieRecording`'s states (spec §20). Callbacks
/// arrive on a private serial queue, as Apple promises no particular thread [D].
open class AVCaptureFileOutput: AVCaptureOutput, @unchecked Sendable {
    private let fileLock = NSLock()
    private var current: MovieRecording?
    /// The last recording's figures, kept after it finished.
    private var last: (duration: CMTime, size: Int64) = (.zero, 0)
    private var limits = (duration: CMTime.invalid, size: Int64(0), freeSpace: Int64(0))
    let recordingDelegateQueue = DispatchQueue(label: "obscura.file-output.delegate")

    override init() { super.init() }

    /// The file being recorded to; nil when not recording.
    public var outputFileURL: URL? { fileLock.withLock { current?.url } }

    /// True from `startRecording` until `didFinishRecordingTo` has returned (spec §20 rule 6).
    public var isRecording: Bool { fileLock.withLock { current != nil } }

    /// Whether the current recording is paused (iOS 18; spec §20 rule 13): frames and audio are not
    /// written until `resumeRecording()`. False when not recording.
    public var isRecordingPaused: Bool { fileLock.withLock { current?.isPaused ?? false } }

    /// The media time recorded to the current file (the last file's once it finished).
    public var recordedDuration: CMTime { fileLock.withLock { current?.recordedDuration ?? last.duration } }

    /// Bytes recorded to the current file (the last file's once it finished).
    public var recordedFileSize: Int64 { fileLock.withLock { current?.recordedFileSize ?? last.size } }

    /// Recording stops with `AVError.maximumDurationReached` at this duration; `.invalid` for no
    /// limit, the default (spec §20 rule 7).
    public var maxRecordedDuration: CMTime {
        get { fileLock.withLock { limits.duration } }
        set { fileLock.withLock { limits.duration = newValue } }
    }

    /// Recording stops with `AVError.maximumFileSizeReached` at this many bytes; 0 for no limit.
    public var maxRecordedFileSize: Int64 {
        get { fileLock.withLock { limits.size } }
        set { fileLock.withLock { limits.size = newValue } }
    }

    /// Recording stops with `AVError.diskFull` when free space falls below this many bytes; 0 for
    /// no limit.
    public var minFreeDiskSpaceLimit: Int64 {
        get { fileLock.withLock { limits.freeSpace } }
        set { fileLock.withLock { limits.freeSpace = newValue } }
    }

    /// Starts recording to a new file; the delegate learns of the start and, always, of the end.
    ///
    /// A URL that is not a file URL, or an output without an active and enabled connection,
    /// raises `NSInvalidArgumentException` (spec §20 rules 1, 3). Recording while a recording is in
    /// progress finishes that one first (rule 9). Failures after this point reach the delegate as an
    /// error in `didFinishRecordingTo` (rules 4, 5, 8).
    open func startRecording(to outputFileURL: URL, recordingDelegate delegate: AVCaptureFileOutputRecordingDelegate) {
        let method = "-[\(className) startRecordingToOutputFileURL:recordingDelegate:]"
        if !outputFileURL.isFileURL {
            Violation.invalidArgument(
                method, "Cannot record to URL \(outputFileURL) because it is not a file URL.",
                CaptureRule("§20", rule: 1, .documented, "startRecording needs a file URL")
            ).raise()
        }
        guard let video = connection(with: .video), video.isActive, video.isEnabled else {
            Violation.invalidArgument(
                method, "No active/enabled connections",
                CaptureRule("§20", rule: 3, .observed, "startRecording needs an active and enabled connection")
            ).raise()
        }
        fileLock.withLock { current }?.stop(.clientStopped)  // spec §20 rule 9 [I]
        // spec §1.7 [D]: a file output that has not started yet is started for the recording.
        session?.deferredStartForCapture(by: self)
        let recording = MovieRecording(
            output: self, url: outputFileURL, delegate: delegate, plan: recordingPlan(video),
            limits: fileLock.withLock { limits }, delegateQueue: recordingDelegateQueue,
            followsWallClock: Emulation.shared.clockMode != .manual)
        fileLock.withLock { current = recording }
        // The stream feeds the recording from now on, under the manual clock too (spec §20 rule 14).
        if let session { StreamEngine.shared.register(session) }
        recording.begin(sessionRunning: session?.isRunning == true, unavailableReason: MovieWriter.unavailableReason)
        observers.refresh()  // isRecording (KVO)
    }

    /// Stops the current recording; the file is finished in the background and `didFinishRecordingTo`
    /// follows. Does nothing when not recording (spec §20 rule 8).
    open func stopRecording() {
        fileLock.withLock { current }?.stop(.clientStopped)
    }

    /// Stops writing samples to the current file but keeps it open, so that `resumeRecording()` can
    /// add a later stretch to it; `didPauseRecordingTo` follows. Does nothing when not recording or
    /// already paused (spec §20 rule 13).
    open func pauseRecording() {
        fileLock.withLock { current }?.pause()
        observers.refresh()  // isRecordingPaused (KVO)
    }

    /// Writes samples to the current file again after `pauseRecording()`, straight after what was
    /// written before the pause; `didResumeRecordingTo` follows. Does nothing unless paused (spec §20
    /// rule 13).
    open func resumeRecording() {
        fileLock.withLock { current }?.resume()
        observers.refresh()  // isRecordingPaused (KVO)
    }

    /// The file's layout, from the camera's active format; movie outputs override it.
    func recordingPlan(_ connection: AVCaptureConnection) -> MovieWriter.Plan? { nil }

    /// The recording frames go to, while it takes them.
    var activeRecording: MovieRecording? {
        fileLock.withLock { current?.acceptsFrames == true ? current : nil }
    }

    /// Called by a recording once its delegate has been told it finished.
    func recordingDidFinish(_ recording: MovieRecording) {
        fileLock.withLock {
            guard current === recording else { return }
            last = (recording.recordedDuration, recording.recordedFileSize)
            current = nil
        }
        observers.refresh()  // isRecording, recordedDuration, recordedFileSize (KVO)
    }

    /// The session stopped running: the recording ends (spec §20 rule 8 [I]).
    func sessionDidStopRunning() {
        fileLock.withLock { current }?.stop(.sessionStopped)
    }

    /// An output taken out of its session gets no more frames: its recording ends as a session
    /// stop ends it (spec §20 rule 8 [I]).
    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        if session == nil { sessionDidStopRunning() }
    }
}
