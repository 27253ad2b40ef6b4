import Obscura
import Foundation
import ObscuraAV
import Testing

@Suite struct AVCapturePhotoOutputTests {
    @Test func availableFormatsAreEmptyUntilInASessionWithAVideoSource() throws {
        try onDevice {
            let output = AVCapturePhotoOutput()
            #expect(output.availablePhotoCodecTypes.isEmpty)
            #expect(output.availablePhotoPixelFormatTypes.isEmpty)
            #expect(output.availablePhotoFileTypes.isEmpty)
            #expect(output.supportedFlashModes.isEmpty)
            let rig = try PhotoRig(start: false)
            #expect(rig.output.availablePhotoCodecTypes.contains(.jpeg))
            #expect(rig.output.availablePhotoFileTypes.contains(.jpg))
            #expect(rig.output.supportedFlashModes == [.off, .on, .auto])
        }
    }

    @Test func defaults() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            #expect(rig.output.maxPhotoQualityPrioritization == .balanced)
            #expect(!rig.output.isDepthDataDeliveryEnabled)
            #expect(!rig.output.isConstantColorEnabled)
            #expect(!rig.output.isLivePhotoCaptureEnabled)
            #expect(rig.output.maxPhotoDimensions.width == 640 && rig.output.maxPhotoDimensions.height == 480)
        }
    }

    // spec §3.2 rule 2, §13 N2
    @Test func captureWithoutInputRaises() throws {
        try onDevice {
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.addOutput(output)
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, capturePrefix + "No active and enabled video connection") {
                output.capturePhoto(with: AVCapturePhotoSettings(), delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 2, §13 N2
    @Test func captureWithDisabledConnectionRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            rig.output.connection(with: .video)?.isEnabled = false
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "No active and enabled video connection") {
                rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: delegate)
            }
            #expect(delegate.events.isEmpty)
        }
    }

    // spec §3.2 rule 3, §13 N1
    @Test func reusedSettingsRaise() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            capture(rig, settings)
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, capturePrefix + "Settings may not be re-used") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
            expectNoException {
                rig.output.capturePhoto(with: AVCapturePhotoSettings(from: settings), delegate: delegate)
            }
            #expect(delegate.waitUntilFinished())
        }
    }

    // spec §3.2 rule 3 [O]: the check is monotonic, so an older settings object is refused too.
    @Test func olderSettingsRaiseAfterANewerCapture() throws {
        try onDevice {
            let rig = try PhotoRig()
            let older = AVCapturePhotoSettings()
            capture(rig, AVCapturePhotoSettings())
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "Settings may not be re-used") {
                rig.output.capturePhoto(with: older, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 4
    @Test func unavailableFileTypeRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings(
                rawPixelFormatType: 0, rawFileType: nil, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                processedFileType: .dng)
            let delegate = RecordingPhotoDelegate()
            expectException(
                .invalidArgumentException, "settings.processedFileType must be present in self.availablePhotoFileTypes"
            ) {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 5
    @Test func unavailableRawFormatRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings(rawPixelFormatType: 0x6267_3130)  // 'bg10'
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "settings.rawPhotoPixelFormatType must be present") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 9
    @Test func unavailableCodecRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let delegate = RecordingPhotoDelegate()
            expectException(
                .invalidArgumentException, "The AVVideoCodecKey format must be present in self.availablePhotoCodecTypes"
            ) {
                rig.output.capturePhoto(
                    with: AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.h264]), delegate: delegate)
            }
            expectException(.invalidArgumentException, "availablePhotoPixelFormatTypes") {
                rig.output.capturePhoto(
                    with: AVCapturePhotoSettings(format: [
                        kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_DepthFloat32
                    ]),
                    delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 10, §13 N4
    @Test func qualityAboveMaximumRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            settings.photoQualityPrioritization = .quality
            let delegate = RecordingPhotoDelegate()
            expectException(
                .invalidArgumentException,
                "settings.photoQualityPrioritization must not be higher than self.maxPhotoQualityPrioritization"
            ) {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
            rig.output.maxPhotoQualityPrioritization = .quality
            expectNoException {
                rig.output.capturePhoto(with: AVCapturePhotoSettings(from: settings), delegate: delegate)
            }
            #expect(delegate.waitUntilFinished())
        }
    }

    // spec §3.2 rule 11, §13 N3
    @Test func flashOnWithoutFlashRaises() throws {
        try onDevice("ipad-10th-gen") {
            let rig = try PhotoRig()
            #expect(rig.output.supportedFlashModes == [.off])
            #expect(!rig.device.hasFlash)
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .on
            let delegate = RecordingPhotoDelegate()
            expectException(
                .invalidArgumentException, "flashMode must be set to a value present in the supportedFlashModes array"
            ) {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 11, §13 N3: the front camera has no flash.
    @Test func flashOnWithFrontCameraRaises() throws {
        try onDevice {
            let rig = try PhotoRig(position: .front)
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .auto
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "supportedFlashModes") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 12, §13 N16
    @Test func livePhotoURLWithoutOptInRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = URL(fileURLWithPath: "/tmp/live.mov")
            let delegate = RecordingPhotoDelegate()
            expectException(
                .invalidArgumentException, "livePhotoMovieFileURL must be nil if self.livePhotoCaptureEnabled is NO"
            ) {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 13
    @Test func unsupportedMaxPhotoDimensionsRaise() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            settings.maxPhotoDimensions = CMVideoDimensions(width: 4032, height: 3024)
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "it must match one of the supportedMaxPhotoDimensions") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
            let highRes = AVCapturePhotoSettings()
            highRes.isHighResolutionPhotoEnabled = true
            expectException(.invalidArgumentException, "unless self.highResolutionCaptureEnabled is YES") {
                rig.output.capturePhoto(with: highRes, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 13: above the output's own maximum.
    @Test func maxPhotoDimensionsAboveOutputRaise() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .photo)
            #expect(rig.output.maxPhotoDimensions.width == 4032)
            let settings = AVCapturePhotoSettings()
            settings.maxPhotoDimensions = CMVideoDimensions(width: 8064, height: 6048)
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "may not exceed self.maxPhotoDimensions") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 14
    @Test func shutterSoundSuppressionWhileUnsupportedRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            settings.isShutterSoundSuppressionEnabled = true
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "settings.shutterSoundSuppressionEnabled may not be set to YES")
            {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 15
    @Test func contentAwareDistortionCorrectionWithoutOptInRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            settings.isAutoContentAwareDistortionCorrectionEnabled = true
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "unless self.contentAwareDistortionCorrectionEnabled is YES") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2 rule 16
    @Test func bracketLargerThanMaximumRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            let biases: [Float] = [-2, -1, 0, 1, 2]
            let settings = AVCapturePhotoBracketSettings(
                rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg],
                bracketedSettings: biases.map {
                    AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0)
                })
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "bracketedSettings array exceeds -maxBracketedCapturePhotoCount")
            {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
        }
    }

    // spec §3.2: stop at the first failure, in Apple's order (rule 3 before rule 11).
    @Test func validationStopsAtTheFirstRuleInOrder() throws {
        try onDevice("ipad-10th-gen") {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            capture(rig, settings)
            settings.flashMode = .on
            settings.photoQualityPrioritization = .quality
            let delegate = RecordingPhotoDelegate()
            expectException(.invalidArgumentException, "Settings may not be re-used") {
                rig.output.capturePhoto(with: settings, delegate: delegate)
            }
            #expect(Emulator.shared.raisedExceptions.contains { $0.rule?.number == 3 && $0.rule?.section == "§3.2" })
        }
    }

    // spec §3.1: enabling an unsupported capability raises.
    @Test func enablingDepthOnAPlainWideCameraRaises() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            #expect(!rig.output.isDepthDataDeliverySupported)
            expectException(
                .invalidArgumentException, "Depth data delivery is not supported in the current configuration"
            ) {
                rig.output.isDepthDataDeliveryEnabled = true
            }
            #expect(!rig.output.isDepthDataDeliveryEnabled)
        }
    }

    @Test func maxPhotoDimensionsMustBeSupported() throws {
        try onDevice {
            let rig = try PhotoRig(preset: .photo, start: false)
            expectException(.invalidArgumentException, "supportedMaxPhotoDimensions") {
                rig.output.maxPhotoDimensions = CMVideoDimensions(width: 100, height: 100)
            }
            rig.output.maxPhotoDimensions = CMVideoDimensions(width: 8064, height: 6048)
            #expect(rig.output.maxPhotoDimensions.width == 8064)
        }
    }
}
