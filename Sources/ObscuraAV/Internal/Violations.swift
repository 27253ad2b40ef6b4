import CaptureRules
import Foundation

/// An API-contract violation: the `NSException` Apple raises, with its reason text, and the rule
/// that fired (STYLE.md: contract violations go through named helpers in one file).
///
/// Checks build a `Violation` while holding their lock and raise it after unlocking.
struct Violation: Error {
    let name: NSExceptionName
    /// `-[Class selector]`, the prefix of Apple's reason.
    let method: String
    let message: String
    let rule: CaptureRule

    /// Apple's reason: `*** -[Class selector] message`.
    var reason: String { "*** \(method) \(message)" }

    var exception: NSException {
        NSException(name: name, reason: reason, userInfo: [RuleKey.userInfoKey: rule])
    }

    func raise() -> Never {
        ExceptionRaiser.raise(exception)
    }
}

/// Raises a violation when there is one.
func raiseIfNeeded(_ violation: Violation?) {
    if let violation { violation.raise() }
}

// MARK: - Named violations

extension Violation {
    static func invalidArgument(_ method: String, _ message: String, _ rule: CaptureRule) -> Violation {
        Violation(name: .invalidArgumentException, method: method, message: message, rule: rule)
    }

    static func generic(_ method: String, _ message: String, _ rule: CaptureRule) -> Violation {
        Violation(name: .genericException, method: method, message: message, rule: rule)
    }

    // spec §2.4 [D][O]: lock-protected device properties.
    static func deviceNotLocked(_ selector: String) -> Violation {
        .generic(
            "-[AVCaptureDevice \(selector)]",
            "May not be called without first successfully gaining exclusive ownership of the device using "
                + "-lockForConfiguration:",
            CaptureRule("§2.4", .documented, "lock-protected device properties need lockForConfiguration()"))
    }

    // spec §1.3 [O]: startRunning or stopRunning inside a configuration block (crash reports of both).
    static func startRunningInsideConfiguration(_ selector: String) -> Violation {
        .generic(
            "-[AVCaptureSession \(selector)]",
            "\(selector) may not be called between calls to beginConfiguration and commitConfiguration",
            CaptureRule(
                "§1.3", .observed,
                "\(selector) is not allowed between beginConfiguration and commitConfiguration"))
    }

    // spec §1.1 [D]: only presets for which canSetSessionPreset is true.
    static func unsupportedPreset(_ preset: AVCaptureSession.Preset) -> Violation {
        .invalidArgument(
            "-[AVCaptureSession setSessionPreset:]",
            "Unsupported preset \(preset.rawValue). Use -canSetSessionPreset: to find out whether a preset may be set",
            CaptureRule("§1.1", .documented, "only presets for which canSetSessionPreset is true may be set"))
    }

    static func cannotAddInput(_ message: String) -> Violation {
        .invalidArgument(
            "-[AVCaptureSession addInput:]", message,
            CaptureRule("§1.2", .observed, "addInput only when canAddInput is true"))
    }

    static func cannotAddConnection(_ message: String) -> Violation {
        .invalidArgument(
            "-[AVCaptureSession addConnection:]", message,
            CaptureRule("§1.2", .documented, "addConnection only when canAddConnection is true"))
    }

    static func cannotAddOutput(_ message: String) -> Violation {
        .invalidArgument(
            "-[AVCaptureSession addOutput:]", message,
            CaptureRule("§1.2", .observed, "addOutput only when canAddOutput is true"))
    }

