import ExternalTools
import Foundation
import Imaging
import Obscura
import ObscuraAV
import Testing

@Suite struct AVCapturePhotoCaptureDelegateTests {
    // spec §6: willBegin first, didFinishCapture last, each monitoring callback once.
    @Test func callbacksArriveInTheDocumentedOrder() throws {
        try onDevice {
            let rig = try PhotoRig()
            let delegate = capture(rig, AVCapturePhotoSettings())
            #expect(
                delegate.events == [
                    "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto",
                    "didFinishCapture",
                ])
        }
    }

    // spec §6: one resolved settings object shared by every callback of a request, with its uniqueID.
    @Test func resolvedSettingsAreSharedAndCarryTheUniqueID() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            let delegate = capture(rig, settings)
            let resolved = delegate.resolvedSettings
            #expect(resolved.allSatisfy { $0 === resolved[0] })
            #expect(resolved[0].uniqueID == settings.uniqueID)
            #expect(resolved[0].expectedPhotoCount == 1)
            #expect(resolved[0].photoDimensions.width == 640 && resolved[0].photoDimensions.height == 480)
        }
    }

    // spec §6: didFinishProcessingPhoto exactly expectedPhotoCount times; photoCount is 1-based. The
    // bracket asks for HEVC, which the output offers only with libheif.
    @Test(.needs(.libheif)) func bracketDeliversOnePhotoPerElement() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoBracketSettings(
                rawPixelFormatType: 0, processedFormat: [AVVideoCodecKey: AVVideoCodecType.hevc],
                bracketedSettings: [-2, 0, 2].map {
                    AVCaptureAutoExposureBracketedStillImageSettings.autoExposureSettings(exposureTargetBias: $0)
                })
            let delegate = capture(rig, settings)
            #expect(delegate.events.filter { $0 == "didFinishProcessingPhoto" }.count == 3)
            #expect(delegate.resolvedSettings[0].expectedPhotoCount == 3)
            #expect(delegate.photos.map(\.photoCount) == [1, 2, 3])
            #expect(delegate.photos.map(\.sequenceCount) == [1, 2, 3])
            #expect(delegate.events.first == "willBeginCapture" && delegate.events.last == "didFinishCapture")
        }
    }

    // spec §6 [D]: all callbacks on one common queue, not the caller's.
    @Test func callbacksRunOnOneSerialQueue() throws {
        try onDevice {
            let rig = try PhotoRig()
            let delegate = capture(rig, AVCapturePhotoSettings())
            #expect(Set(delegate.threadNames).count == 1)
            #expect(delegate.threadNames[0] != "\(pthread_self())")
        }
    }

    // spec §6: overlapping requests each get their own complete sequence.
    @Test func overlappingRequestsCompleteInOrder() throws {
        try onDevice {
            let rig = try PhotoRig()
            let first = RecordingPhotoDelegate(), second = RecordingPhotoDelegate()
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: first)
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: second)
            #expect(first.waitUntilFinished() && second.waitUntilFinished())
            #expect(first.events.count == 5 && second.events.count == 5)
            #expect(second.photos[0].timestamp > first.photos[0].timestamp)
        }
    }

    // spec §3.2 [D]: the output copies the settings; later mutation has no effect.
    @Test func settingsAreCopiedAtCapture() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings()
            let delegate = RecordingPhotoDelegate()
            rig.output.capturePhoto(with: settings, delegate: delegate)
            settings.flashMode = .on
            #expect(delegate.waitUntilFinished())
            #expect(delegate.resolvedSettings[0].isFlashEnabled == false)
        }
    }

    // spec §6, §2.7: .on fires the flash unless it is thermally unavailable.
    @Test func flashOnResolvesFromAvailability() throws {
        try onDevice {
            let rig = try PhotoRig()
            let on = AVCapturePhotoSettings()
            on.flashMode = .on
            #expect(capture(rig, on).resolvedSettings[0].isFlashEnabled)
            Emulator.shared.setFlashThermallyUnavailable(true, for: rig.device)
            #expect(!rig.device.isFlashAvailable)
            #expect(rig.output.supportedFlashModes.contains(.on))
            #expect(!capture(rig, AVCapturePhotoSettings(from: on)).resolvedSettings[0].isFlashEnabled)
        }
    }
}

