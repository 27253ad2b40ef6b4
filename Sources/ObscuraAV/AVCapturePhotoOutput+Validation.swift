import Foundation

/// `capturePhoto(with:delegate:)` validation in the order of spec §3.2 [O dec]: the first failing
/// rule raises. Rules not yet emulated (6, 17–25: depth, mattes, constituents, calibration,
/// Constant Color) have their places in `rules` and land with those features.
struct PhotoSettingsValidation {
    let output: AVCapturePhotoOutput
    let settings: AVCapturePhotoSettings
    let delegate: AVCapturePhotoCaptureDelegate?
    let state: AVCapturePhotoOutput.Inner

    typealias Rule = @Sendable (PhotoSettingsValidation) -> Violation?

    /// The rules in Apple's order.
    static let rules: [Rule] = [
        { $0.rule1NilArguments() },
        { $0.rule2VideoConnection() },
        { $0.rule3UniqueID() },
        { $0.rule4FileTypes() },
        { $0.rule5RawPixelFormat() },
        // rule 6 (RAW with Constant Color) lands with Constant Color.
        { $0.rule7BayerRaw() },
        { $0.rule8RawDelegate() },
        { $0.rule9Format() },
        { $0.rule10QualityPrioritization() },
        { $0.rule11FlashMode() },
        { $0.rule12LivePhoto() },
        { $0.rule13Dimensions() },
        { $0.rule14ShutterSound() },
        { $0.rule15ContentAwareDistortion() },
        { $0.rule16Bracket() },
        { $0.rule17DepthDelivery() },
        { $0.rule18DepthDelegate() },
        { $0.rule19PortraitMatte() },
        // rule 20 (semantic segmentation mattes): no matte types are emulated.
        { $0.rule21ConstituentDevices() },
        { $0.rule22CalibrationData() },
        // rules 23–25 (Constant Color) land with Constant Color.
        { $0.rule26DeferredDelivery() },
    ]

    func firstViolation() -> Violation? {
        for rule in Self.rules {
            if let violation = rule(self) { return violation }
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

    // spec §3.2 rule 7 [D][O]: Bayer RAW needs speed and no fusion. Unreachable until RAW formats exist.
    func rule7BayerRaw() -> Violation? {
        guard settings.rawPhotoPixelFormatType != 0 else { return nil }
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
        if output.isLivePhotoCaptureSuspended {
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
