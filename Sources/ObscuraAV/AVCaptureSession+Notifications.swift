import Foundation

// The notification names iOS code written before iOS 17 uses. Apple renamed them to static
// members of `AVCaptureSession` and kept the old spellings as aliases of the same string, so an
// observer registered under either name receives every post (spec §1.3 [D]).
extension NSNotification.Name {
    /// The pre-iOS 17 spelling of `AVCaptureSession.runtimeErrorNotification`.
    public static let AVCaptureSessionRuntimeError = AVCaptureSession.runtimeErrorNotification
    /// The pre-iOS 17 spelling of `AVCaptureSession.wasInterruptedNotification`.
    public static let AVCaptureSessionWasInterrupted = AVCaptureSession.wasInterruptedNotification
    /// The pre-iOS 17 spelling of `AVCaptureSession.interruptionEndedNotification`.
    public static let AVCaptureSessionInterruptionEnded = AVCaptureSession.interruptionEndedNotification
    /// The pre-iOS 17 spelling of `AVCaptureSession.didStartRunningNotification`.
    public static let AVCaptureSessionDidStartRunning = AVCaptureSession.didStartRunningNotification
    /// The pre-iOS 17 spelling of `AVCaptureSession.didStopRunningNotification`.
    public static let AVCaptureSessionDidStopRunning = AVCaptureSession.didStopRunningNotification
    /// The pre-iOS 17 spelling of `AVCaptureInput.Port.formatDescriptionDidChangeNotification`.
    public static let AVCaptureInputPortFormatDescriptionDidChange =
        AVCaptureInput.Port.formatDescriptionDidChangeNotification
}

/// The `userInfo` key of an interruption caused by system pressure: the device's
/// `AVCaptureDevice.SystemPressureState` at the time. The emulated phone does not heat by itself; an
/// injected `.shutdown` level interrupts the session with this key (spec §21 rule 3 [D]).
public let AVCaptureSessionInterruptionSystemPressureStateKey = "AVCaptureSessionInterruptionSystemPressureStateKey"
