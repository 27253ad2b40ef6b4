import Obscura
import Foundation
import ObscuraAV
import Testing

/// Constituent photos of a virtual device (spec §3.1, §3.2 rules 21–22, §4, §5, §6, §13 N8), on
/// the iPhone 7 Plus dual camera in the 640×480 format.
struct AVCapturePhotoConstituentTests {
    static func rig() throws -> PhotoRig {
        let rig = try PhotoRig(.builtInDualCamera)
        #expect(rig.output.isVirtualDeviceConstituentPhotoDeliverySupported)
        rig.output.isVirtualDeviceConstituentPhotoDeliveryEnabled = true
        return rig
    }

    static func settings(_ rig: PhotoRig, calibration: Bool) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = rig.device.constituentDevices
        settings.isCameraCalibrationDataDeliveryEnabled = calibration
        return settings
    }

    // spec §13 N8: one device; output opt-in off; a foreign device; calibration without ≥ 2 constituents.
    @Test func constituentMisuseRaisesN8() throws {
        try onDevice("iphone-7-plus") {
            let rig = try PhotoRig(.builtInDualCamera)
            let constituents = rig.device.constituentDevices
            let off = AVCapturePhotoSettings()
            off.virtualDeviceConstituentPhotoDeliveryEnabledDevices = constituents
            expectException(
                .invalidArgumentException,
                capturePrefix + "settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices may not be set to a "
                    + "non-empty array unless self.virtualDeviceConstituentPhotoDeliveryEnabled is YES"
            ) { rig.output.capturePhoto(with: off, delegate: RecordingPhotoDelegate()) }
            rig.output.isVirtualDeviceConstituentPhotoDeliveryEnabled = true
            let one = AVCapturePhotoSettings()
            one.virtualDeviceConstituentPhotoDeliveryEnabledDevices = [constituents[1]]
            expectException(.invalidArgumentException, "must have 2 or more AVCaptureDevices") {
                rig.output.capturePhoto(with: one, delegate: RecordingPhotoDelegate())
            }
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            let foreign = AVCapturePhotoSettings()
            foreign.virtualDeviceConstituentPhotoDeliveryEnabledDevices = [constituents[0], front]
            expectException(.invalidArgumentException, "may only include devices present in the source virtual device") {
                rig.output.capturePhoto(with: foreign, delegate: RecordingPhotoDelegate())
            }
            let calibration = AVCapturePhotoSettings()
            calibration.isCameraCalibrationDataDeliveryEnabled = true
            expectException(.invalidArgumentException, "unless 2 or more AVCaptureDevices are added") {
                rig.output.capturePhoto(with: calibration, delegate: RecordingPhotoDelegate())
            }
        }
    }

    // spec §5, §6: one photo per constituent, shortest focal length first as listed, each with
    // its type and its own calibration; expectedPhotoCount = 2. spec §10: the extrinsic
    // translations (mm) differ by the baseline, 10 mm in the iPhone 7 Plus profile (modelled).
    @Test func onePhotoPerConstituentWithCalibration() throws {
        try onDevice("iphone-7-plus") {
            let rig = try Self.rig()
            #expect(rig.output.isCameraCalibrationDataDeliverySupported)
            let delegate = capture(rig, Self.settings(rig, calibration: true))
            #expect(delegate.resolvedSettings.first?.expectedPhotoCount == 2)
            let photos = delegate.photos
            #expect(photos.count == 2)
            #expect(photos.map(\.photoCount) == [1, 2])
            #expect(photos.map(\.sourceDeviceType) == [.builtInWideAngleCamera, .builtInTelephotoCamera])
            let wide = try #require(photos.first?.cameraCalibrationData)
            let tele = try #require(photos.last?.cameraCalibrationData)
            let dt = tele.extrinsicMatrix.columns.3 - wide.extrinsicMatrix.columns.3
            let baseline = (dt * dt).sum().squareRoot()
            #expect(abs(baseline - 10) < 0.1, "baseline \(baseline) mm")
            // The tele has the longer focal length (a narrower field of view) at the same reference size.
            #expect(
                tele.intrinsicMatrix.columns.0.x / Float(tele.intrinsicMatrixReferenceDimensions.width)
                    > 1.5 * wide.intrinsicMatrix.columns.0.x / Float(wide.intrinsicMatrixReferenceDimensions.width))
            // Rendered through each camera: the two photos differ.
            let a = try #require(photos.first?.fileDataRepresentation())
            let b = try #require(photos.last?.fileDataRepresentation())
            #expect(a != b)
        }
    }

    // spec §5 [D]: calibration only when asked; an ordinary photo of the virtual device reports
    // the virtual type and no clean aperture.
    @Test func calibrationOnlyWhenAsked() throws {
        try onDevice("iphone-7-plus") {
            let rig = try Self.rig()
            let photos = capture(rig, Self.settings(rig, calibration: false)).photos
            #expect(photos.count == 2)
            #expect(photos.allSatisfy { $0.cameraCalibrationData == nil })
            let plain = try #require(capture(rig, AVCapturePhotoSettings()).photos.first)
            #expect(plain.sourceDeviceType == .builtInDualCamera)
            #expect(plain.cleanApertureRect == nil)
            #expect(plain.cameraCalibrationData == nil)
        }
    }

    // spec §2.2, constituent photos [T W17]: zoomed to 1.5×, the wide photo is black outside the
    // preview, the centred 1/1.5 of its width and height, which `cleanApertureRect` reports; the
    // tele's whole field lies inside the preview.
    @Test func zoomedCaptureBlacksOutOutsideThePreview() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 500, distance: 1))
            let rig = try Self.rig()
            try rig.device.lockForConfiguration()
            rig.device.videoZoomFactor = 1.5
            rig.device.unlockForConfiguration()
            let photos = capture(rig, Self.settings(rig, calibration: false)).photos
            let wide = try #require(photos.first), tele = try #require(photos.last)
            let rect = try #require(wide.cleanApertureRect)
            #expect(abs(rect.width - 640 / 1.5) <= 1 && abs(rect.height - 480 / 1.5) <= 1)
            #expect(abs(rect.midX - 320) <= 1 && abs(rect.midY - 240) <= 1)
            #expect(tele.cleanApertureRect == CGRect(x: 0, y: 0, width: 640, height: 480))
            let buffer = try #require(wide.pixelBuffer)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            func pixel(_ x: Int, _ y: Int) -> [UInt8] { (0..<3).map { base[y * stride + 4 * x + $0] } }
            #expect(pixel(5, 5) == [0, 0, 0])
            #expect(pixel(320, 240).contains { $0 > 20 })
            #expect(try centralLuminance(tele) > 0.01)
        }
    }
}
