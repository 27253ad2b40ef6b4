import AVFoundation
import Foundation
import ImageIO
import Testing

/// A RAW camera written for iOS 10, before `AVCapturePhoto`: its delegate has only the two sample-buffer callbacks,
/// keeps the RAW sample buffer and its preview, and turns them into a DNG with
/// `AVCapturePhotoOutput.dngPhotoDataRepresentation(forRawSampleBuffer:previewPhotoSampleBuffer:)`; the JPEG
/// companion comes through the processed callback and `jpegPhotoDataRepresentation`. Apple's names only, so it
/// would build for iOS unchanged.
final class LegacyRawCameraProgram: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private let lock = NSLock()
    private(set) var order: [String] = []
    private(set) var rawBuffer: CMSampleBuffer?
    private(set) var rawPreview: CMSampleBuffer?
    private(set) var jpegBuffer: CMSampleBuffer?
    private(set) var resolved: AVCaptureResolvedPhotoSettings?
    private let finished = DispatchSemaphore(value: 0)

    func configure() throws {
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        session.beginConfiguration()
        session.sessionPreset = .photo
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(photoOutput) { session.addOutput(photoOutput) }
        session.commitConfiguration()
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingRawPhoto rawSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
    ) {
        lock.withLock {
            order.append("raw")
            rawBuffer = rawSampleBuffer
            rawPreview = previewPhotoSampleBuffer
            resolved = resolvedSettings
        }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photoSampleBuffer: CMSampleBuffer?,
        previewPhoto previewPhotoSampleBuffer: CMSampleBuffer?, resolvedSettings: AVCaptureResolvedPhotoSettings,
        bracketSettings: AVCaptureBracketedStillImageSettings?, error: Error?
    ) {
        lock.withLock {
            order.append("processed")
            jpegBuffer = photoSampleBuffer
        }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        finished.signal()
    }

    /// Takes one RAW + JPEG photo with a 320 × 240 BGRA preview; false when the capture did not finish.
    func capture() -> Bool {
        session.startRunning()
        defer { session.stopRunning() }
        guard let rawFormat = photoOutput.availableRawPhotoPixelFormatTypes.first else { return false }
        let settings = AVCapturePhotoSettings(
            rawPixelFormatType: rawFormat, processedFormat: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.previewPhotoFormat = [
            kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
            kCVPixelBufferWidthKey as String: 320, kCVPixelBufferHeightKey as String: 240,
        ]
        photoOutput.capturePhoto(with: settings, delegate: self)
        return finished.wait(timeout: .now() + 120) == .success
    }
}

extension DropIn {
    @Suite struct LegacyRawCameraProgramTests {
        // The iOS 10 RAW callback comes first, with the Bayer buffer at the RAW size and the photo's metadata as its
        // attachments; the DNG made of it is the RAW picture with the preview embedded at the preview's size; the
        // JPEG companion's buffer carries its Exif.
        @Test func theRawSampleBufferBecomesADNG() throws {
            let program = LegacyRawCameraProgram()
            try program.configure()
            try #require(program.capture())
            #expect(program.order == ["raw", "processed"])
            let raw = try #require(program.rawBuffer)
            let resolved = try #require(program.resolved)
            let mosaic = try #require(CMSampleBufferGetImageBuffer(raw))
            #expect(AVCapturePhotoOutput.isBayerRAWPixelFormat(CVPixelBufferGetPixelFormatType(mosaic)))
            #expect(CVPixelBufferGetWidth(mosaic) == Int(resolved.rawPhotoDimensions.width))
            #expect(CVPixelBufferGetHeight(mosaic) == Int(resolved.rawPhotoDimensions.height))
            let dng = try #require(
                CMGetAttachment(raw, key: kCGImagePropertyDNGDictionary as CFString, attachmentModeOut: nil)
                    as? [String: Any])
            let white = try #require((dng[kCGImagePropertyDNGWhiteLevel as String] as? NSNumber)?.intValue)
            #expect(white > 0 && white < 1 << 14, "a 14-bit sensor's white level")

            let preview = try #require(program.rawPreview)
            let file = try #require(
                AVCapturePhotoOutput.dngPhotoDataRepresentation(forRawSampleBuffer: raw, previewPhotoSampleBuffer: preview))
            let source = try #require(CGImageSourceCreateWithData(file as CFData, nil))
            #expect(CGImageSourceGetType(source) as String? == "com.adobe.raw-image")
            let properties = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
            #expect((properties[kCGImagePropertyPixelWidth as String] as? NSNumber)?.intValue
                == Int(resolved.rawPhotoDimensions.width))
            let fileDNG = try #require(properties[kCGImagePropertyDNGDictionary as String] as? [String: Any])
            #expect((fileDNG[kCGImagePropertyDNGWhiteLevel as String] as? NSNumber)?.intValue == white)
            let thumbnail = try #require(CGImageSourceCreateThumbnailAtIndex(source, 0, nil))
            #expect(thumbnail.width == 320 && thumbnail.height == 240)

            let jpeg = try #require(program.jpegBuffer)
            let attachments = try #require(
                CMCopyDictionaryOfAttachments(
                    allocator: kCFAllocatorDefault, target: jpeg, attachmentMode: kCMAttachmentMode_ShouldPropagate)
                    as? [String: Any])
            let exif = try #require(attachments[kCGImagePropertyExifDictionary as String] as? [String: Any])
            let exposure = try #require((exif[kCGImagePropertyExifExposureTime as String] as? NSNumber)?.doubleValue)
            #expect(exposure > 0 && exposure < 1)
            // A processed photo's buffer is no RAW photo: no DNG is made of it.
            #expect(AVCapturePhotoOutput.dngPhotoDataRepresentation(forRawSampleBuffer: jpeg, previewPhotoSampleBuffer: nil) == nil)
        }
    }
}
