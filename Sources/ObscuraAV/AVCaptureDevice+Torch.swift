import Foundation
import ISP

extension AVCaptureDevice {
    /// The torch: the flash hardware lit continuously (Apple's raw values).
    public enum TorchMode: Int, Sendable, Hashable {
        /// Off.
        case off = 0
        /// On at `torchLevel`.
        case on = 1
        /// On when the scene is dark.
        case auto = 2
    }

    /// Passed to `setTorchModeOn(level:)` for the brightest level the torch can give now (Apple's
    /// `AVCaptureMaxAvailableTorchLevel`, FLT_MAX as crash logs show).
    public static let maxAvailableTorchLevel: Float = .greatestFiniteMagnitude

    /// Whether the device has a torch: the flash hardware, on back cameras (spec §2.7 [D]). KVO.
    public var hasTorch: Bool { hasFlash }

    /// Whether the torch can be used now; false while the flash is too hot (spec §2.7 [D]). KVO.
    public var isTorchAvailable: Bool { hasTorch && isFlashAvailable }

    /// Whether a torch mode is available: `.off` everywhere, `.on` and `.auto` with a torch.
    public func isTorchModeSupported(_ torchMode: TorchMode) -> Bool { torchMode == .off || hasTorch }

    /// The torch mode (default `.off`). Lock required; an unsupported mode raises
    /// `NSInvalidArgumentException` (spec §2.4 [D]). `.on` lights at full level. KVO.
    public var torchMode: TorchMode {
        get { controls.value.torchMode }
        set {
            // spec §2.4 [D]
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setTorchMode:").raise() }
            guard isTorchModeSupported(newValue) else {
                Violation.unsupportedMode("torchMode", rawValue: newValue.rawValue, check: "isTorchModeSupported:")
                    .raise()  // spec §2.4 [D]
            }
            controls.update {
                $0.torchMode = newValue
                if newValue == .on { $0.torchOnLevel = 1 }
            }
            torchDidChange()
        }
    }

    /// Turns the torch on at a level in (0, 1], or at the brightest available with
    /// `maxAvailableTorchLevel`. Lock required (spec §2.4 [D]); a level outside (0, 1] or a device
    /// without a torch raises `NSInvalidArgumentException` (observed text), and so does
    /// `maxAvailableTorchLevel` while the flash is too hot to light (observed: nothing is available, and the
    /// constant itself is out of range). A level in (0, 1] while the flash is too hot throws
    /// `AVError.torchLevelUnavailable` and changes nothing: the level is valid but above the maximum
    /// available now (documented).
    public func setTorchModeOn(level torchLevel: Float) throws {
        guard isLockedForConfiguration else {
            Violation.deviceNotLocked("setTorchModeOnWithLevel:error:").raise()  // spec §2.4 [D]
        }
        let level = torchLevel == Self.maxAvailableTorchLevel && isTorchAvailable ? 1 : torchLevel
        guard hasTorch, level > 0, level <= 1 else { Violation.unsupportedTorchLevel(torchLevel).raise() }  // [O]
        guard isTorchAvailable else { throw AVError(.torchLevelUnavailable) }
        controls.update {
            $0.torchMode = .on
            $0.torchOnLevel = level
        }
        torchDidChange()
    }

    /// The torch's brightness now, 0 (off) to 1. KVO.
    public var torchLevel: Float { isTorchActive ? controls.value.torchOnLevel : 0 }

    /// Whether the torch is lit: `.on` while available, or `.auto` in a scene dark enough for the
    /// flash (the photo output's `.auto` flash rule, metered on the active format). KVO.
    public var isTorchActive: Bool {
        guard isTorchAvailable else { return false }
        switch controls.value.torchMode {
        case .off: return false
        case .on: return true
        case .auto: return sceneNeedsLight
        }
    }

    /// Whether the scene, metered without the torch, is too dark for a hand-held exposure (the
    /// `.auto` flash rule of `PhotoPipeline`).
    var sceneNeedsLight: Bool {
        var look = lookWithoutTorch
        look.fixedExposure = nil
        guard let summary = streamSummary(look) else { return false }
        // The auto-exposure product t·ISO at the hand-held limit, as the flash rule states it.
        // The bias is taken out: the rule meters to the unbiased mid-grey target.
        let product = summary.metered.time * summary.metered.iso / pow(2, look.exposureBias)
        let iso = product / PhotoPipeline.handHeldLimit
        return iso > PhotoPipeline.autoFlashISO
    }

    private func torchDidChange() {
        observers.didChange(\AVCaptureDevice.torchMode)
        observers.didChange(\AVCaptureDevice.torchLevel)
        observers.didChange(\AVCaptureDevice.isTorchActive)
    }
}
