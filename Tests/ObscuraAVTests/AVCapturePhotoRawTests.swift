import Obscura
import Foundation
import ObscuraAV
import Testing

/// Bayer RAW photos (spec §3.1, §3.2 rules 5–7, §4, §5, §6).
struct AVCapturePhotoRawTests {
    static var bgra: [String: Any] { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }

    static func rawSettings() -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(rawPixelFormatType: kCVPixelFormatType_14Bayer_RGGB, processedFormat: bgra)
        settings.photoQualityPrioritization = .speed
        settings.isAutoVirtualDeviceFusionEnabled = false
        return settings
    }

    // spec §3.1 [D]: RAW lists are empty without a source; Apple's 'rgg4' code and .dng with one.
    @Test func backCamerasOfferBayerRaw() throws {
        try onDevice {
            #expect(AVCapturePhotoOutput().availableRawPhotoPixelFormatTypes.isEmpty)
            #expect(kCVPixelFormatType_14Bayer_RGGB == 0x7267_6734)  // 'rgg4', CVPixelBuffer.h
            let rig = try PhotoRig()
            #expect(rig.output.availableRawPhotoPixelFormatTypes == [kCVPixelFormatType_14Bayer_RGGB])
            #expect(rig.output.availableRawPhotoFileTypes == [.dng])
            let front = try PhotoRig(.builtInWideAngleCamera, position: .front)
            #expect(front.output.availableRawPhotoPixelFormatTypes.isEmpty)
        }
    }

    // spec §5, §6 [O]: RAW + processed gives two photos, RAW first; the RAW buffer is the RGGB
    // mosaic of sensor DNs with the profile's black level (64 DN, white 1023, in iphone-15-pro.yaml).
    @Test func rawPlusProcessedDeliversRawFirst() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 500, distance: 1))
            let rig = try PhotoRig()
            let delegate = capture(rig, Self.rawSettings())
            let photos = delegate.photos
            #expect(photos.count == 2)
            #expect(photos.first?.resolvedSettings.expectedPhotoCount == 2)
            #expect(photos.map(\.isRawPhoto) == [true, false])
            #expect(photos.map(\.photoCount) == [1, 2])
            let raw = try #require(photos.first)
            let dims = raw.resolvedSettings.rawPhotoDimensions
            #expect(dims.width == 640 && dims.height == 480)
            let buffer = try #require(raw.pixelBuffer)
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_14Bayer_RGGB)
            #expect(CVPixelBufferGetWidth(buffer) == 640 && CVPixelBufferGetHeight(buffer) == 480)
            let dng = try #require(raw.metadata["{DNG}"] as? [String: Any])
            #expect(dng["BlackLevel"] as? Int == 64)
            #expect(dng["WhiteLevel"] as? Int == 1023)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            let base = try #require(CVPixelBufferGetBaseAddress(buffer))
            let stride = CVPixelBufferGetBytesPerRow(buffer)
            // Mean DN per CFA site over the centre: all above black (the card is lit), none above white.
            var sums = [0.0, 0.0, 0.0, 0.0], minimum = UInt16.max
            for y in 200..<280 {
                let row = (base + y * stride).assumingMemoryBound(to: UInt16.self)
                for x in 280..<360 {
                    sums[(y & 1) * 2 + (x & 1)] += Double(row[x])
                    minimum = min(minimum, row[x])
                }
            }
            let means = sums.map { $0 / 1600 }
            #expect(means.allSatisfy { $0 > 64 + 20 && $0 < 1023 })
            #expect(minimum >= 40)  // black level less a few read-noise σ
            // The two green sites of the RGGB quad see the same filter.
            #expect(abs(means[1] - means[2]) < 0.03 * means[1])
            #expect(photos.last?.pixelBuffer.map(CVPixelBufferGetPixelFormatType) == kCVPixelFormatType_32BGRA)
            // The RAW file is a DNG, a TIFF file (here big-endian, "MM" then 42; `AVCapturePhotoDNGTests` reads it).
            let file = try #require(raw.fileDataRepresentation())
            #expect(Array(file.prefix(4)) == [0x4D, 0x4D, 0x00, 0x2A])
            #expect(!photos.last!.isRawPhoto)
        }
    }

    // spec §6 [T W17]: RAW + processed from two constituents is 4 photos, RAW then processed per camera.
    @Test func rawPlusProcessedFromTwoConstituentsIsFour() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 500, distance: 1))
            let rig = try PhotoRig(.builtInDualCamera)
            rig.output.isVirtualDeviceConstituentPhotoDeliveryEnabled = true
            let settings = Self.rawSettings()
            settings.virtualDeviceConstituentPhotoDeliveryEnabledDevices = rig.device.constituentDevices
            let photos = capture(rig, settings).photos
            #expect(photos.first?.resolvedSettings.expectedPhotoCount == 4)
            #expect(photos.count == 4)
            #expect(photos.map(\.isRawPhoto) == [true, false, true, false])
            #expect(
                photos.map(\.sourceDeviceType)
                    == [.builtInWideAngleCamera, .builtInWideAngleCamera, .builtInTelephotoCamera, .builtInTelephotoCamera])
        }
    }

    // spec §3.2 rules 5–7.
    @Test func rawRulesFire() throws {
        try onDevice {
            let rig = try PhotoRig()
            let delegate = RecordingPhotoDelegate()
            expectException(
                .invalidArgumentException,
                capturePrefix + "settings.rawPhotoPixelFormatType must be present in self.availableRawPhotoPixelFormatTypes"
            ) {
                rig.output.capturePhoto(
                    with: AVCapturePhotoSettings(rawPixelFormatType: 0x6267_3130, processedFormat: Self.bgra),
                    delegate: delegate)
            }
            let constant = Self.rawSettings()
            constant.isConstantColorEnabled = true
            expectException(
                .invalidArgumentException,
                capturePrefix + "When capturing a raw photo, settings.constantColorEnabled must be set to NO"
            ) { rig.output.capturePhoto(with: constant, delegate: delegate) }
            let balanced = Self.rawSettings()
            balanced.photoQualityPrioritization = .balanced
            expectException(.invalidArgumentException, capturePrefix + "When specifying Bayer raw capture") {
                rig.output.capturePhoto(with: balanced, delegate: delegate)
            }
            try rig.device.lockForConfiguration()
            rig.device.videoZoomFactor = 2
            rig.device.unlockForConfiguration()
            expectException(.invalidArgumentException, capturePrefix + "When specifying Bayer raw capture") {
                rig.output.capturePhoto(with: Self.rawSettings(), delegate: delegate)
            }
        }
    }
}
