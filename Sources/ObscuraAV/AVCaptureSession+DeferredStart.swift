import CaptureRules
import Foundation

/// What a session's deferred start delegate hears (iOS 26): the deferred start about to run, and finished.
public protocol AVCaptureSessionDeferredStartDelegate: NSObjectProtocol {
    /// Deferred start is about to run; it may already be under way when this arrives.
    func sessionWillRunDeferredStart(_ session: AVCaptureSession)
    /// Deferred start has run: every deferred output has started.
    func sessionDidRunDeferredStart(_ session: AVCaptureSession)
}

extension AVCaptureSessionDeferredStartDelegate {
    public func sessionWillRunDeferredStart(_ session: AVCaptureSession) {}
    public func sessionDidRunDeferredStart(_ session: AVCaptureSession) {}
}

/// A session's deferred start (spec §1.7): the mode, the delegate, and which outputs have started, under one lock.
final class DeferredStartState: @unchecked Sendable {
    let lock = NSLock()
    var automatic = true
    weak var delegate: AVCaptureSessionDeferredStartDelegate?
    var queue: DispatchQueue?
    /// Whether the deferred start has run since the session started or a configuration was last committed.
    var ran = false
    /// Whether the app asked for it (`runDeferredStartWhenNeeded()`) before the session ran.
    var requested = false
    /// Whether it runs once the next frame has gone to the outputs that stream it.
    var afterNextFrame = false
    /// The outputs a deferred start has started since the session last started.
    var started: Set<ObjectIdentifier> = []
}

extension AVCaptureSession {
    /// Whether the app may run deferred start itself (`automaticallyRunsDeferredStart = false`): true (spec §1.7).
    public var isManualDeferredStartSupported: Bool { true }

    /// Whether the session runs deferred start by itself (default true, as for an app linked on iOS 26 or later):
    /// shortly after the first frame, or at once where only preview layers wait for one (spec §1.7 [D]).
    public var automaticallyRunsDeferredStart: Bool {
        get { deferredStart.lock.withLock { deferredStart.automatic } }
        set {
            if !newValue, !isManualDeferredStartSupported {
                Violation.invalidArgument(
                    "-[AVCaptureSession setAutomaticallyRunsDeferredStart:]",
                    "Manual deferred start is not supported",
                    CaptureRule(
                        "§1.7", .documented, "automatic deferred start goes off only where manual is supported"
                    )
                ).raise()
            }
            deferredStart.lock.withLock { deferredStart.automatic = newValue }
        }
    }

    /// The deferred start delegate.
    public var deferredStartDelegate: AVCaptureSessionDeferredStartDelegate? {
        deferredStart.lock.withLock { deferredStart.delegate }
    }

    /// The queue the deferred start delegate is called on.
    public var deferredStartDelegateCallbackQueue: DispatchQueue? {
        deferredStart.lock.withLock { deferredStart.queue }
    }

    /// Sets the deferred start delegate and its queue; a delegate without a queue raises (spec §1.7 [D]).
    public func setDeferredStartDelegate(
        _ deferredStartDelegate: AVCaptureSessionDeferredStartDelegate?,
        deferredStartDelegateCallbackQueue: DispatchQueue?
    ) {
        if deferredStartDelegate != nil, deferredStartDelegateCallbackQueue == nil {
            Violation.invalidArgument(
                "-[AVCaptureSession setDeferredStartDelegate:deferredStartDelegateCallbackQueue:]",
                "deferredStartDelegateCallbackQueue may not be NULL unless deferredStartDelegate is also nil",
                CaptureRule("§1.7", .documented, "a non-nil deferred start delegate needs a callback queue")
            ).raise()
        }
        deferredStart.lock.withLock {
            (deferredStart.delegate, deferredStart.queue) = (deferredStartDelegate, deferredStartDelegateCallbackQueue)
        }
    }

    /// Runs deferred start when the app is ready for it: at once on a running session, or as the session starts.
    /// Only the first call after a configuration commit counts. Raises while the session runs deferred start by
    /// itself (spec §1.7 [D]).
    public func runDeferredStartWhenNeeded() {
        let state = deferredStart
        let violation = state.lock.withLock { () -> Violation? in
            guard state.automatic else { return nil }
            return .invalidArgument(
                "-[AVCaptureSession runDeferredStartWhenNeeded]",
                "Cannot be called while automaticallyRunsDeferredStart is YES",
                CaptureRule(
                    "§1.7", .documented, "runDeferredStartWhenNeeded() needs automaticallyRunsDeferredStart false"))
        }
        raiseIfNeeded(violation)
        let now = state.lock.withLock { () -> Bool in
            guard !state.ran else { return false }
            state.requested = true
            return true
        }
        if now, isRunning { runDeferredStart() }
    }

