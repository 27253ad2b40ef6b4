import Devices

extension AVCaptureSession {
    /// A session preset (spec §1.1). `.inputPriority` leaves the devices' formats to the client.
    public struct Preset: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let photo = Preset(rawValue: "AVCaptureSessionPresetPhoto")
        public static let high = Preset(rawValue: "AVCaptureSessionPresetHigh")
        public static let medium = Preset(rawValue: "AVCaptureSessionPresetMedium")
        public static let low = Preset(rawValue: "AVCaptureSessionPresetLow")
        public static let cif352x288 = Preset(rawValue: "AVCaptureSessionPreset352x288")
        public static let vga640x480 = Preset(rawValue: "AVCaptureSessionPreset640x480")
        public static let hd1280x720 = Preset(rawValue: "AVCaptureSessionPreset1280x720")
        public static let hd1920x1080 = Preset(rawValue: "AVCaptureSessionPreset1920x1080")
        public static let hd4K3840x2160 = Preset(rawValue: "AVCaptureSessionPreset3840x2160")
        public static let iFrame960x540 = Preset(rawValue: "AVCaptureSessionPresetiFrame960x540")
        public static let iFrame1280x720 = Preset(rawValue: "AVCaptureSessionPresetiFrame1280x720")
        public static let inputPriority = Preset(rawValue: "AVCaptureSessionPresetInputPriority")

        /// The profile's name for the preset; nil for `.inputPriority` and unknown presets.
        var profilePreset: SessionPreset? {
            switch self {
            case .photo: return .photo
            case .high: return .high
            case .medium: return .medium
            case .low: return .low
            case .cif352x288: return .cif352x288
            case .vga640x480: return .vga640x480
            case .hd1280x720: return .hd1280x720
            case .hd1920x1080: return .hd1920x1080
            case .hd4K3840x2160: return .hd4K3840x2160
            case .iFrame960x540: return .iFrame960x540
            case .iFrame1280x720: return .iFrame1280x720
            default: return nil
            }
        }
    }

    /// Why a session was interrupted (spec §1.3 [D]).
    public enum InterruptionReason: Int, Sendable, Hashable {
        case videoDeviceNotAvailableInBackground = 1
        case audioDeviceInUseByAnotherClient = 2
        case videoDeviceInUseByAnotherClient = 3
        case videoDeviceNotAvailableWithMultipleForegroundApps = 4
        case videoDeviceNotAvailableDueToSystemPressure = 5
        /// The system interrupts capture to shield the user from sensitive content (iOS 26).
        case sensitiveContentMitigationActivated = 6
    }
}

import Foundation

extension AVCaptureSession {
    /// Posted when the session fails at run time; `userInfo[AVCaptureSessionErrorKey]` holds an `AVError`.
    public static let runtimeErrorNotification = NSNotification.Name("AVCaptureSessionRuntimeErrorNotification")
    /// Posted when the session starts running.
    public static let didStartRunningNotification = NSNotification.Name("AVCaptureSessionDidStartRunningNotification")
    /// Posted when the session stops running.
    public static let didStopRunningNotification = NSNotification.Name("AVCaptureSessionDidStopRunningNotification")
    /// Posted when an interruption begins; `userInfo[AVCaptureSessionInterruptionReasonKey]` holds the reason.
    public static let wasInterruptedNotification = NSNotification.Name("AVCaptureSessionWasInterruptedNotification")
    /// Posted when an interruption ends.
    public static let interruptionEndedNotification = NSNotification.Name(
        "AVCaptureSessionInterruptionEndedNotification")
}

/// The `userInfo` key of a runtime error's `AVError`.
public let AVCaptureSessionErrorKey = "AVCaptureSessionErrorKey"
/// The `userInfo` key of an interruption's reason (an `Int` raw value).
public let AVCaptureSessionInterruptionReasonKey = "AVCaptureSessionInterruptionReasonKey"
