import CaptureRules
import Foundation

/// `capturePhoto(with:delegate:)` validation in the order of spec §3.2 [O dec]: the first failing
/// rule raises. Every rule evaluated is written to `Emulation.trace`, passed or not. Rules not yet
/// emulated (17–20, 22, and the constituent parts of 21: depth, mattes, constituents,
/// calibration) have their places in `rules` and land with those features.
struct PhotoSettingsValidation {
    let output: AVCapturePhotoOutput
    let settings: AVCapturePhotoSettings
    let delegate: AVCapturePhotoCaptureDelegate?
    let state: AVCapturePhotoOutput.Inner

    typealias Check = @Sendable (PhotoSettingsValidation) -> Violation?

    /// One rule: its number in spec §3.2, what it demands (for the trace), and its check.
    struct Rule: Sendable {
        let number: Int
        let demand: String
        let check: Check
    }

    /// The rules in Apple's order.
    static let rules: [Rule] = [
        Rule(number: 1, demand: "the delegate and the settings are not nil") { $0.rule1NilArguments() },
        Rule(number: 2, demand: "an active and enabled video connection exists") { $0.rule2VideoConnection() },
        Rule(number: 3, demand: "the settings' uniqueID is newer than any accepted") { $0.rule3UniqueID() },
        Rule(number: 4, demand: "the file types are available") { $0.rule4FileTypes() },
        Rule(number: 5, demand: "the RAW pixel format is available") { $0.rule5RawPixelFormat() },
        Rule(number: 6, demand: "a RAW photo is not asked together with Constant Color") { $0.rule6RawWithConstantColor() },
        Rule(number: 7, demand: "Bayer RAW runs at speed priority without fusion") { $0.rule7BayerRaw() },
        Rule(number: 8, demand: "a RAW request has a delegate for photos") { $0.rule8RawDelegate() },
        Rule(number: 9, demand: "the processed format is available") { $0.rule9Format() },
        Rule(number: 10, demand: "the quality prioritization is within the output's maximum") {
            $0.rule10QualityPrioritization()
        },
        Rule(number: 11, demand: "the flash mode is one of supportedFlashModes") { $0.rule11FlashMode() },
        Rule(number: 12, demand: "a Live Photo request is allowed") { $0.rule12LivePhoto() },
        Rule(number: 13, demand: "the photo dimensions are supported") { $0.rule13Dimensions() },
        Rule(number: 14, demand: "shutter-sound suppression is supported if asked") { $0.rule14ShutterSound() },
        Rule(number: 15, demand: "content-aware distortion correction is enabled if asked") {
            $0.rule15ContentAwareDistortion()
        },
        Rule(number: 16, demand: "the bracket fits the output") { $0.rule16Bracket() },
        Rule(number: 17, demand: "depth is asked only when the output delivers depth") { $0.rule17DepthDelivery() },
        Rule(number: 18, demand: "a depth request has a delegate for photos") { $0.rule18DepthDelegate() },
        Rule(number: 19, demand: "a portrait matte is asked only with the output opt-in and depth") {
            $0.rule19PortraitMatte()
        },
        Rule(number: 20, demand: "semantic segmentation mattes are asked only of types the output enabled") {
            $0.rule20SemanticMattes()
        },
        Rule(number: 21, demand: "the constituent devices are two or more of the virtual device's own") {
            $0.rule21ConstituentDevices()
        },
        Rule(number: 21, demand: "constituent photos are not asked together with Constant Color") {
            $0.rule21ConstituentsWithConstantColor()
        },
        Rule(number: 22, demand: "calibration data is asked only with two or more constituent devices") {
            $0.rule22CalibrationData()
        },
        Rule(number: 23, demand: "Constant Color is enabled on the output if asked") {
            $0.rule23ConstantColorEnabled()
        },
        Rule(number: 24, demand: "Constant Color comes with flashMode .on or .auto") { $0.rule24ConstantColorFlash() },
        Rule(number: 25, demand: "a fallback photo is asked only with Constant Color") { $0.rule25Fallback() },
        Rule(number: 26, demand: "deferred delivery has a delegate for proxies") { $0.rule26DeferredDelivery() },
    ]

