import Foundation
import Obscura
import ObscuraAV
import Testing

/// The iOS 9 and iOS 10 still-image paths: `AVCaptureStillImageOutput`, the device's own flash mode,
/// the sample-buffer photo callback, and the photo output's scene monitoring.
@Suite(.serialized) struct LegacyStillCaptureTests {
    /// A running session with a still-image output on the back camera, as iOS 9 apps built it.
    private struct StillRig {
        let session = AVCaptureSession()
        let device: AVCaptureDevice
        let output = AVCaptureStillImageOutput()

        init() throws {
            device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(output)
            session.commitConfiguration()
            session.startRunning()
        }

        func capture() throws -> CMSampleBuffer {
            let connection = try #require(output.connection(with: .video))
            let done = DispatchSemaphore(value: 0)
            let result = ResultBox()
            output.captureStillImageAsynchronously(from: connection) { buffer, error in
                result.set(buffer, error)
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(result.error == nil)
            return try #require(result.buffer)
        }
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (CMSampleBuffer?, Error?) = (nil, nil)
        func set(_ buffer: CMSampleBuffer?, _ error: Error?) { lock.withLock { stored = (buffer, error) } }
        var buffer: CMSampleBuffer? { lock.withLock { stored.0 } }
        var error: Error? { lock.withLock { stored.1 } }
    }

    // spec §1.5 [D]: a scale-and-crop factor outside [1, videoMaxScaleAndCropFactor] is an invalid argument; only
    // the still-image output's connection scales, up to the active format's zoom.
    @Test func aScaleAndCropFactorOutsideItsRangeRaises() throws {
        try onDevice {
            let rig = try StillRig()
            let still = try #require(rig.output.connection(with: .video))
            #expect(still.videoMaxScaleAndCropFactor == rig.device.activeFormat.videoMaxZoomFactor)
            let gist = "-[AVCaptureConnection setVideoScaleAndCropFactor:] videoScaleAndCropFactor"
            expectException(.invalidArgumentException, gist) { still.videoScaleAndCropFactor = 0.5 }
            expectException(.invalidArgumentException, gist) {
                still.videoScaleAndCropFactor = still.videoMaxScaleAndCropFactor + 1
            }
            expectNoException { still.videoScaleAndCropFactor = still.videoMaxScaleAndCropFactor }
            #expect(still.videoScaleAndCropFactor == rig.device.activeFormat.videoMaxZoomFactor)
            rig.session.beginConfiguration()
            let video = AVCaptureVideoDataOutput()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            let connection = try #require(video.connection(with: .video))
            #expect(connection.videoMaxScaleAndCropFactor == 1)
            expectNoException { connection.videoScaleAndCropFactor = 1 }
            expectException(.invalidArgumentException, gist) { connection.videoScaleAndCropFactor = 1.5 }
            rig.session.stopRunning()
        }
    }

