import CaptureRules
import Foundation

/// The system's video effects that video-call apps manage (Capture rules §2.9): Center Stage, the
/// Portrait effect and the microphone modes. No emulated camera frames people automatically or
/// blurs their background, so no format supports either effect and neither is ever active; the
/// control modes and enabled states keep what the app and the "user" set, as Control Center does.
extension AVCaptureDevice {
    /// Who may turn Center Stage on and off (`AVCaptureDevice.CenterStageControlMode`).
    public enum CenterStageControlMode: Int, Sendable {
        /// The user alone, in Control Center (the default).
        case user = 0
        /// The app alone.
        case app = 1
        /// The app and the user, each seeing the other's changes.
        case cooperative = 2
    }

    /// Who may change `isCenterStageEnabled`; `.user` by default.
    public class var centerStageControlMode: CenterStageControlMode {
        get { VideoEffects.lock.withLock { VideoEffects.centerStageMode } }
        set { VideoEffects.lock.withLock { VideoEffects.centerStageMode = newValue } }
    }

    /// Whether Center Stage is enabled, for every camera of the app. Setting it while
    /// `centerStageControlMode` is `.user` raises `NSInvalidArgumentException` (rule 1).
    public class var isCenterStageEnabled: Bool {
        get { VideoEffects.lock.withLock { VideoEffects.centerStageEnabled } }
        set {
            let violation: Violation? = VideoEffects.lock.withLock {
                guard VideoEffects.centerStageMode != .user else {
                    return .invalidArgument(
                        "+[AVCaptureDevice setCenterStageEnabled:]",
                        "Center Stage may not be set by the app while centerStageControlMode is "
                            + "AVCaptureCenterStageControlModeUser",
                        CaptureRule("§2.9", rule: 1, .documented, "the app sets Center Stage only under app or cooperative control"))
                }
                VideoEffects.centerStageEnabled = newValue
                return nil
            }
            raiseIfNeeded(violation)
        }
    }

    /// Whether Center Stage frames this camera now: never, since no format supports it (rule 2).
    public var isCenterStageActive: Bool { false }

    /// Whether the user turned the Portrait effect on in Control Center; false, as no format
    /// supports it (rule 2).
    public class var isPortraitEffectEnabled: Bool { false }

    /// Whether the Portrait effect blurs this camera's background now: never (rule 2).
    public var isPortraitEffectActive: Bool { false }

    /// The microphone's sound processing (`AVCaptureDevice.MicrophoneMode`).
    public enum MicrophoneMode: Int, Sendable {
        /// The system's usual processing.
        case standard = 0
        /// Every sound around, with little processing.
        case wideSpectrum = 1
        /// Speech, with the background suppressed.
        case voiceIsolation = 2
    }

    /// The mode the user chose in Control Center: `.standard`, as the emulated microphone has no other (rule 3).
    public class var preferredMicrophoneMode: MicrophoneMode { .standard }

    /// The mode the microphone runs in: `.standard` (rule 3).
    public class var activeMicrophoneMode: MicrophoneMode { .standard }
}

extension AVCaptureDevice.Format {
    /// Whether the format supports Center Stage: no emulated format does (rule 2).
    public var isCenterStageSupported: Bool { false }

    /// The zoom factors Center Stage keeps to: 1 to 1, as it is never active (rule 2).
    public var videoMinZoomFactorForCenterStage: CGFloat { 1 }
    public var videoMaxZoomFactorForCenterStage: CGFloat { 1 }

    /// The frame rates Center Stage runs at: none (rule 2).
    public var videoFrameRateRangeForCenterStage: AVFrameRateRange? { nil }

    /// Whether the format supports the Portrait effect: no emulated format does (rule 2).
    public var isPortraitEffectSupported: Bool { false }

    /// The frame rates the Portrait effect runs at: none (rule 2).
    public var videoFrameRateRangeForPortraitEffect: AVFrameRateRange? { nil }
}

/// The video-effect settings the system keeps for the app, shared by its cameras.
private enum VideoEffects {
    static let lock = NSLock()
    nonisolated(unsafe) static var centerStageMode = AVCaptureDevice.CenterStageControlMode.user
    nonisolated(unsafe) static var centerStageEnabled = false
}
