import Foundation
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

    // spec §6: didFinishProcessingPhoto exactly expectedPhotoCount times; photoCount is 1-based.
    @Test func bracketDeliversOnePhotoPerElement() throws {
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
            rig.device._setFlashThermallyUnavailable(true)
            #expect(!rig.device.isFlashAvailable)
            #expect(rig.output.supportedFlashModes.contains(.on))
            #expect(!capture(rig, AVCapturePhotoSettings(from: on)).resolvedSettings[0].isFlashEnabled)
        }
    }
}

@Suite struct AVCapturePhotoTests {
    // spec §5: compressed captures have no pixel buffer; the file bytes are a PNG with metadata.
    @Test func fileDataRepresentationIsAPNGWithMetadata() throws {
        try onDevice {
            let rig = try PhotoRig()
            let photo = try #require(capture(rig, AVCapturePhotoSettings()).photos.first)
            #expect(photo.pixelBuffer == nil)
            let data = try #require(photo.fileDataRepresentation())
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
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey: kCVPixelFormatType_32BGRA])
            let photo = try #require(capture(rig, settings).photos.first)
            let buffer = try #require(photo.pixelBuffer)
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
            #expect(CVPixelBufferGetWidth(buffer) == 640 && CVPixelBufferGetHeight(buffer) == 480)
            #expect(CVPixelBufferGetBytesPerRow(buffer) >= 640 * 4)
        }
    }

    @Test(.disabled("photo pixels come from Sensor and ISP, which are not integrated yet"))
    func pixelsRespondToFlashAndAmbientLight() {}
}
