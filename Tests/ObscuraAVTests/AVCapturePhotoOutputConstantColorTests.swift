import Obscura
import Foundation
import Imaging
import ObscuraAV
import Testing

/// Constant Color on the photo output, its settings and its photos (spec §3.2, §5, §6, §11, §13 N7).
@Suite struct AVCapturePhotoOutputConstantColorTests {
    /// A running session on `type` with Constant Color enabled on the output when supported.
    static func rig(_ type: AVCaptureDevice.DeviceType = .builtInWideAngleCamera) throws -> PhotoRig {
        let rig = try PhotoRig(type, start: false)
        if rig.output.isConstantColorSupported { rig.output.isConstantColorEnabled = true }
        rig.session.startRunning()
        return rig
    }

    static func settings(
        flash: AVCaptureDevice.FlashMode = .auto, constantColor: Bool = true, fallback: Bool = false
    ) -> AVCapturePhotoSettings {
        let s = AVCapturePhotoSettings()
        s.flashMode = flash
        s.isConstantColorEnabled = constantColor
        s.isConstantColorFallbackPhotoDeliveryEnabled = fallback
        return s
    }

    /// The reasons raised while running `body`, from this task's trace.
    static func raised(_ body: @escaping () -> Void) -> (NSException?, [String]) {
        Emulator.shared.clearTrace()
        let exception = Emulator.catchException(body)
        return (exception, Emulator.shared.trace.filter { $0.outcome == .raised }.map(\.sentence))
    }

    // spec §11 [D][I]: wide and dual-wide cameras with a flash and the profile's flag.
    @Test(arguments: [
        ("iphone-15-pro", AVCaptureDevice.DeviceType.builtInWideAngleCamera, AVCaptureDevice.Position.back, true),
        ("iphone-15-pro", .builtInDualWideCamera, .back, true),
        ("iphone-15-pro", .builtInUltraWideCamera, .back, false),
        ("iphone-15-pro", .builtInTelephotoCamera, .back, false),
        ("iphone-15-pro", .builtInWideAngleCamera, .front, false),
        ("iphone-7-plus", .builtInWideAngleCamera, .back, false),
        ("ipad-10th-gen", .builtInWideAngleCamera, .back, false),
        ("ipad-pro-m4", .builtInWideAngleCamera, .back, true),
    ])
    func supportFollowsCameraFlashAndProfile(
        device: String, type: AVCaptureDevice.DeviceType, position: AVCaptureDevice.Position, supported: Bool
    ) throws {
        try onDevice(device) {
            let rig = try PhotoRig(type, position: position, preset: .high, start: false)
            #expect(rig.output.isConstantColorSupported == supported)
            #expect(rig.output.isConstantColorEnabled == false)
        }
    }

    // spec §3.1, §11 [D]: enabling while unsupported raises.
    @Test func enablingWhileUnsupportedRaises() throws {
        try onDevice {
            let rig = try PhotoRig(.builtInUltraWideCamera, start: false)
            expectException(.invalidArgumentException, "is not supported in the current configuration") {
                rig.output.isConstantColorEnabled = true
            }
            #expect(!rig.output.isConstantColorEnabled)
        }
    }

    // spec §11 [D]: when support disappears (a camera switch), the opt-in reverts to false.
    @Test func enabledRevertsWhenTheDeviceChanges() throws {
        try onDevice {
            let rig = try Self.rig()
            #expect(rig.output.isConstantColorEnabled)
            let ultra = try #require(AVCaptureDevice.default(.builtInUltraWideCamera, for: .video, position: .back))
            rig.session.beginConfiguration()
            rig.session.removeInput(rig.input)
            rig.session.addInput(try AVCaptureDeviceInput(device: ultra))
            rig.session.commitConfiguration()
            #expect(!rig.output.isConstantColorSupported)
            #expect(!rig.output.isConstantColorEnabled)
        }
    }