    /// Runs the rules in order, tracing each, and returns the first violation.
    func firstViolation() -> Violation? {
        for rule in Self.rules {
            if let violation = rule.check(self) {
                Emulation.shared.record(
                    TraceEntry(section: "§3.2", rule: rule.number, outcome: .raised, sentence: violation.reason))
                return violation
            }
            Emulation.shared.record(
                TraceEntry(section: "§3.2", rule: rule.number, outcome: .passed, sentence: "Checked that " + rule.demand + "."))
        }
        return nil
    }

    // spec §3.2 rule 1 [D][O]. Swift's non-optional parameters make this unreachable from Swift.
    func rule1NilArguments() -> Violation? {
        delegate == nil ? .capturePhoto(1, .documented, "Nil delegate") : nil
    }

    // spec §3.2 rule 2 [O].
    func rule2VideoConnection() -> Violation? {
        guard let c = output.videoConnection, c.isActive, c.isEnabled, output.session != nil else {
            return .capturePhoto(2, .observed, "No active and enabled video connection")
        }
        return nil
    }

    // spec §3.2 rule 3 [D][O]: the check is monotonic.
    func rule3UniqueID() -> Violation? {
        settings.uniqueID <= state.lastUniqueID ? .capturePhoto(3, .observed, "Settings may not be re-used") : nil
    }

    // spec §3.2 rule 4 [D].
    func rule4FileTypes() -> Violation? {
        if let t = settings.processedFileType, !output.availablePhotoFileTypes.contains(t) {
            return .capturePhoto(
                4, .documented, "settings.processedFileType must be present in self.availablePhotoFileTypes")
        }
        if let t = settings.rawFileType, !output.availableRawPhotoFileTypes.contains(t) {
            return .capturePhoto(
                4, .documented, "settings.rawFileType must be present in self.availableRawPhotoFileTypes")
        }
        return nil
    }

    // spec §3.2 rule 5 [D].
    func rule5RawPixelFormat() -> Violation? {
        let raw = settings.rawPhotoPixelFormatType
        guard raw != 0, !output.availableRawPhotoPixelFormatTypes.contains(raw) else { return nil }
        return .capturePhoto(
            5, .documented, "settings.rawPhotoPixelFormatType must be present in self.availableRawPhotoPixelFormatTypes"
        )
    }

    // spec §3.2 rule 6 [O] ([T W24]: RAW must be 0 with Constant Color).
    func rule6RawWithConstantColor() -> Violation? {
        guard settings.rawPhotoPixelFormatType != 0, settings.isConstantColorEnabled else { return nil }
        return .capturePhoto(
            6, .observed, "When capturing a raw photo, settings.constantColorEnabled must be set to NO")
    }

    // spec §3.2 rule 7 [D][O]: Bayer RAW needs speed, no zoom and no fusion. Every RAW format
    // Obscura offers is Bayer (no ProRAW).
    func rule7BayerRaw() -> Violation? {
        guard settings.rawPhotoPixelFormatType != 0 else { return nil }
        if let zoom = state.caps.device?.videoZoomFactor, zoom != 1 {
            return .capturePhoto(
                7, .documented, "When specifying Bayer raw capture, the videoZoomFactor of the source device must be 1.0")
        }
        let quality = settings.qualityPrioritizationWasSet && settings.photoQualityPrioritization != .speed
        if quality || settings.isAutoVirtualDeviceFusionEnabled && state.caps.device?.isVirtualDevice == true {
            return .capturePhoto(
                7, .documented,
                "When specifying Bayer raw capture, the photoQualityPrioritization must be AVCapturePhotoQualityPrioritizationSpeed "
                    + "and autoVirtualDeviceFusionEnabled must be NO")
        }
        return nil
    }

    // spec §3.2 rule 8 [D]. Swift on Linux cannot ask an object which optional methods it
    // implements, so Obscura assumes delegates implement didFinishProcessingPhoto [I].
    func rule8RawDelegate() -> Violation? {
        guard settings.rawPhotoPixelFormatType != 0, !DelegateIntrospection.respondsToDidFinishProcessingPhoto(delegate)
        else { return nil }
        return .capturePhoto(
            8, .documented,
            "If you specify a non-nil raw pixel format type in your photo settings, your delegate must respond to "
                + "-captureOutput:didFinishProcessingPhoto:error:")
    }

