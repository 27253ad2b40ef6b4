import Foundation

extension AVCaptureDevice {
    /// How the exposure is chosen (Apple's raw values).
    public enum ExposureMode: Int, Sendable, Hashable {
        /// Held at its current value.
        case locked = 0
        /// Metered once, then locked.
        case autoExpose = 1
        /// Metered for every capture (the default).
        case continuousAutoExposure = 2
        /// The duration and ISO given to `setExposureModeCustom(duration:iso:completionHandler:)`.
        case custom = 3
    }

    /// The exposure mode (default `.continuousAutoExposure`). Photos of a device in `.custom` mode
    /// use the custom duration and ISO instead of metering; the other modes meter each capture [I].
    public var exposureMode: ExposureMode {
        get { exposureState.value.mode }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setExposureMode:").raise() }  // spec §2.4
            exposureState.update { $0.mode = newValue }
        }
    }

    /// The custom exposure duration, or `.invalid` when none was set.
    public var exposureDuration: CMTime {
        exposureState.value.custom.map { CMTime(seconds: $0.duration, preferredTimescale: 1_000_000) } ?? .invalid
    }

    /// The custom ISO, or 0 when none was set.
    public var iso: Float { Float(exposureState.value.custom?.iso ?? 0) }

    /// Switches to `.custom` with a duration and an ISO, then calls `handler` with the duration
    /// as a sync time. Needs the configuration lock (spec §2.4). Values are taken as given; the
    /// active format's ISO and duration ranges are not emulated yet [I].
    public func setExposureModeCustom(
        duration: CMTime, iso: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil
    ) {
        guard isLockedForConfiguration else {
            Violation.deviceNotLocked("setExposureModeCustomWithDuration:ISO:completionHandler:").raise()
        }
        exposureState.update {
            $0.mode = .custom
            $0.custom = (duration.seconds, Double(iso))
        }
        handler?(duration)
    }

    /// The fixed exposure photos use, when the device is in `.custom` mode.
    var customExposure: (duration: Double, iso: Double)? {
        let v = exposureState.value
        return v.mode == .custom ? v.custom : nil
    }
}

/// A device's exposure settings, behind their own lock.
final class ExposureState: @unchecked Sendable {
    struct Value {
        var mode = AVCaptureDevice.ExposureMode.continuousAutoExposure
        var custom: (duration: Double, iso: Double)?
    }

    private let lock = NSLock()
    private var stored = Value()

    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