@Suite struct AVCapturePhotoTests {
    // spec §5: compressed captures have no pixel buffer; the default settings' file is a JPEG
    // that opens with Exif (APP1) naming the device and carries an sRGB ICC profile.
    @Test func fileDataRepresentationIsAJPEGWithExif() throws {
        try onDevice {
            let rig = try PhotoRig()
            let photo = try #require(capture(rig, AVCapturePhotoSettings()).photos.first)
            #expect(photo.pixelBuffer == nil)
            let data = try #require(photo.fileDataRepresentation())
            #expect(Array(data.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
            #expect(data[6..<10] == Data("Exif".utf8))
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("iPhone 15 Pro"))
            #expect(text.contains("ICC_PROFILE"))
            #expect(data.range(of: Data(ICCProfile.sRGB)) != nil)
        }
    }

    // spec §5: an uncompressed request's file is a PNG with text metadata.
    @Test func uncompressedFileDataIsAPNGWithMetadata() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            let data = try #require(capture(rig, settings).photos.first?.fileDataRepresentation())
            #expect(Array(data.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("640x480"))
            #expect(text.contains("iPhone 15 Pro"))
            #expect(text.contains("sRGB"))
        }
    }

    // spec §5: uncompressed captures carry a pixel buffer of the requested format and size.
    @Test func uncompressedCaptureHasAPixelBuffer() throws {
        try onDevice {
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            let photo = try #require(capture(rig, settings).photos.first)
            let buffer = try #require(photo.pixelBuffer)
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
            #expect(CVPixelBufferGetWidth(buffer) == 640 && CVPixelBufferGetHeight(buffer) == 480)
            #expect(CVPixelBufferGetBytesPerRow(buffer) >= 640 * 4)
        }
    }

    /// Fixes the exposure, as `setExposureModeCustom` does on a phone, so pixel values compare.
    static func fixExposure(_ device: AVCaptureDevice, seconds: Double, iso: Float) throws {
        try device.lockForConfiguration()
        device.setExposureModeCustom(duration: CMTime(seconds: seconds, preferredTimescale: 1_000_000), iso: iso)
        device.unlockForConfiguration()
    }

    static func bgra(_ flash: AVCaptureDevice.FlashMode) -> AVCapturePhotoSettings {
        let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        settings.flashMode = flash
        return settings
    }

    // spec §6 and How the physics works: at a fixed exposure the flash adds its illuminance
    // I / d² (inverse-square law, on axis) to the ambient lux, so a matte card's signal grows by
    // (E_ambient + ΣI / d²) / E_ambient. The expectation comes from the scene's lux and the profile's
    // candela, not from a pipeline run; the tolerance covers the LED spectra's different green
    // response per lux and the white balance shifting between the two photos.
    @Test func pixelsRespondToFlashAndAmbientLight() throws {
        try onDevice {
            let lux = 20.0, distance = 2.0
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: distance))
            let rig = try PhotoRig()
            try Self.fixExposure(rig.device, seconds: 1.0 / 30, iso: 200)
            let off = try centralLuminance(try #require(capture(rig, Self.bgra(.off)).photos.first))
            let on = try centralLuminance(try #require(capture(rig, Self.bgra(.on)).photos.first))
            // The card must sit on the straight part of the tone curve for the ratio to mean anything.
            try #require(off > 0.01 && on < 0.55, "off \(off), on \(on)")
            let flashLux = try PhotoScenes.flashCandela("iphone-15-pro") / (distance * distance)
            let expected = (lux + flashLux) / lux
            #expect(abs(on / off / expected - 1) < 0.15, "measured \(on / off), expected \(expected)")
        }
    }

    // Twice the ambient light at the same exposure gives twice the signal (the sensor is linear
    // below saturation; ISO 12232 exposure H ∝ E·t).
    @Test func signalIsProportionalToAmbientLight() throws {
        try onDevice {
            func level(_ lux: Double) throws -> Double {
                try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1))
                let rig = try PhotoRig()
                try AVCapturePhotoTests.fixExposure(rig.device, seconds: 1.0 / 60, iso: 100)
                return try centralLuminance(try #require(capture(rig, AVCapturePhotoTests.bgra(.off)).photos.first))
            }
            let dim = try level(40), bright = try level(80)
            try #require(dim > 0.01 && bright < 0.55, "dim \(dim), bright \(bright)")
            #expect(abs(bright / dim - 2) < 0.1, "ratio \(bright / dim)")
        }
    }

    // spec §6 [D]: .auto decides from the scene; the decision shows in isFlashEnabled. A 3-lux
    // room is far below the threshold (ISO 400 at 1/15 s ≈ 30 lux on a mid-grey); 3,000 lux far above.
    @Test func autoFlashFiresInADimSceneOnly() throws {
        try onDevice {
            func fires(_ lux: Double) throws -> Bool {
                try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1, reflectance: 0.18))
                let rig = try PhotoRig()
                let settings = AVCapturePhotoSettings()
                settings.flashMode = .auto
                return capture(rig, settings).resolvedSettings[0].isFlashEnabled
            }
            let dim = try fires(3), bright = try fires(3000)
            #expect(dim)
            #expect(!bright)
        }
    }

    // spec §2.6 and §12: the photo follows activeColorSpace; the PNG says which.
    @Test func fileFollowsActiveColorSpace() throws {
        try onDevice {
            // The smallest P3 format is 1920 × 1080; a plain card keeps its render cheap.
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try PhotoRig(preset: .hd1920x1080)
            try rig.device.lockForConfiguration()
            rig.device.activeColorSpace = .P3_D65
            rig.device.unlockForConfiguration()
            let data = try #require(capture(rig, AVCapturePhotoSettings()).photos.first?.fileDataRepresentation())
            #expect(data.range(of: Data(ICCProfile.displayP3)) != nil)
            #expect(data.range(of: Data(ICCProfile.sRGB)) == nil)
        }
    }

    // Each evaluated rule is traced, passed or raised, in the spec's order.
    @Test func traceRecordsEveryEvaluatedRule() throws {
        try onDevice {
            let rig = try PhotoRig()
            Emulator.shared.clearTrace()
            let settings = AVCapturePhotoSettings()
            settings.flashMode = .on
            settings.isConstantColorEnabled = true
            _ = Emulator.catchException { rig.output.capturePhoto(with: settings, delegate: RecordingPhotoDelegate()) }
            let rules = Emulator.shared.trace.filter { $0.section == "§3.2" }
            // Rule 21 has two checks (constituents, and with Constant Color).
            #expect(rules.compactMap(\.rule) == Array(1...21) + [21, 22, 23])
            #expect(rules.dropLast().allSatisfy { $0.outcome == .passed })
            #expect(rules.last?.outcome == .raised)
            #expect(rules.last?.sentence.contains("self.isConstantColorEnabled is NO") == true)
        }
    }
}
