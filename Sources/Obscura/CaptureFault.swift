import ObscuraAV

/// Something that goes wrong on a phone while an app captures, as the emulator makes it happen
/// (§21 of the Capture rules article).
///
/// Inject one at once with `Emulator.shared.inject(_:into:)`, or schedule it for a moment of a
/// session's stream with `Emulator.shared.schedule(_:at:)`. The app hears of it only through Apple's
/// notifications, errors, delegate callbacks and key-value observable properties, as on a phone, and the
/// trace gets an entry that names the rule it follows.
public enum CaptureFault: Sendable, Hashable, CustomStringConvertible {
    /// The session fails while running: `runtimeErrorNotification` with the `AVError` under
    /// `AVCaptureSessionErrorKey`, and the session stops until the app calls `startRunning()` again
    /// (spec §21 rule 1).
    case runtimeError(AVError.Code)
    /// The system interrupts the running session for a reason; no frames come until it ends (spec §21
    /// rule 2). A camera taken by another app is `.interruption(.videoDeviceInUseByAnotherClient)`.
    case interruption(AVCaptureSession.InterruptionReason)
    /// The interruption ends; the session runs again unless the app stopped it (spec §21 rule 2).
    case interruptionEnded
    /// The camera's system pressure changes to a level, with the factors behind it: the stream is
    /// throttled at `.serious` and `.critical`, the flash held back, and `.shutdown` interrupts the
    /// session until a lower level comes (spec §21 rule 3).
    case systemPressure(AVCaptureDevice.SystemPressureState.Level, factors: AVCaptureDevice.SystemPressureState.Factors)
    /// The next `count` video frames are dropped for a reason: each video data output's delegate hears
    /// `captureOutput(_:didDrop:from:)` instead of the frame (spec §21 rule 4).
    case droppedFrames(Int, reason: DroppedFrameReason)
    /// The volume fills up: every movie file output's recording finishes with `AVError.diskFull`, its
    /// file playable (spec §21 rule 5).
    case diskFull
    /// The flash becomes too hot to fire (true), or cools again (false) (spec §21 rule 6).
    case flashThermallyUnavailable(Bool)

    /// Why frames were dropped: the values of `kCMSampleBufferAttachmentKey_DroppedFrameReason`.
    public enum DroppedFrameReason: String, Sendable, Hashable, CaseIterable {
        /// `kCMSampleBufferDroppedFrameReason_FrameWasLate`: the client's queue was still busy.
        case frameWasLate = "FrameWasLate"
        /// `kCMSampleBufferDroppedFrameReason_OutOfBuffers`: the client held on to too many buffers.
        case outOfBuffers = "OutOfBuffers"
        /// `kCMSampleBufferDroppedFrameReason_Discontinuity`: the source lost frames.
        case discontinuity = "Discontinuity"
    }

    /// When a scheduled fault happens, on the stream of the session it reaches (spec §21 rule 7).
    public enum Moment: Sendable, Hashable, CustomStringConvertible {
        /// Before the first video frame presented at or after this many seconds of the session's timeline.
        case seconds(Double)
        /// Before video frame `n` of the session's stream (0 is the first frame it makes).
        case frame(Int)

        public var description: String { injected.description }

        var injected: InjectedFault.Moment {
            switch self {
            case .seconds(let s): return .seconds(s)
            case .frame(let n): return .frame(n)
            }
        }
    }

    /// `runtime error mediaServicesWereReset (-11819)`, `3 dropped frames (OutOfBuffers)`, …
    public var description: String { injected.description }

    /// The same fault, as the emulator acts on it.
    var injected: InjectedFault {
        switch self {
        case .runtimeError(let code): return .runtimeError(code)
        case .interruption(let reason): return .interruption(reason)
        case .interruptionEnded: return .interruptionEnded
        case .systemPressure(let level, let factors): return .systemPressure(level, factors: factors)
        case .droppedFrames(let count, let reason):
            // The raw values are Apple's strings on both sides.
            let same = InjectedFault.DroppedFrameReason(rawValue: reason.rawValue) ?? .frameWasLate
            return .droppedFrames(count, reason: same)
        case .diskFull: return .diskFull
        case .flashThermallyUnavailable(let hot): return .flashThermallyUnavailable(hot)
        }
    }
}