    // spec §2.3 [D]: activeFormat must be one of formats.
    static func formatNotInFormats() -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice setActiveFormat:]",
            "Unsupported format. Use -formats to discover valid formats",
            CaptureRule("§2.3", .documented, "activeFormat must be one of the device's formats"))
    }

    // spec §2.4 [D][O]: frame durations must lie in the active format's ranges.
    static func unsupportedFrameDuration(_ selector: String, _ duration: CMTime) -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice \(selector)]",
            "the passed activeFrameDuration \(duration.value):\(duration.timescale) is not supported by the device. "
                + "Use -activeFormat.videoSupportedFrameRateRanges to discover valid ranges.",
            CaptureRule("§2.4", .documented, "frame durations must lie in activeFormat.videoSupportedFrameRateRanges"))
    }

    // spec §2.6 [D][I]: activeColorSpace must be supported by the active format.
    static func unsupportedColorSpace() -> Violation {
        .invalidArgument(
            "-[AVCaptureDevice setActiveColorSpace:]",
            "Unsupported color space. Use -activeFormat.supportedColorSpaces to discover valid color spaces",
            CaptureRule("§2.6", .inferred, "activeColorSpace must be one of activeFormat.supportedColorSpaces"))
    }

    // spec §3.1 [D][O]: enabling an unsupported photo-output feature.
    static func photoOutputUnsupported(_ selector: String, _ feature: String) -> Violation {
        .invalidArgument(
            "-[AVCapturePhotoOutput \(selector)]",
            "\(feature) is not supported in the current configuration",
            CaptureRule("§3.1", .observed, "is…Enabled may be set only while is…Supported is true"))
    }

    // spec §3.1 [D]: the output's matte types come from its available ones; text [I].
    static func unavailableSemanticMatteTypes() -> Violation {
        .invalidArgument(
            "-[AVCapturePhotoOutput setEnabledSemanticSegmentationMatteTypes:]",
            "enabledSemanticSegmentationMatteTypes may only contain values present in "
                + "availableSemanticSegmentationMatteTypes",
            CaptureRule("§3.1", .documented, "enabled matte types are a subset of the available ones"))
    }

    // spec §3.1 [D]: maxPhotoDimensions must be one of the active format's.
    static func unsupportedMaxPhotoDimensions() -> Violation {
        .invalidArgument(
            "-[AVCapturePhotoOutput setMaxPhotoDimensions:]",
            "maxPhotoDimensions must match one of the supportedMaxPhotoDimensions of the source device's activeFormat",
            CaptureRule("§3.1", .documented, "maxPhotoDimensions must be one of supportedMaxPhotoDimensions"))
    }

    // spec §1.5 [D]: connection flags only when supported and not running.
    static func connectionUnsupported(_ selector: String, _ message: String) -> Violation {
        .invalidArgument(
            "-[AVCaptureConnection \(selector)]", message,
            CaptureRule("§1.5", .documented, "connection features may be set only when supported"))
    }

    /// A `capturePhoto(with:delegate:)` violation (spec §3.2: every one is NSInvalidArgumentException).
    static func capturePhoto(_ rule: Int, _ confidence: CaptureRule.Confidence, _ message: String) -> Violation {
        .invalidArgument(
            "-[AVCapturePhotoOutput capturePhotoWithSettings:delegate:]", message,
            CaptureRule("§3.2", rule: rule, confidence, message))
    }
}

extension Violation {
    /// An image generator's video composition it cannot use (Capture rules §25 rule 16): Apple documents an exception
    /// for a render scale other than 1, a negative render size, a frame duration that is not positive and a negative
    /// frame-timing track.
    static func generatorComposition(_ composition: AVVideoComposition) -> Violation? {
        let size = composition.renderSize, step = composition.frameDuration
        let fault: String? =
            if composition.renderScale != 1 {
                "video composition must have a renderScale of 1"
            } else if size.width < 0 || size.height < 0 {
                "video composition must not have a negative renderSize"
            } else if !step.isNumeric || step <= .zero {
                "video composition must have a positive frameDuration"
            } else if composition.sourceTrackIDForFrameTiming < 0 {
                "video composition must not have a negative sourceTrackIDForFrameTiming"
            } else {
                nil
            }
        return fault.map {
            .invalidArgument(
                "-[AVAssetImageGenerator setVideoComposition:]", $0,
                CaptureRule("§25", rule: 16, .documented, "an image generator's composition has usable settings"))
        }
    }
}

/// Keys Obscura adds to an exception's `userInfo`.
enum RuleKey {
    static let userInfoKey = "ObscuraRule"
}