    // MARK: The session's side

    /// Whether an output takes part in the stream now: it does not defer its start, or a deferred start has
    /// started it since the session started (spec §1.7).
    func hasStarted(_ output: AVCaptureOutput) -> Bool {
        // An output working for another one (a still image output's photo output) is not the session's own.
        guard output.isDeferredStartEnabled, outputs.contains(where: { $0 === output }) else { return true }
        return deferredStart.lock.withLock { deferredStart.started.contains(ObjectIdentifier(output)) }
    }

    /// Whether a preview layer showing the session shows its frames now (spec §1.7).
    func hasStarted(_ layer: AVCaptureVideoPreviewLayer) -> Bool {
        guard layer.isDeferredStartEnabled else { return true }
        return deferredStart.lock.withLock { deferredStart.started.contains(ObjectIdentifier(layer)) }
    }

    /// The session started running, or committed a configuration while running: a deferred start is due. Run by
    /// itself, it waits for the next frame where an output that does not defer streams data to the app, and runs
    /// at once where none does (only preview layers wait for a frame, and showing it needs none of the outputs).
    /// Run by the app, it runs now if the app already asked for it.
    func deferredStartIsDue() {
        let state = deferredStart
        let streams = outputs.contains { !$0.isDeferredStartEnabled && $0.streamsToApp }
        let runNow = state.lock.withLock { () -> Bool in
            state.ran = false
            state.afterNextFrame = state.automatic && streams
            return state.automatic ? !streams : state.requested
        }
        if runNow { runDeferredStart() }
    }

    /// A configuration was committed: the next call to `runDeferredStartWhenNeeded()` counts again.
    func deferredStartDidCommit() {
        if isRunning {
            deferredStartIsDue()
        } else {
            deferredStart.lock.withLock { deferredStart.requested = false }
        }
    }

    /// A frame went to the outputs that stream it: a deferred start waiting for it runs.
    func deferredStartAfterFrame() {
        let due = deferredStart.lock.withLock { () -> Bool in
            defer { deferredStart.afterNextFrame = false }
            return deferredStart.afterNextFrame && !deferredStart.ran
        }
        if due { runDeferredStart() }
    }

    /// An output needs to have started for a capture (a photo, a recording): where it has not, the session runs
    /// the deferred start on the app's behalf, whatever its mode (spec §1.7 [D]).
    func deferredStartForCapture(by output: AVCaptureOutput) {
        guard !hasStarted(output) else { return }
        runDeferredStart()
    }

    /// The session stopped: its outputs stop, and a later start defers them again.
    func deferredStartDidStop() {
        deferredStart.lock.withLock {
            deferredStart.started.removeAll()
            deferredStart.ran = false
            deferredStart.requested = false
            deferredStart.afterNextFrame = false
        }
    }

    /// The deferred start itself: every output of the session, and every preview layer showing it, has started.
    /// The delegate hears it before and after, in that order, on its queue.
    private func runDeferredStart() {
        let state = deferredStart
        let ids = outputs.map(ObjectIdentifier.init) + previewLayers.all.map(ObjectIdentifier.init)
        let target = state.lock.withLock { () -> (AVCaptureSessionDeferredStartDelegate, DispatchQueue)? in
            state.ran = true
            state.requested = false
            state.afterNextFrame = false
            state.started.formUnion(ids)
            guard let delegate = state.delegate, let queue = state.queue else { return nil }
            return (delegate, queue)
        }
        Emulation.shared.record(
            TraceEntry(section: "§1.7", rule: nil, outcome: .decided, sentence: "deferred start ran"))
        guard let (delegate, queue) = target else { return }
        let work = UncheckedSendable((self, delegate))
        queue.async { work.value.1.sessionWillRunDeferredStart(work.value.0) }
        queue.async { work.value.1.sessionDidRunDeferredStart(work.value.0) }
    }
}

extension AVCaptureOutput {
    /// Whether the output sends the app a stream of data (frames, depth, sound, metadata objects) through a
    /// delegate or a synchronizer.
    var streamsToApp: Bool {
        switch self {
        case let o as AVCaptureVideoDataOutput: return o.target != nil || o.synchronizer?.target != nil
        case let o as AVCaptureDepthDataOutput: return o.target != nil || o.synchronizer?.target != nil
        case let o as AVCaptureAudioDataOutput: return o.target != nil || o.synchronizer?.target != nil
        case let o as AVCaptureMetadataOutput: return o.target != nil || o.synchronizer?.target != nil
        default: return false
        }
    }
}
