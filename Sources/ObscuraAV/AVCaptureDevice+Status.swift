import Foundation

// The device's state and the features the emulated phone does not have, reported as a phone reports
// them where the feature is missing: supported false, enabled false, and a documented raise only for
// asking for what is not supported (spec §2.4 [D]).

extension AVCaptureDevice.DeviceType {
    /// An external camera (iPadOS 17, USB); the emulated phones have none, so discovery finds none.
    public static let external = AVCaptureDevice.DeviceType(rawValue: "AVCaptureDeviceTypeExternal")
}

extension AVCaptureDevice {
    /// Whether the camera is suspended, as a laptop's is with its lid closed: never on a phone. KVO.
    public var isSuspended: Bool { false }

    // MARK: Low-light boost (spec §2.4 [D]): iPhone 5-era hardware; no emulated device offers it.

    /// Whether the device can raise its sensitivity in low light: false.
    public var isLowLightBoostSupported: Bool { false }
    /// Whether low-light boost is on now: false. KVO.
    public var isLowLightBoostEnabled: Bool { false }
    /// Whether low-light boost turns on by itself when available. Lock required; settable only where
    /// supported (spec §2.4 [D]).
    public var automaticallyEnablesLowLightBoostWhenAvailable: Bool {
        get { false }
        set {
            guard isLockedForConfiguration else {
                Violation.deviceNotLocked("setAutomaticallyEnablesLowLightBoostWhenAvailable:").raise()
            }
            if newValue {
                Violation.unsupportedFeature(
                    "setAutomaticallyEnablesLowLightBoostWhenAvailable:", "low-light boost",
                    check: "isLowLightBoostSupported"
                ).raise()
            }
        }
    }

    // MARK: Geometric distortion correction (spec §2.4 [D])

    /// Whether the device can undo its lens's distortion in delivered frames: false. Obscura renders the
    /// profile's lens distortion into every picture and its ISP does not undo it (supported means
    /// delivered).
    public var isGeometricDistortionCorrectionSupported: Bool { false }
    /// Whether distortion correction is on: false. Lock required; true is settable only where supported.
    public var isGeometricDistortionCorrectionEnabled: Bool {
        get { false }
        set {
            guard isLockedForConfiguration else {
                Violation.deviceNotLocked("setGeometricDistortionCorrectionEnabled:").raise()
            }
            if newValue {
                Violation.unsupportedFeature(
                    "setGeometricDistortionCorrectionEnabled:", "geometric distortion correction",
                    check: "isGeometricDistortionCorrectionSupported"
                ).raise()
            }
        }
    }

    // MARK: Video HDR and global tone mapping (spec §2.4 [D]): no emulated format offers them.

    /// Whether the device chooses video HDR by itself (default true). Lock required.
    public var automaticallyAdjustsVideoHDREnabled: Bool {
        get { statusLock.withLock { statusState.automaticHDR } }
        set {
            guard isLockedForConfiguration else {
                Violation.deviceNotLocked("setAutomaticallyAdjustsVideoHDREnabled:").raise()
            }
            statusLock.withLock { statusState.automaticHDR = newValue }
        }
    }

    /// Whether video HDR is on: false, as no format supports it. Lock required; as Apple's header documents,
    /// it may be set only after `automaticallyAdjustsVideoHDREnabled` is turned off, and true only where
    /// `activeFormat.isVideoHDRSupported`, else `NSGenericException` (spec §2.4 [D]).
    public var isVideoHDREnabled: Bool {
        get { false }
        set {
            let selector = "setVideoHDREnabled:"
            guard isLockedForConfiguration else { Violation.deviceNotLocked(selector).raise() }
            if automaticallyAdjustsVideoHDREnabled { Violation.videoHDRIsAutomatic().raise() }
            if newValue { Violation.videoHDRUnsupported().raise() }
        }
    }

    /// Whether global tone mapping is on: false, as no format supports it. Lock required; true is
    /// settable only where the active format supports it.
    public var isGlobalToneMappingEnabled: Bool {
        get { false }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setGlobalToneMappingEnabled:").raise() }
            if newValue {
                Violation.unsupportedFeature(
                    "setGlobalToneMappingEnabled:", "global tone mapping",
                    check: "activeFormat.isGlobalToneMappingSupported"
                ).raise()
            }
        }
    }

    // MARK: System pressure (spec §2.4 [D])

    /// How hard the system is working, and why (`AVCaptureSystemPressureState`).
    open class SystemPressureState: NSObject, @unchecked Sendable {
        /// The pressure level, Apple's raw values.
        public struct Level: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let nominal = Level(rawValue: "nominal")
            public static let fair = Level(rawValue: "fair")
            public static let serious = Level(rawValue: "serious")
            public static let critical = Level(rawValue: "critical")
            public static let shutdown = Level(rawValue: "shutdown")
        }

        /// What contributes to the pressure.
        public struct Factors: OptionSet, Hashable, Sendable {
            public let rawValue: UInt
            public init(rawValue: UInt) { self.rawValue = rawValue }
            public static let systemTemperature = Factors(rawValue: 1 << 0)
            public static let peakPower = Factors(rawValue: 1 << 1)
            public static let depthModuleTemperature = Factors(rawValue: 1 << 2)
            public static let cameraTemperature = Factors(rawValue: 1 << 3)
        }

        public let level: Level
        public let factors: Factors

        init(level: Level, factors: Factors) {
            self.level = level
            self.factors = factors
        }
    }

    /// The system pressure now: nominal, with no factors, until a `.systemPressure` fault changes it
    /// (spec §21 rule 3). The emulated phone does not heat by itself; under an injected level the stream
    /// is throttled, the flash held back and, at `.shutdown`, the session interrupted, as a phone does. KVO.
    public var systemPressureState: SystemPressureState { pressure }

    // MARK: Preferred cameras (iOS 17)

    /// The camera the user picked last (for example in another app); the app sets it when the user
    /// chooses a camera. Nil until set.
    public class var userPreferredCamera: AVCaptureDevice? {
        get { PreferredCamera.lock.withLock { PreferredCamera.user } }
        set { PreferredCamera.lock.withLock { PreferredCamera.user = newValue } }
    }

    /// The camera the system suggests: the user's preferred camera while it is one of this phone's,
    /// else the default video camera.
    public class var systemPreferredCamera: AVCaptureDevice? {
        if let user = userPreferredCamera, user.isConnected { return user }
        return AVCaptureDevice.default(for: .video)
    }
}

/// The user's preferred camera, shared by the process as the system keeps it.
private enum PreferredCamera {
    static let lock = NSLock()
    nonisolated(unsafe) static var user: AVCaptureDevice?
}
