import CaptureRules
import Foundation

// Contract violations of the focus, exposure, torch, white-balance and zoom controls.
extension Violation {
    /// A mode the device does not support, e.g. `Setting focusMode (2) is not supported by this
    /// device.  Use isFocusModeSupported:` (spec §2.4 [D]; text observed for focusMode, the same
    /// pattern chosen for the other modes [I]).
    static func unsupportedMode(_ property: String, rawValue: Int, check: String) -> Violation {
        let setter = "set" + property.prefix(1).uppercased() + property.dropFirst() + ":"
        return .invalidArgument(
            "-[AVCaptureDevice \(setter)]",
            "Setting \(property) (\(rawValue)) is not supported by this device.  Use \(check)",
            CaptureRule("§2.4", .documented, "a \(property) may be set only when \(check) is true"))
    }

    /// A feature the device lacks, e.g. a point of interest on a fixed-focus camera (spec §2.4 [D]).
    static func unsupportedFeature(_ selector: String, _ feature: String, check: String) -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice \(selector)]",
            "Setting \(feature) is not supported by this device.  Use \(check)",
            CaptureRule("§2.4", .documented, "\(feature) may be set only when \(check) is true"))
    }

    /// `isVideoHDREnabled` set while the device manages video HDR itself (spec §2.4 [D]; text [I]).
    static func videoHDRIsAutomatic() -> Violation {
        .generic(
            "-[AVCaptureDevice setVideoHDREnabled:]",
            "May not be called while automaticallyAdjustsVideoHDREnabled is YES",
            CaptureRule(
                "§2.4", .documented,
                "videoHDREnabled may be set only after automaticallyAdjustsVideoHDREnabled is NO"))
    }

    /// `isVideoHDREnabled` set true on a format without video HDR (spec §2.4 [D]; text [I]).
    static func videoHDRUnsupported() -> Violation {
        .generic(
            "-[AVCaptureDevice setVideoHDREnabled:]",
            "Video HDR is not supported by the active format.  Use activeFormat.isVideoHDRSupported",
            CaptureRule("§2.4", .documented, "videoHDREnabled may be YES only where activeFormat.isVideoHDRSupported"))
    }

    /// A torch level outside (0, 1] (observed text; spec §2.4 [O]).
    static func unsupportedTorchLevel(_ level: Float) -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice setTorchModeOnWithLevel:error:]",
            "The passed torchLevel \(String(format: "%f", Double(level))) is not supported - use "
                + "-isTorchModeSupported: to discover valid torch modes",
            CaptureRule("§2.4", .observed, "setTorchModeOn(level:) takes a level in (0, 1]"))
    }

    /// A zoom factor outside the available range (observed text, NSRangeException; spec §2.4 [O]).
    static func zoomFactorOutOfRange(_ selector: String, _ factor: CGFloat, min: CGFloat, max: CGFloat) -> Violation {
        Violation(
            name: .rangeException, method: "-[AVCaptureDevice \(selector)]",
            message: "- the passed videoZoomFactor \(String(format: "%f", Double(factor))) out-of-range "
                + "[\(Self.number(min)), \(Self.number(max))]",
            rule: CaptureRule(
                "§2.4", .observed,
                "videoZoomFactor must lie in [minAvailableVideoZoomFactor, maxAvailableVideoZoomFactor]"))
    }

    /// An exposure target bias outside [minExposureTargetBias, maxExposureTargetBias] (spec §2.4 [D]; text [I]).
    static func exposureTargetBiasOutOfRange(_ bias: Float, min: Float, max: Float) -> Violation {
        Violation(
            name: .rangeException, method: "-[AVCaptureDevice setExposureTargetBias:completionHandler:]",
            message: "The passed bias \(String(format: "%f", Double(bias))) is out of range "
                + "[\(Self.number(CGFloat(min))), \(Self.number(CGFloat(max)))]",
            rule: CaptureRule("§2.4", .inferred, "exposure target bias must lie in [min, max]ExposureTargetBias"))
    }

    /// A lens position outside [0, 1] (spec §2.4 [D]; text [I]).
    static func lensPositionOutOfRange(_ position: Float) -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice setFocusModeLockedWithLensPosition:completionHandler:]",
            "The passed lensPosition \(String(format: "%f", Double(position))) is out of range [0, 1]",
            CaptureRule("§2.4", .inferred, "a locked lens position lies in [0, 1]"))
    }

    /// A white-balance gain outside [1, maxWhiteBalanceGain] (spec §2.4 [D]; text [I]).
    static func whiteBalanceGainsOutOfRange(
        _ gains: AVCaptureDevice.WhiteBalanceGains, max: Float,
        selector: String = "setWhiteBalanceModeLockedWithDeviceWhiteBalanceGains:completionHandler:"
    ) -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice \(selector)]",
            "The passed gains (\(gains.redGain), \(gains.greenGain), \(gains.blueGain)) are out of range "
                + "[1, \(Self.number(CGFloat(max)))]. Use -maxWhiteBalanceGain",
            CaptureRule("§2.4", .inferred, "each white-balance gain lies in [1, maxWhiteBalanceGain]"))
    }

    /// An `activeMaxExposureDuration` outside the active format's exposure range (spec §2.4 [D]; text [I]).
    static func maxExposureDurationOutOfRange(_ value: String, range: String) -> Violation {
        Violation(
            name: .rangeException, method: "-[AVCaptureDevice setActiveMaxExposureDuration:]",
            message: "The passed activeMaxExposureDuration \(value) is out of range \(range). Use -activeFormat",
            rule: CaptureRule(
                "§2.4", .documented,
                "activeMaxExposureDuration lies in the active format's [minExposureDuration, maxExposureDuration]"))
    }

    /// A custom exposure duration or ISO outside the active format's range (spec §2.4 [D]; text [I]).
    static func customExposureOutOfRange(_ what: String, _ value: String, range: String) -> Violation {
        Violation(
            name: .rangeException,
            method: "-[AVCaptureDevice setExposureModeCustomWithDuration:ISO:completionHandler:]",
            message: "The passed \(what) \(value) is out of range \(range). Use -activeFormat",
            rule: CaptureRule(
                "§2.4", .documented, "custom exposure lies in the active format's duration and ISO ranges"))
    }

    private static func number(_ value: CGFloat) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%g", Double(value))
    }
}