    // Apple documents JPEG as the default: the handler's buffer holds a JPEG file (SOI marker, Exif),
    // which jpegStillImageNSDataRepresentation hands back; its decode time is invalid. The Exif is also the
    // buffer's attachment, where iOS 9 apps read the exposure.
    @Test func stillImageOutputDeliversAJPEG() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try StillRig()
            #expect(rig.output.availableImageDataCodecTypes.contains(.jpeg))
            #expect(!rig.output.isCapturingStillImage)
            let buffer = try rig.capture()
            #expect(!rig.output.isCapturingStillImage)
            #expect(CMSampleBufferGetImageBuffer(buffer) == nil)
            #expect(buffer.formatDescription?.mediaSubType == .jpeg)
            #expect(!buffer.decodeTimeStamp.isValid && !CMSampleBufferGetDecodeTimeStamp(buffer).isValid)
            let data = try #require(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer))
            #expect(Array(data.prefix(2)) == [0xFF, 0xD8])
            #expect(data.range(of: Data("Exif".utf8)) != nil)
            let exif = try #require(
                CMGetAttachment(buffer, key: kCGImagePropertyExifDictionary as CFString, attachmentModeOut: nil)
                    as? [String: Any])
            let iso = try #require(exif[kCGImagePropertyExifISOSpeedRatings as String] as? [NSNumber])
            // Exif writes the ISO as a whole number.
            let written = try #require(iso.first?.floatValue)
            #expect(abs(written - rig.device.iso) <= 0.5 + 0.05 * rig.device.iso, "the exposure the device reports")
        }
    }

    // Uncompressed output settings give the pixels as the image buffer, at the session's size.
    @Test func stillImageOutputDeliversPixels() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try StillRig()
            rig.output.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            let buffer = try rig.capture()
            let pixels = try #require(CMSampleBufferGetImageBuffer(buffer))
            #expect(CVPixelBufferGetPixelFormatType(pixels) == kCVPixelFormatType_32BGRA)
            #expect(CVPixelBufferGetWidth(pixels) == 640 && CVPixelBufferGetHeight(pixels) == 480)
            #expect(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer) == nil)
        }
    }

    // Apple documents that unsupported output settings raise.
    @Test func unsupportedOutputSettingsRaise() throws {
        try onDevice {
            let rig = try StillRig()
            expectException(.invalidArgumentException, "availableImageDataCodecTypes") {
                rig.output.outputSettings = [AVVideoCodecKey: AVVideoCodecType.h264]
            }
        }
    }

    // The device's flash mode governs the still-image output: .auto fires in a 3-lux room and not
    // in 3,000 lux (the photo output's .auto rule), and isFlashActive says so beforehand.
    @Test func deviceFlashModeAutoFiresInTheDarkOnly() throws {
        try onDevice {
            func fires(_ lux: Double) throws -> (active: Bool, fired: Bool) {
                try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1, reflectance: 0.18))
                let rig = try StillRig()
                try rig.device.lockForConfiguration()
                #expect(rig.device.isFlashModeSupported(.auto))
                rig.device.flashMode = .auto
                rig.device.unlockForConfiguration()
                let active = rig.device.isFlashActive
                let data = try #require(
                    AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(try rig.capture()))
                // Exif's Flash tag (0x9209, SHORT) is 1 when the flash fired: bit 0.
                let tag: [UInt8] = [0x92, 0x09, 0x00, 0x03]
                let littleTag: [UInt8] = [0x09, 0x92, 0x03, 0x00]
                let bytes = [UInt8](data.prefix(4096))
                func value(after pattern: [UInt8], bigEndian: Bool) -> Int? {
                    guard let at = (0..<(bytes.count - 12)).first(where: { Array(bytes[$0..<$0 + 4]) == pattern })
                    else { return nil }
                    let v = bytes[at + 8..<at + 10]
                    return bigEndian ? Int(v.first!) << 8 | Int(v.last!) : Int(v.last!) << 8 | Int(v.first!)
                }
                let flash = value(after: tag, bigEndian: true) ?? value(after: littleTag, bigEndian: false)
                return (active, (try #require(flash)) & 1 == 1)
            }
            let dim = try fires(3), bright = try fires(3000)
            #expect(dim.active && dim.fired)
            #expect(!bright.active && !bright.fired)
        }
    }

    // Apple documents that the device's flash mode needs the configuration lock, and that a
    // device without a flash supports only .off.
    @Test func deviceFlashModeRules() throws {
        try onDevice {
            let back = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            expectException(.genericException, "lockForConfiguration") { back.flashMode = .on }
            let front = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
            #expect(front.isFlashModeSupported(.off) && !front.isFlashModeSupported(.on))
            #expect(!front.isFlashActive)
        }
    }

    // isFlashScene follows the scene under .auto monitoring; false without monitoring settings.
    @Test func flashSceneFollowsTheLight() throws {
        try onDevice {
            func flashScene(_ lux: Double, monitoring: AVCaptureDevice.FlashMode?) throws -> Bool {
                try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1, reflectance: 0.18))
                let rig = try PhotoRig()
                if let monitoring {
                    let settings = AVCapturePhotoSettings()
                    settings.flashMode = monitoring
                    rig.output.photoSettingsForSceneMonitoring = settings
                }
                return rig.output.isFlashScene
            }
            let dim = try flashScene(3, monitoring: .auto), bright = try flashScene(3000, monitoring: .auto)
            let off = try flashScene(3, monitoring: .off), unmonitored = try flashScene(3, monitoring: nil)
            #expect(dim && !bright)
            #expect(!off && !unmonitored)
        }
    }

    /// A delegate written for iOS 10: only the sample-buffer callback.
    private final class IOS10Delegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var buffers: [(CMSampleBuffer?, CMSampleBuffer?)] = []
        var received: [(photo: CMSampleBuffer?, preview: CMSampleBuffer?)] { lock.withLock { buffers } }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
            previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
            bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
        ) {
            lock.withLock { buffers.append((photoSampleBuffer, previewPhotoSampleBuffer)) }
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) { done.signal() }
    }

    /// A delegate that implements both callbacks: Apple calls only the newer one.
    private final class BothDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var calls: [String] = []
        var events: [String] { lock.withLock { calls } }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            lock.withLock { calls.append("photo") }
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
            previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
            bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
        ) {
            lock.withLock { calls.append("sampleBuffer") }
        }
        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) { done.signal() }
    }

    // The iOS 10 callback gets the JPEG as a sample buffer and the asked preview; the JPEG data
    // representation of that buffer is the JPEG file.
    @Test func iOS10DelegateGetsSampleBuffers() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try PhotoRig()
            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            let previewFormat = try #require(settings.__availablePreviewPhotoPixelFormatTypes.first)
            #expect(previewFormat.uint32Value == settings.availablePreviewPhotoPixelFormatTypes.first)
            settings.previewPhotoFormat = [
                kCVPixelBufferPixelFormatTypeKey as String: previewFormat, kCVPixelBufferWidthKey as String: 160,
                kCVPixelBufferHeightKey as String: 120,
            ]
            let delegate = IOS10Delegate()
            rig.output.capturePhoto(with: settings, delegate: delegate)
            #expect(delegate.done.wait(timeout: .now() + 60) == .success)
            let got = try #require(delegate.received.first)
            #expect(delegate.received.count == 1)
            let photo = try #require(got.photo)
            let data = try #require(
                AVCapturePhotoOutput.jpegPhotoDataRepresentation(
                    forJPEGSampleBuffer: photo, previewPhotoSampleBuffer: got.preview))
            #expect(Array(data.prefix(2)) == [0xFF, 0xD8])
            let preview = try #require(got.preview.flatMap(CMSampleBufferGetImageBuffer))
            #expect(CVPixelBufferGetWidth(preview) == 160)
        }
    }

    @Test func bothCallbacksImplementedHearsOnlyTheNewer() throws {
        try onDevice {
            try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: 200, distance: 1))
            let rig = try PhotoRig()
            let delegate = BothDelegate()
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: delegate)
            #expect(delegate.done.wait(timeout: .now() + 60) == .success)
            #expect(delegate.events == ["photo"])
        }
    }
}