    // spec §3.2 rule 9 [D].
    func rule9Format() -> Violation? {
        guard let format = settings.format else { return nil }
        let hasCodec = format[AVVideoCodecKey] != nil
        let hasPixel = format[kCVPixelBufferPixelFormatTypeKey] != nil
        if hasCodec && hasPixel {
            return .capturePhoto(
                9, .documented,
                "The format dictionary may not contain both AVVideoCodecKey and kCVPixelBufferPixelFormatTypeKey")
        }
        if hasCodec, !(settings.codec.map(output.availablePhotoCodecTypes.contains) ?? false) {
            return .capturePhoto(
                9, .documented, "The AVVideoCodecKey format must be present in self.availablePhotoCodecTypes")
        }
        if hasPixel, !(settings.processedPixelFormat.map(output.availablePhotoPixelFormatTypes.contains) ?? false) {
            return .capturePhoto(
                9, .documented,
                "The kCVPixelBufferPixelFormatTypeKey format must be present in self.availablePhotoPixelFormatTypes")
        }
        return nil
    }

    // spec §3.2 rule 10 [D][O]: only when the client set the value.
    func rule10QualityPrioritization() -> Violation? {
        guard settings.qualityPrioritizationWasSet, settings.photoQualityPrioritization > state.maxQuality else {
            return nil
        }
        return .capturePhoto(
            10, .documented,
            "settings.photoQualityPrioritization must not be higher than self.maxPhotoQualityPrioritization")
    }

    // spec §3.2 rule 11 [D].
    func rule11FlashMode() -> Violation? {
        state.caps.flashModes.contains(settings.flashMode)
            ? nil
            : .capturePhoto(
                11, .documented, "flashMode must be set to a value present in the supportedFlashModes array")
    }

    // spec §3.2 rule 12 [D].
    func rule12LivePhoto() -> Violation? {
        guard let url = settings.livePhotoMovieFileURL else { return nil }
        if !state.livePhotoEnabled {
            return .capturePhoto(
                12, .documented, "livePhotoMovieFileURL must be nil if self.livePhotoCaptureEnabled is NO")
        }
        if !url.isFileURL {
            return .capturePhoto(12, .documented, "livePhotoMovieFileURL must be a file URL")
        }
        if state.livePhotoSuspended {
            return .capturePhoto(12, .documented, "Live Photo capture may not be requested while it is suspended")
        }
        return nil
    }

    // spec §3.2 rule 13 [D][O].
    func rule13Dimensions() -> Violation? {
        if settings.isHighResolutionPhotoEnabled && !state.highResolutionEnabled {
            return .capturePhoto(
                13, .documented,
                "settings.highResolutionPhotoEnabled may not be YES unless self.highResolutionCaptureEnabled is YES")
        }
        let d = settings.maxPhotoDimensions
        guard d.width != 0 || d.height != 0 else { return nil }
        if !state.caps.photoDimensions.contains(where: { $0.same(as: d) }) {
            return .capturePhoto(
                13, .observed,
                "If you specify a maxPhotoDimensions, it must match one of the supportedMaxPhotoDimensions of the source "
                    + "device's activeFormat")
        }
        if d.area > state.maxDimensions.area {
            return .capturePhoto(13, .observed, "settings.maxPhotoDimensions may not exceed self.maxPhotoDimensions")
        }
        return nil
    }

    // spec §3.2 rule 14 [O].
    func rule14ShutterSound() -> Violation? {
        guard settings.isShutterSoundSuppressionEnabled, !output.isShutterSoundSuppressionSupported else { return nil }
        return .capturePhoto(
            14, .observed,
            "settings.shutterSoundSuppressionEnabled may not be set to YES unless self.shutterSoundSuppressionSupported is YES"
        )
    }

    // spec §3.2 rule 15 [D].
    func rule15ContentAwareDistortion() -> Violation? {
        guard settings.isAutoContentAwareDistortionCorrectionEnabled, !state.contentAwareEnabled else { return nil }
        return .capturePhoto(
            15, .documented,
            "settings.autoContentAwareDistortionCorrectionEnabled may not be set to YES unless "
                + "self.contentAwareDistortionCorrectionEnabled is YES")
    }

