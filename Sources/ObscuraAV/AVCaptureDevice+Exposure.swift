import Foundation
import ISP

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

    /// Passed as the duration to `setExposureModeCustom(duration:iso:completionHandler:)` to keep the
    /// current one (Apple's `AVCaptureExposureDurationCurrent`: an invalid time, so any invalid time
    /// keeps the duration).
    public static let currentExposureDuration = CMTime.invalid

    /// Passed as the ISO to keep the current one (Apple's `AVCaptureISOCurrent`; FLT_MAX our choice [I]).
    public static let currentISO: Float = .greatestFiniteMagnitude

    /// Passed as the bias to keep the current one (Apple's `AVCaptureExposureTargetBiasCurrent`;
    /// FLT_MAX our choice [I]).
    public static let currentExposureTargetBias: Float = .greatestFiniteMagnitude

    /// Whether an exposure mode is available. The automatic and locked modes are everywhere;
    /// `.custom` is not offered by multi-camera devices (spec §2.1 [D]).
    public func isExposureModeSupported(_ exposureMode: ExposureMode) -> Bool {
        exposureMode != .custom || !camera.deviceType.isMultiCamera
    }

    /// The exposure mode (default `.continuousAutoExposure`). Lock required; an unsupported mode raises
    /// `NSInvalidArgumentException` (spec §2.4 [D]). `.locked` holds the exposure metered at that
    /// moment. Photos of a device in `.custom` or `.locked` mode use the held duration and ISO
    /// instead of metering; the other modes meter each capture [I]. KVO.
    public var exposureMode: ExposureMode {
        get { exposureState.value.mode }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setExposureMode:").raise() }  // spec §2.4
            guard isExposureModeSupported(newValue) else {
                Violation.unsupportedMode(
                    "exposureMode", rawValue: newValue.rawValue, check: "isExposureModeSupported:"
                )
                .raise()  // spec §2.4 [D]
            }
            // Locking, or entering custom by the mode alone, holds the exposure in use at that moment.
            let current = currentExposure
            exposureState.update {
                if newValue == .locked { $0.held = current }
                if newValue == .custom, $0.mode != .custom { $0.custom = current }
                $0.mode = newValue
            }
            observers.didChange(\AVCaptureDevice.exposureMode)
        }
    }

    /// The exposure time in use: the custom or held one, else what auto-exposure chose for the
    /// current stream picture (activeFormat, scene, torch and bias). KVO.
    public var exposureDuration: CMTime {
        CMTime(seconds: currentExposure.duration, preferredTimescale: 1_000_000_000)
    }

    /// The ISO in use, chosen as `exposureDuration` is. KVO.
    public var iso: Float { Float(currentExposure.iso) }

    /// The lens aperture, the f-number of the camera's lens (the rendering camera's for a virtual device).
    public var lensAperture: Float { Float(renderingModel?.fNumber ?? 0) }

    /// Switches to `.custom` with a duration and an ISO within the active format's ranges
    /// (`currentExposureDuration` and `currentISO` keep the present values), then calls `handler` with
    /// the time stamp of the first frame so exposed. Lock required (spec §2.4 [D]); `.custom`
    /// must be supported (`NSInvalidArgumentException`) and values out of range raise
    /// `NSRangeException` (spec §2.4 [D]).
    public func setExposureModeCustom(
        duration: CMTime, iso: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil
    ) {
        let selector = "setExposureModeCustomWithDuration:ISO:completionHandler:"
        guard isLockedForConfiguration else { Violation.deviceNotLocked(selector).raise() }  // spec §2.4 [D]
        guard isExposureModeSupported(.custom) else {
            Violation.unsupportedMode(
                "exposureMode", rawValue: ExposureMode.custom.rawValue, check: "isExposureModeSupported:"
            )
            .raise()  // spec §2.4 [D]
        }
        let current = currentExposure
        let format = activeFormat
        let seconds = duration.isValid ? duration.seconds : current.duration
        let speed = iso == Self.currentISO ? current.iso : Double(iso)
        let (minT, maxT) = (format.minExposureDuration.seconds, format.maxExposureDuration.seconds)
        // spec §2.4 [D]: the duration and ISO must lie in the active format's ranges (a tolerance of
        // one part in a million lets the ranges' own end points, rounded to CMTime, through).
        guard seconds >= minT * (1 - 1e-6), seconds <= maxT * (1 + 1e-6) else {
            Violation.customExposureOutOfRange(
                "duration", String(format: "%g s", seconds), range: String(format: "[%g s, %g s]", minT, maxT)
            ).raise()
        }
        guard speed >= Double(format.minISO) * (1 - 1e-6), speed <= Double(format.maxISO) * (1 + 1e-6) else {
            Violation.customExposureOutOfRange(
                "ISO", String(format: "%g", speed), range: "[\(format.minISO), \(format.maxISO)]"
            ).raise()
        }
        exposureState.update {
            $0.mode = .custom
            $0.custom = (seconds, speed)
        }
        observers.didChange(\AVCaptureDevice.exposureMode)
        SettingCompletion.deliver(handler)
    }

    /// The longest exposure time auto-exposure chooses, for photos and streamed frames alike. By
    /// default it is tuned to the active format: auto-exposure's hand-held limit of 1/30 s
    /// (`AutoExposure.defaultMaximumTime`), or the format's `maxExposureDuration` when that is
    /// shorter (our choice of default [I]). A value within the active format's
    /// [`minExposureDuration`, `maxExposureDuration`] overrides it: a dim scene then gets a longer
    /// exposure at a lower ISO, or a shorter one at a higher ISO. `.invalid` restores the default,
    /// and a change of `activeFormat` or of the session's preset resets it (spec §2.4 [D]). Lock
    /// required (`NSGenericException`); out of range raises `NSRangeException` (spec §2.4 [D]).
    /// The custom and locked modes hold their own exposure whatever it says. KVO.
    public var activeMaxExposureDuration: CMTime {
        get { controls.value.maxExposureDuration ?? defaultMaxExposureDuration }
        set {
            let selector = "setActiveMaxExposureDuration:"
            guard isLockedForConfiguration else { Violation.deviceNotLocked(selector).raise() }  // spec §2.4 [D]
            if newValue.isValid {
                let format = activeFormat
                let (minT, maxT) = (format.minExposureDuration.seconds, format.maxExposureDuration.seconds)
                let seconds = newValue.seconds
                // spec §2.4 [D]: within the active format's exposure range (the tolerance lets the
                // range's own end points, rounded to CMTime, through).
                guard seconds >= minT * (1 - 1e-6), seconds <= maxT * (1 + 1e-6) else {
                    Violation.maxExposureDurationOutOfRange(
                        String(format: "%g s", seconds), range: String(format: "[%g s, %g s]", minT, maxT)
                    ).raise()
                }
            }
            controls.update { $0.maxExposureDuration = newValue.isValid ? newValue : nil }
            observers.didChange(\AVCaptureDevice.activeMaxExposureDuration)
        }
    }

    /// The active format's default longest auto-exposure time (see `activeMaxExposureDuration`).
    var defaultMaxExposureDuration: CMTime {
        CMTime(seconds: defaultMaxExposureSeconds, preferredTimescale: 1_000_000_000)
    }

    /// The same default, seconds.
    private var defaultMaxExposureSeconds: Double {
        let format = activeFormat
        return max(
            min(AutoExposure.defaultMaximumTime, format.maxExposureDuration.seconds), format.minExposureDuration.seconds)
    }

    /// The longest time auto-exposure may choose, seconds, as photos and the stream pass it on: the client's
    /// `activeMaxExposureDuration` when one is set, else the default in exact seconds (a `CMTime` of nanoseconds would
    /// move 1/30 s by a few parts in 10⁸, and with it every dim scene's exposure).
    var autoExposureTimeLimit: Double { controls.value.maxExposureDuration?.seconds ?? defaultMaxExposureSeconds }

    /// Forgets the client's `activeMaxExposureDuration` when the format or preset changes (spec §2.4 [D]).
    func resetMaxExposureDuration() {
        controls.update { $0.maxExposureDuration = nil }
        observers.didChange(\AVCaptureDevice.activeMaxExposureDuration)
    }

    /// Whether `exposurePointOfInterest` may be set: every emulated camera meters at a point.
    public var isExposurePointOfInterestSupported: Bool { true }

    /// The point auto-exposure weights, normalised as `focusPointOfInterest`; default (0.5, 0.5).
    /// Lock required; takes effect when `exposureMode` is next set (spec §2.4 [D]). Metering stays
    /// centre-weighted whatever the point (ISP `AutoExposure`) [I].
    public var exposurePointOfInterest: CGPoint {
        get { controls.value.exposurePointOfInterest }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setExposurePointOfInterest:").raise() }
            controls.update { $0.exposurePointOfInterest = newValue }
            observers.didChange(\AVCaptureDevice.exposurePointOfInterest)
        }
    }

    /// Whether the exposure is changing: true while the stream's auto-exposure loop moves towards a
    /// new metered exposure (`StreamAdaptation`), false in the custom and locked modes. KVO.
    public var isAdjustingExposure: Bool {
        customExposure == nil && adaptation.withLock { $0?.isAdjustingExposure ?? false }
    }

    /// The bias, in EV, applied to the auto-exposure target (default 0). KVO.
    public var exposureTargetBias: Float { controls.value.exposureTargetBias }

    /// The lowest bias: −8 EV, Apple's published range on iPhone (spec §2.4 [D]).
    public var minExposureTargetBias: Float { -8 }

    /// The highest bias: +8 EV.
    public var maxExposureTargetBias: Float { 8 }

    /// Sets the bias of the auto-exposure target in EV (`currentExposureTargetBias` keeps it), then
    /// calls `handler` with the time stamp of the first frame so exposed. Lock required; outside
    /// [minExposureTargetBias, maxExposureTargetBias] raises `NSRangeException` (spec §2.4 [D]).
    /// Streamed frames meter to 2^bias × the mid-grey target.
    public func setExposureTargetBias(_ bias: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil) {
        guard isLockedForConfiguration else {
            Violation.deviceNotLocked("setExposureTargetBias:completionHandler:").raise()  // spec §2.4 [D]
        }
        let value = bias == Self.currentExposureTargetBias ? exposureTargetBias : bias
        guard value >= minExposureTargetBias, value <= maxExposureTargetBias else {
            Violation.exposureTargetBiasOutOfRange(bias, min: minExposureTargetBias, max: maxExposureTargetBias).raise()
        }
        controls.update { $0.exposureTargetBias = value }
        observers.didChange(\AVCaptureDevice.exposureTargetBias)
        SettingCompletion.deliver(handler)
    }

    /// How far, in EV, the exposure in use lies from what auto-exposure would choose at the biased
    /// target: log2 of the ratio of their time × ISO products. 0 in the automatic modes once the loop
    /// has settled; non-zero while it moves, or when a held or custom exposure differs from the
    /// meter. KVO.
    public var exposureTargetOffset: Float {
        guard let look = currentStreamSummary() else { return 0 }
        let used = currentExposure
        let metered = look.metered.time * look.metered.iso
        guard metered > 0, used.duration * used.iso > 0 else { return 0 }
        return Float(log2(used.duration * used.iso / metered))
    }

    /// The fixed exposure photos use: the custom one in `.custom` mode, the held one in `.locked`.
    var customExposure: (duration: Double, iso: Double)? {
        let v = exposureState.value
        switch v.mode {
        case .custom: return v.custom
        case .locked: return v.held
        default: return nil
        }
    }

    /// The exposure in use now: held or custom, else auto-exposure's choice for the stream picture;
    /// the format's longest duration at base ISO when nothing can be rendered.
    var currentExposure: (duration: Double, iso: Double) {
        if let fixed = customExposure { return fixed }
        if let loop = adaptation.withLock({ $0 }), loop.isAdjustingExposure {
            let e = loop.exposure
            return (e.time, e.iso)
        }
        if let look = currentStreamSummary() { return (look.exposure.time, look.exposure.iso) }
        return (activeFormat.maxExposureDuration.seconds, Double(activeFormat.minISO))
    }
}

/// A device's exposure settings, behind their own lock.
final class ExposureState: @unchecked Sendable {
    struct Value {
        var mode = AVCaptureDevice.ExposureMode.continuousAutoExposure
        var custom: (duration: Double, iso: Double)?
        /// The exposure `.locked` holds.
        var held: (duration: Double, iso: Double)?
    }

    private let lock = NSLock()
    private var stored = Value()

    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
