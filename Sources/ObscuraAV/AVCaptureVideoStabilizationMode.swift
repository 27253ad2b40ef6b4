/// Video stabilization modes (`AVCaptureVideoStabilizationMode`), with Apple's raw values.
public enum AVCaptureVideoStabilizationMode: Int, Sendable {
    /// No stabilization.
    case off = 0
    /// Standard stabilization.
    case standard = 1
    /// Cinematic stabilization: stronger, with more latency.
    case cinematic = 2
    /// Extended cinematic stabilization.
    case cinematicExtended = 3
    /// Low-latency stabilization suited to preview.
    case previewOptimized = 4
    /// Enhanced extended cinematic stabilization.
    case cinematicExtendedEnhanced = 5
    /// The device picks a mode; never an active mode itself.
    case auto = -1
}
