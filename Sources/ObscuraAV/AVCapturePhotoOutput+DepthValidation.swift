import Foundation

/// `capturePhoto(with:delegate:)` rules 17–22 (spec §3.2): depth, mattes, constituent photos
/// and calibration data. Their places in Apple's order are in `PhotoSettingsValidation.rules`.
extension PhotoSettingsValidation {
    // spec §3.2 rule 17 [D][O text], §13 N5.
    func rule17DepthDelivery() -> Violation? {
        guard settings.isDepthDataDeliveryEnabled, !state.depthEnabled else { return nil }
        return .capturePhoto(
            17, .documented, "settings.depthDataDeliveryEnabled must be NO if self.isDepthDataDeliveryEnabled is NO")
    }

    // spec §3.2 rule 18 [D]. Cannot fire on Linux: every delegate is taken to implement the
    // photo callback (see `DelegateIntrospection`).
    func rule18DepthDelegate() -> Violation? {
        guard settings.isDepthDataDeliveryEnabled, !DelegateIntrospection.respondsToDidFinishProcessingPhoto(delegate)
        else { return nil }
        return .capturePhoto(
            18, .documented,
            "Your delegate must respond to the selector captureOutput:didFinishProcessingPhoto:error: if you set "
                + "depthDataDeliveryEnabled to YES")
    }

    // spec §3.2 rule 19 [D][O].
    func rule19PortraitMatte() -> Violation? {
        guard settings.isPortraitEffectsMatteDeliveryEnabled else { return nil }
        if !state.portraitMatteEnabled {
            return .capturePhoto(
                19, .documented,
                "settings.portraitEffectsMatteDeliveryEnabled must be NO if self.portraitEffectsMatteDeliveryEnabled is NO")
        }
        if !settings.isDepthDataDeliveryEnabled {
            return .capturePhoto(
                19, .documented,
                "settings.portraitEffectsMatteDeliveryEnabled may not be YES unless settings.depthDataDeliveryEnabled is YES")
        }
        if settings.embedsPortraitEffectsMatteInPhoto && !settings.embedsDepthDataInPhoto {
            return .capturePhoto(
                19, .observed,
                "settings.embedsPortraitEffectsMatteInPhoto may not be YES unless settings.embedsDepthDataInPhoto is YES")
        }
        return nil
    }

    // spec §3.2 rule 20 [D]; text [I].
    func rule20SemanticMattes() -> Violation? {
        guard !settings.enabledSemanticSegmentationMatteTypes.allSatisfy(state.semanticMatteTypesEnabled.contains)
        else { return nil }
        return .capturePhoto(
            20, .documented,
            "settings.enabledSemanticSegmentationMatteTypes may only contain values present in "
                + "self.enabledSemanticSegmentationMatteTypes")
    }

    // spec §3.2 rule 21 [D][O], §13 N8.
    func rule21ConstituentDevices() -> Violation? {
        let devices = settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices
        guard !devices.isEmpty else { return nil }
        let key = "settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices"
        if devices.count < 2 {
            return .capturePhoto(21, .documented, "\(key) must have 2 or more AVCaptureDevices")
        }
        if !state.constituentEnabled {
            return .capturePhoto(
                21, .documented,
                "\(key) may not be set to a non-empty array unless self.virtualDeviceConstituentPhotoDeliveryEnabled is YES")
        }
        let source = state.caps.device
        let constituents = source?.constituentDevices ?? []
        if source?.isVirtualDevice != true || devices.contains(where: { d in !constituents.contains { $0 === d } }) {
            return .capturePhoto(
                21, .observed, "\(key) may only include devices present in the source virtual device's constituentDevices array")
        }
        if settings.isConstantColorEnabled {
            return .capturePhoto(
                21, .documented, "settings.constantColorEnabled must be NO if \(key) is a non-empty array")
        }
        return nil
    }

    // spec §3.2 rule 22 [D][O], §13 N8.
    func rule22CalibrationData() -> Violation? {
        guard settings.isCameraCalibrationDataDeliveryEnabled else { return nil }
        if settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices.count < 2
            || !output.isCameraCalibrationDataDeliverySupported
        {
            return .capturePhoto(
                22, .documented,
                "settings.cameraCalibrationDataDeliveryEnabled may not be set to YES unless 2 or more AVCaptureDevices "
                    + "are added to settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices")
        }
        return nil
    }
}
