import Foundation
import Devices

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

extension AVCaptureVideoStabilizationMode {
    /// How much of the sensor's field of view the mode gives up to the margin it shifts the picture
    /// within: the picture shown is the central 1/`cropFactor` of the unstabilised one, scaled back to
    /// the output size. 10 % for standard, cinematic and preview-optimised, 25 % for the extended
    /// modes (the margins `AVCaptureDevice.Format.isVideoStabilizationModeSupported(_:)` asks the
    /// format for; spec §1.5 [I]).
    var cropFactor: Double {
        switch self {
        case .off, .auto: return 1
        case .standard, .cinematic, .previewOptimized: return 1.1
        case .cinematicExtended, .cinematicExtendedEnhanced: return 1.25
        }
    }
}

extension AVCaptureVideoStabilizationMode {
    /// The profile's spelling of the mode (`stabilization_modes`, spec §2.3).
    var profileMode: StabilizationMode {
        switch self {
        case .off: return .off
        case .standard: return .standard
        case .cinematic: return .cinematic
        case .cinematicExtended: return .cinematicExtended
        case .previewOptimized: return .previewOptimized
        case .cinematicExtendedEnhanced: return .cinematicExtendedEnhanced
        case .auto: return .auto
        }
    }
}