    // spec §3.2 rule 16 [D]. The exposure range is the emulated device's ±8 EV [I].
    func rule16Bracket() -> Violation? {
        guard let bracket = settings as? AVCapturePhotoBracketSettings else { return nil }
        if bracket.bracketedSettings.count > output.maxBracketedCapturePhotoCount {
            return .capturePhoto(
                16, .documented, "settings.bracketedSettings array exceeds -maxBracketedCapturePhotoCount")
        }
        if bracket.isLensStabilizationEnabled && !output.isLensStabilizationDuringBracketedCaptureSupported {
            return .capturePhoto(
                16, .documented,
                "settings.lensStabilizationEnabled may not be YES unless self.lensStabilizationDuringBracketedCaptureSupported is YES"
            )
        }
        let outOfRange = bracket.bracketedSettings.contains { element in
            guard let auto = element as? AVCaptureAutoExposureBracketedStillImageSettings else { return false }
            return auto.exposureTargetBias != Float.greatestFiniteMagnitude && abs(auto.exposureTargetBias) > 8
        }
        if outOfRange {
            return .capturePhoto(
                16, .documented, "settings.bracketedSettings contains an out of range exposure target bias")
        }
        return nil
    }

    // spec §3.2 rule 21 [D], the Constant Color part; the count, opt-in, virtual-source and
    // membership parts come first in Apple's order and land with constituent photos.
    func rule21ConstituentsWithConstantColor() -> Violation? {
        guard !settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.isEmpty, settings.isConstantColorEnabled
        else { return nil }
        return .capturePhoto(
            21, .documented,
            "settings.constantColorEnabled must be NO if settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices "
                + "is a non-empty array")
    }

    // spec §3.2 rule 23, §11 [D cc-docs "throws an exception"], [O text].
    func rule23ConstantColorEnabled() -> Violation? {
        guard settings.isConstantColorEnabled, !state.constantColorEnabled else { return nil }
        return .capturePhoto(23, .documented, "settings.isConstantColorEnabled must be NO if self.isConstantColorEnabled is NO")
    }

    // spec §3.2 rule 24, §11 [D cc-docs], [O text].
    func rule24ConstantColorFlash() -> Violation? {
        guard settings.isConstantColorEnabled, settings.flashMode == .off else { return nil }
        return .capturePhoto(
            24, .documented,
            "settings.flashMode must be AVCaptureFlashModeOn or AVCaptureFlashModeAuto if settings.isConstantColorEnabled is YES")
    }

    // spec §3.2 rule 25 [O].
    func rule25Fallback() -> Violation? {
        guard settings.isConstantColorFallbackPhotoDeliveryEnabled, !settings.isConstantColorEnabled else { return nil }
        return .capturePhoto(
            25, .observed,
            "settings.isConstantColorEnabled must be YES if settings.isConstantColorFallbackPhotoDeliveryEnabled is YES")
    }

    // spec §3.2 rule 26 [O]: deferred delivery is never enabled in Obscura, so this cannot fire yet.
    func rule26DeferredDelivery() -> Violation? {
        guard output.isAutoDeferredPhotoDeliveryEnabled, !DelegateIntrospection.respondsToDeferredProxy(delegate)
        else { return nil }
        return .capturePhoto(
            26, .observed,
            "If you enable auto deferred photo delivery, your delegate must respond to "
                + "-captureOutput:didFinishCapturingDeferredPhotoProxy:error:")
    }
}

/// What Obscura can tell about a delegate's optional methods.
///
/// Objective-C answers `respondsToSelector:`; Swift on Linux has no equivalent for protocol
/// extension defaults, so every delegate is assumed to implement every method [I]. Rules 8, 18
/// and 26 therefore cannot fire in Obscura.
enum DelegateIntrospection {
    static func respondsToDidFinishProcessingPhoto(_ delegate: AVCapturePhotoCaptureDelegate?) -> Bool { true }
    static func respondsToDeferredProxy(_ delegate: AVCapturePhotoCaptureDelegate?) -> Bool { true }
}
