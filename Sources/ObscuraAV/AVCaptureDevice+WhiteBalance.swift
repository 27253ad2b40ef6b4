import Foundation
import ISP

extension AVCaptureDevice {
    /// How white balance is chosen (Apple's raw values).
    public enum WhiteBalanceMode: Int, Sendable, Hashable {
        /// Held at fixed gains.
        case locked = 0
        /// Balanced once, then locked.
        case autoWhiteBalance = 1
        /// Balanced for every frame (the default).
        case continuousAutoWhiteBalance = 2
    }

    /// Per-channel gains applied to the sensor's raw values; each lies in [1, maxWhiteBalanceGain].
    public struct WhiteBalanceGains: Sendable, Hashable {
        public var redGain: Float
        public var greenGain: Float
        public var blueGain: Float

        public init() {
            redGain = 0
            greenGain = 0
            blueGain = 0
        }

        public init(redGain: Float, greenGain: Float, blueGain: Float) {
            self.redGain = redGain
            self.greenGain = greenGain
            self.blueGain = blueGain
        }
    }

    /// Passed to `setWhiteBalanceModeLocked(with:completionHandler:)` to lock at the current gains
    /// (Apple's `AVCaptureWhiteBalanceGainsCurrent`, all gains 0).
    public static let currentWhiteBalanceGains = WhiteBalanceGains(redGain: 0, greenGain: 0, blueGain: 0)

    /// Whether a white-balance mode is available: all three on every emulated camera.
    public func isWhiteBalanceModeSupported(_ whiteBalanceMode: WhiteBalanceMode) -> Bool { true }

    /// Whether custom gains may be locked: not on multi-camera devices (spec §2.1 [D]).
    public var isLockingWhiteBalanceWithCustomDeviceGainsSupported: Bool { !camera.deviceType.isMultiCamera }

    /// The white-balance mode (default `.continuousAutoWhiteBalance`). Lock required; an unsupported
    /// mode raises `NSInvalidArgumentException` (spec §2.4 [D]). `.locked` holds the gains in use. KVO.
    public var whiteBalanceMode: WhiteBalanceMode {
        get { controls.value.whiteBalanceMode }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setWhiteBalanceMode:").raise() }
            guard isWhiteBalanceModeSupported(newValue) else {
                Violation.unsupportedMode(
                    "whiteBalanceMode", rawValue: newValue.rawValue, check: "isWhiteBalanceModeSupported:"
                ).raise()  // spec §2.4 [D]
            }
            let gains = deviceWhiteBalanceGains
            controls.update {
                $0.whiteBalanceMode = newValue
                $0.lockedWhiteBalanceGains = newValue == .locked ? gains : nil
            }
            observers.didChange(\AVCaptureDevice.whiteBalanceMode)
        }
    }

    /// Whether white balance is changing: true while the stream's auto white balance loop moves towards
    /// a new estimate (`StreamAdaptation`), false when locked. KVO.
    public var isAdjustingWhiteBalance: Bool {
        controls.value.lockedWhiteBalanceGains == nil && adaptation.withLock { $0?.isAdjustingWhiteBalance ?? false }
    }

    /// The largest gain: 4, what iPhone cameras report (our choice after reported values [I]; the
    /// profiles carry no figure for it).
    public var maxWhiteBalanceGain: Float { 4 }

    /// The gains in use: locked ones, else where the stream's auto white balance loop stands (the gains
    /// of its light while it moves, what auto white balance chooses for the current stream picture once
    /// settled). KVO.
    public var deviceWhiteBalanceGains: WhiteBalanceGains {
        if let locked = controls.value.lockedWhiteBalanceGains { return locked }
        if let loop = adaptation.withLock({ $0 }), loop.isAdjustingWhiteBalance, let cct = loop.cct,
            let model = renderingModel
        {
            return Self.deviceGains(WhiteBalance(locusCCT: cct, camera: model).gains, cap: maxWhiteBalanceGain)
        }
        return Self.deviceGains(currentStreamSummary()?.autoGains, cap: maxWhiteBalanceGain)
    }

    /// The gains that make the grey-world average of the current stream picture neutral: ISP's
    /// grey-world balance (camera RGB of the mean unclipped pixel, matched to the nearest Planckian
    /// or daylight source) with green 1, scaled so the smallest gain is 1 as device gains are,
    /// and capped at `maxWhiteBalanceGain`. KVO.
    public var grayWorldDeviceWhiteBalanceGains: WhiteBalanceGains {
        Self.deviceGains(currentStreamSummary()?.greyWorldGains, cap: maxWhiteBalanceGain)
    }

    /// Gains with green 1 as device gains: scaled so the smallest is 1 and capped at `cap`; unity
    /// when there are none.
    private static func deviceGains(_ gains: SIMD3<Double>?, cap: Float) -> WhiteBalanceGains {
        guard let g = gains, g.min() > 0 else { return WhiteBalanceGains(redGain: 1, greenGain: 1, blueGain: 1) }
        let scaled = g / g.min()
        let limit = Double(cap)
        return WhiteBalanceGains(
            redGain: Float(min(scaled.x, limit)), greenGain: Float(min(scaled.y, limit)),
            blueGain: Float(min(scaled.z, limit)))
    }

    /// Locks white balance at gains (`currentWhiteBalanceGains` keeps those in use), then calls
    /// `handler` with the time stamp of the first frame so balanced. Lock required (spec §2.4
    /// [D]); custom gains need `isLockingWhiteBalanceWithCustomDeviceGainsSupported`, and each gain
    /// must lie in [1, maxWhiteBalanceGain] (`NSInvalidArgumentException`, spec §2.4 [D]). Streamed
    /// frames are balanced for the Planckian or daylight light nearest to the gains' neutral.
    public func setWhiteBalanceModeLocked(
        with whiteBalanceGains: WhiteBalanceGains, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil
    ) {
        let selector = "setWhiteBalanceModeLockedWithDeviceWhiteBalanceGains:completionHandler:"
        guard isLockedForConfiguration else { Violation.deviceNotLocked(selector).raise() }  // spec §2.4 [D]
        let keepsCurrent = whiteBalanceGains == Self.currentWhiteBalanceGains
        if !keepsCurrent {
            guard isLockingWhiteBalanceWithCustomDeviceGainsSupported else {
                Violation.unsupportedFeature(
                    selector, "custom white balance gains", check: "isLockingWhiteBalanceWithCustomDeviceGainsSupported"
                ).raise()  // spec §2.4 [D]
            }
            let max = maxWhiteBalanceGain
            let gains = [whiteBalanceGains.redGain, whiteBalanceGains.greenGain, whiteBalanceGains.blueGain]
            guard gains.allSatisfy({ $0 >= 1 && $0 <= max }) else {
                Violation.whiteBalanceGainsOutOfRange(whiteBalanceGains, max: max).raise()  // spec §2.4 [D]
            }
        }
        let gains = keepsCurrent ? deviceWhiteBalanceGains : whiteBalanceGains
        controls.update {
            $0.whiteBalanceMode = .locked
            $0.lockedWhiteBalanceGains = gains
        }
        observers.didChange(\AVCaptureDevice.whiteBalanceMode)
        observers.didChange(\AVCaptureDevice.deviceWhiteBalanceGains)
        SettingCompletion.deliver(handler)
    }
}
