import Foundation
import ObscuraAV
import Testing

@Suite struct AVCapturePhotoSettingsTests {
    // spec §4 defaults
    @Test func defaults() {
        let s = AVCapturePhotoSettings()
        #expect(s.format?[AVVideoCodecKey] as? AVVideoCodecType == .jpeg)
        #expect(s.processedFileType == .jpg)
        #expect(s.rawPhotoPixelFormatType == 0)
        #expect(s.flashMode == .off)
        #expect(s.photoQualityPrioritization == .balanced)
        #expect(s.isAutoRedEyeReductionEnabled)
        #expect(s.isAutoVirtualDeviceFusionEnabled)
        // Apple documents the deprecated stabilisation flag as on by default, off for RAW.
        #expect(s.isAutoStillImageStabilizationEnabled)
        #expect(!AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB).isAutoStillImageStabilizationEnabled)
        // Fusion is off by default for RAW, red-eye reduction for RAW alone and for brackets, as Apple documents.
        let rawOnly = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB)
        #expect(!rawOnly.isAutoVirtualDeviceFusionEnabled && !rawOnly.isAutoRedEyeReductionEnabled)
        let rawPlus = AVCapturePhotoSettings(
            rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        #expect(!rawPlus.isAutoVirtualDeviceFusionEnabled && rawPlus.isAutoRedEyeReductionEnabled)
        let bracket = AVCapturePhotoBracketSettings(
            rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
            bracketedSettings: [AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0)])
        #expect(!bracket.isAutoVirtualDeviceFusionEnabled && !bracket.isAutoRedEyeReductionEnabled)
        #expect(AVCapturePhotoSettings(from: rawOnly).isAutoVirtualDeviceFusionEnabled == false)
        #expect(s.livePhotoMovieMetadata.isEmpty)
        #expect(s.virtualDeviceConstituentPhotoDeliveryEnabledDevices.isEmpty)
        #expect(!s.isDepthDataDeliveryEnabled)
        #expect(s.embedsDepthDataInPhoto)
        #expect(s.isDepthDataFiltered)
        #expect(!s.isCameraCalibrationDataDeliveryEnabled)
        #expect(!s.isPortraitEffectsMatteDeliveryEnabled)
        #expect(s.embedsPortraitEffectsMatteInPhoto)
        #expect(s.embedsSemanticSegmentationMattesInPhoto)
        #expect(!s.isHighResolutionPhotoEnabled)
        #expect(!s.isConstantColorEnabled)
        #expect(!s.isConstantColorFallbackPhotoDeliveryEnabled)
        #expect(s.metadata.isEmpty)
        #expect(s.livePhotoMovieFileURL == nil)
    }

    // spec §4: uniqueID increases with creation order.
    @Test func uniqueIDIncreases() {
        let ids = (0..<5).map { _ in AVCapturePhotoSettings().uniqueID }
        #expect(ids == ids.sorted() && Set(ids).count == 5)
    }

    // spec §4: init(from:) copies everything but uniqueID.
    @Test func initFromCopiesAllButUniqueID() {
        let s = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        s.flashMode = .auto
        s.photoQualityPrioritization = .speed
        s.isDepthDataDeliveryEnabled = true
        s.isConstantColorEnabled = true
        s.maxPhotoDimensions = CMVideoDimensions(width: 4032, height: 3024)
        let copy = AVCapturePhotoSettings(from: s)
        #expect(copy.uniqueID > s.uniqueID)
        #expect(copy.format?[AVVideoCodecKey] as? AVVideoCodecType == .hevc)
        #expect(copy.flashMode == .auto)
        #expect(copy.photoQualityPrioritization == .speed)
        #expect(copy.isDepthDataDeliveryEnabled && copy.isConstantColorEnabled)
        #expect(copy.maxPhotoDimensions.width == 4032)
    }

    // spec §4: an empty or mixed bracket raises at creation.
    @Test func emptyOrMixedBracketRaises() {
        expectException(.invalidArgumentException, "bracketedSettings may not be nil or empty") {
            _ = AVCapturePhotoBracketSettings(rawPixelFormatType: 0, processedFormat: nil, bracketedSettings: [])
        }
        expectException(.invalidArgumentException, "only one kind") {
            _ = AVCapturePhotoBracketSettings(
                rawPixelFormatType: 0, processedFormat: nil,
                bracketedSettings: [
                    AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: 0),
                    AVCaptureManualExposureBracketedStillImageSettings.manualExposureSettings(
                        exposureDuration: CMTime(value: 1, timescale: 100), iso: 100),
                ])
        }
    }

    @Test func valueTypesAreSendable() {
        func requireSendable<T: Sendable>(_: T.Type) {}
        requireSendable(CMTime.self)
        requireSendable(CMVideoDimensions.self)
        requireSendable(AVCaptureSession.Preset.self)
        requireSendable(AVCaptureDevice.DeviceType.self)
        requireSendable(AVCaptureDevice.FlashMode.self)
        requireSendable(AVCapturePhotoOutput.QualityPrioritization.self)
        requireSendable(matrix_float3x3.self)
        requireSendable(NSExceptionName.self)
    }
}
