import Foundation
import ObscuraAV
import Testing

/// Capture rules 17–22 and the depth / constituent misuse cases N5, N6, N8 (spec §3.2, §13).
struct AVCapturePhotoOutputDepthRuleTests {
    @Test func depthWithoutOutputOptInRaisesRule17() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo)
            #expect(rig.output.isDepthDataDeliverySupported)
            let settings = AVCapturePhotoSettings()
            settings.isDepthDataDeliveryEnabled = true
            expectException(
                .invalidArgumentException,
                capturePrefix + "settings.depthDataDeliveryEnabled must be NO if self.isDepthDataDeliveryEnabled is NO"
            ) { rig.output.capturePhoto(with: settings, delegate: RecordingPhotoDelegate()) }
        }
    }

    @Test func depthSetterOnWideCameraRaisesN6() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInWideAngleCamera, preset: .photo)
            #expect(!rig.output.isDepthDataDeliverySupported)
            expectException(
                .invalidArgumentException,
                "*** -[AVCapturePhotoOutput setDepthDataDeliveryEnabled:] Depth data delivery is not supported in the current configuration"
            ) { rig.output.isDepthDataDeliveryEnabled = true }
        }
    }

    @Test func constituentMisuseRaisesRule21() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo)
            let constituents = rig.device.constituentDevices
            #expect(constituents.count == 2)
            let one = AVCapturePhotoSettings()
            one.virtualDeviceConstituentPhotoDeliveryEnabledDevices = [constituents[0]]
            expectException(.invalidArgumentException, "must have 2 or more AVCaptureDevices") {
                rig.output.capturePhoto(with: one, delegate: RecordingPhotoDelegate())
            }
            let off = AVCapturePhotoSettings()
            off.virtualDeviceConstituentPhotoDeliveryEnabledDevices = constituents
            expectException(.invalidArgumentException, "unless self.virtualDeviceConstituentPhotoDeliveryEnabled is YES") {
                rig.output.capturePhoto(with: off, delegate: RecordingPhotoDelegate())
            }
            rig.output.isVirtualDeviceConstituentPhotoDeliveryEnabled = true
            let foreign = AVCapturePhotoSettings()
            foreign.virtualDeviceConstituentPhotoDeliveryEnabledDevices = [constituents[0], rig.device]
            expectException(.invalidArgumentException, "constituentDevices array") {
                rig.output.capturePhoto(with: foreign, delegate: RecordingPhotoDelegate())
            }
            let ok = AVCapturePhotoSettings()
            ok.virtualDeviceConstituentPhotoDeliveryEnabledDevices = constituents
            let delegate = capture(rig, ok)
            #expect(delegate.resolvedSettings.first?.expectedPhotoCount == 2)  // spec §6: two constituents
        }
    }

    // The names of before iOS 13, which camera libraries still set: on the dual camera they are constituent delivery
    // of its wide and telephoto photos; elsewhere the output's switch is unsupported and raises, as Apple's header
    // says, and so does the settings' flag without it.
    @Test func dualPhotoDeliveryUnderItsOldNames() throws {
        try onDevice("iphone-7-plus") {
            let wide = try PhotoRig(.builtInWideAngleCamera, preset: .photo)
            #expect(!wide.output.isDualCameraDualPhotoDeliverySupported)
            wide.output.isDualCameraDualPhotoDeliveryEnabled = wide.output.isDualCameraDualPhotoDeliverySupported
            expectException(.invalidArgumentException, "Dual camera dual photo delivery is not supported") {
                wide.output.isDualCameraDualPhotoDeliveryEnabled = true
            }
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo)
            #expect(rig.output.isDualCameraDualPhotoDeliverySupported)
            let early = AVCapturePhotoSettings()
            early.isDualCameraDualPhotoDeliveryEnabled = true
            expectException(.invalidArgumentException, "unless self.dualCameraDualPhotoDeliveryEnabled is YES") {
                rig.output.capturePhoto(with: early, delegate: RecordingPhotoDelegate())
            }
            rig.output.isDualCameraDualPhotoDeliveryEnabled = true
            #expect(rig.output.isVirtualDeviceConstituentPhotoDeliveryEnabled)
            let settings = AVCapturePhotoSettings()
            settings.isDualCameraDualPhotoDeliveryEnabled = true
            let delegate = capture(rig, settings)
            #expect(delegate.resolvedSettings.first?.expectedPhotoCount == 2)
            #expect(Set(delegate.photos.compactMap(\.sourceDeviceType)) == [.builtInWideAngleCamera, .builtInTelephotoCamera])
            #expect(delegate.resolvedSettings.first?.uniqueID == settings.uniqueID)
        }
    }

    // spec §3.1, §4 [D]: no emulated virtual device fuses its cameras' pictures, so fusion is unsupported under both
    // names and resolves off; the settings' switch is on by default under both names, and off for RAW, so that a
    // RAW request on a virtual device with the default settings is taken rather than refused by rule 7.
    @Test func fusionUnderBothNamesAndRawOnAVirtualCamera() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo)
            #expect(!rig.output.isVirtualDeviceFusionSupported)
            #expect(!rig.output.isDualCameraFusionSupported)
            let settings = AVCapturePhotoSettings()
            #expect(settings.isAutoDualCameraFusionEnabled && settings.isAutoVirtualDeviceFusionEnabled)
            settings.isAutoDualCameraFusionEnabled = false
            #expect(!settings.isAutoVirtualDeviceFusionEnabled)
            settings.isAutoDualCameraFusionEnabled = true
            let delegate = capture(rig, settings)
            let resolved = try #require(delegate.resolvedSettings.first)
            #expect(!resolved.isVirtualDeviceFusionEnabled && !resolved.isDualCameraFusionEnabled)
            #expect(delegate.photos.count == 1)
        }
        try onDevice {
            let rig = try PhotoRig(.builtInTripleCamera, preset: .photo)
            let raw = try #require(rig.output.availableRawPhotoPixelFormatTypes.first)
            let settings = AVCapturePhotoSettings(rawPixelFormatType: raw)
            #expect(!settings.isAutoVirtualDeviceFusionEnabled)
            let delegate = capture(rig, settings)
            #expect(delegate.photos.map(\.isRawPhoto) == [true])
        }
    }

    @Test func calibrationWithoutConstituentsRaisesRule22() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera, preset: .photo)
            let settings = AVCapturePhotoSettings()
            settings.isCameraCalibrationDataDeliveryEnabled = true
            expectException(
                .invalidArgumentException,
                "settings.cameraCalibrationDataDeliveryEnabled may not be set to YES unless 2 or more AVCaptureDevices"
            ) { rig.output.capturePhoto(with: settings, delegate: RecordingPhotoDelegate()) }
        }
    }
}