    // spec §13 N7, §3.2 rule 24: the flash must be .on or .auto.
    @Test func flashOffRaises() throws {
        try onDevice {
            let rig = try Self.rig()
            let (e, reasons) = Self.raised {
                rig.output.capturePhoto(with: Self.settings(flash: .off), delegate: RecordingPhotoDelegate())
            }
            #expect(e?.name == .invalidArgumentException)
            #expect(
                e?.reason == capturePrefix + "settings.flashMode must be AVCaptureFlashModeOn or AVCaptureFlashModeAuto "
                    + "if settings.isConstantColorEnabled is YES")
            #expect(reasons.count == 1)
        }
    }

    // spec §13 N7, §3.2 rule 23: the output must be enabled; rule 23 comes before rule 24.
    @Test func outputNotEnabledRaisesBeforeTheFlashRule() throws {
        try onDevice {
            let rig = try PhotoRig()
            let (e, reasons) = Self.raised {
                rig.output.capturePhoto(with: Self.settings(flash: .off), delegate: RecordingPhotoDelegate())
            }
            #expect(e?.reason == capturePrefix + "settings.isConstantColorEnabled must be NO if self.isConstantColorEnabled is NO")
            #expect(reasons.count == 1)
        }
    }

    // spec §13 N7, §3.2 rule 25: the fallback needs Constant Color.
    @Test func fallbackWithoutConstantColorRaises() throws {
        try onDevice {
            let rig = try Self.rig()
            let (e, reasons) = Self.raised {
                rig.output.capturePhoto(
                    with: Self.settings(flash: .off, constantColor: false, fallback: true), delegate: RecordingPhotoDelegate())
            }
            #expect(
                e?.reason == capturePrefix + "settings.isConstantColorEnabled must be YES if "
                    + "settings.isConstantColorFallbackPhotoDeliveryEnabled is YES")
            #expect(reasons.count == 1)
        }
    }

    // spec §13 N7, §3.2 rule 21: no constituent photos; rule 21 comes before rules 23 and 24.
    @Test func constituentPhotosRaiseFirst() throws {
        try onDevice {
            let rig = try PhotoRig(.builtInDualWideCamera, start: false)
            rig.output.isVirtualDeviceConstituentPhotoDeliveryEnabled = true
            rig.session.startRunning()
            let settings = Self.settings(flash: .off)
            settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = rig.device.constituentDevices
            let (e, reasons) = Self.raised {
                rig.output.capturePhoto(with: settings, delegate: RecordingPhotoDelegate())
            }
            #expect(
                e?.reason == capturePrefix + "settings.constantColorEnabled must be NO if "
                    + "settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices is a non-empty array")
            #expect(reasons.count == 1)
        }
    }

    // spec §6, §11: without fallback, one photo; .auto fires the flash even in a bright scene.
    @Test func autoFlashAlwaysFiresWithoutFallbackOnePhoto() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 3000, distance: 1))
            let rig = try Self.rig()
            let delegate = capture(rig, Self.settings(flash: .auto))
            #expect(delegate.resolvedSettings[0].expectedPhotoCount == 1)
            #expect(delegate.resolvedSettings[0].isFlashEnabled)
            #expect(delegate.photos.map(\.isConstantColorFallbackPhoto) == [false])
            #expect(delegate.photos.map(\.photoCount) == [1])
        }
    }

    // spec §5, §6, §11: with fallback, two photos: the fallback first (no map, level 0), then the
    // Constant Color photo (map, level). The map is OneComponent8 at one pixel per 8 × 8 tile [I].
    @Test func fallbackDeliversTwoPhotosWithTheMapOnTheFirst() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 20, distance: 0.6))
            let rig = try Self.rig()
            let delegate = capture(rig, Self.settings(flash: .auto, fallback: true))
            #expect(delegate.resolvedSettings[0].expectedPhotoCount == 2)
            #expect(delegate.resolvedSettings[0].isFlashEnabled)
            #expect(delegate.events.filter { $0 == "didFinishProcessingPhoto" }.count == 2)
            let photos = delegate.photos
            try #require(photos.count == 2)
            #expect(photos.map(\.photoCount) == [1, 2])
            #expect(photos.map(\.isConstantColorFallbackPhoto) == [true, false])
            #expect(photos[0].constantColorConfidenceMap == nil)
            #expect(photos[0].constantColorCenterWeightedMeanConfidenceLevel == 0)
            let map = try #require(photos[1].constantColorConfidenceMap)
            #expect(CVPixelBufferGetPixelFormatType(map) == kCVPixelFormatType_OneComponent8)
            let size = delegate.resolvedSettings[0].photoDimensions
            #expect(CVPixelBufferGetWidth(map) == (Int(size.width) + 7) / 8)
            #expect(CVPixelBufferGetHeight(map) == (Int(size.height) + 7) / 8)
            let level = photos[1].constantColorCenterWeightedMeanConfidenceLevel
            #expect((0...1).contains(level))
            // A matte card at 0.6 m in 20 lux: the flash gives ~50× the ambient light, so the
            // flash increment's SNR is high and confidence should be high.
            #expect(level > 0.5, "level \(level)")
            let data = try #require(photos[1].fileDataRepresentation())
            #expect(data.range(of: Data(ICCProfile.displayP3)) != nil)
            #expect(photos[0].fileDataRepresentation() != nil)
        }
    }
}
