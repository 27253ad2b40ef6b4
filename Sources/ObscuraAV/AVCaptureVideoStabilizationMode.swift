import Foundation

/// How video is stabilised (Apple's raw values). Formats say which they support
/// (`AVCaptureDevice.Format.isVideoStabilizationModeSupported(_:)`).
public enum AVCaptureVideoStabilizationMode: Int, Sendable, Hashable {
    /// No stabilisation.
    case off = 0
    /// Standard stabilisation.
    case standard = 1
    /// Stronger stabilisation with more latency.
    case cinematic = 2
    /// Stronger still, with more latency and a narrower field of view.
    case cinematicExtended = 3
    /// Low-latency stabilisation of the preview only.
    case previewOptimized = 4
    /// Extended cinematic stabilisation with an enhanced crop.
    case cinematicExtendedEnhanced = 5
    /// The most appropriate mode for the format, chosen by the system.
    case auto = -1
}
