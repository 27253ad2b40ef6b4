// Swift example 1 of Sources/Obscura/Obscura.docc/TestingOnLinux.md, copied verbatim by DocumentationTests (no
// line number, so prose edits above it leave the copy as it is). Edit the document, then copy it
// again: OBSCURA_UPDATE_DOC_EXAMPLES=1 swift test --filter DocumentationExampleTests

import AVFoundation
import Foundation
import Testing

final class PhotoTaker: NSObject, AVCapturePhotoCaptureDelegate,
    @unchecked Sendable
{
    let session = AVCaptureSession()
    let output = AVCapturePhotoOutput()
    let finished = DispatchSemaphore(value: 0)
    var photos: [AVCapturePhoto] = []

    func configure() throws {
        session.beginConfiguration()
        session.sessionPreset = .photo
        guard let camera = AVCaptureDevice.default(
            .builtInWideAngleCamera, for: .video, position: .back)
        else {
            session.commitConfiguration()
            return
        }
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) {
            session.addOutput(output)
            // Capabilities are known inside the block, as in Apple's samples.
            output.isConstantColorEnabled = output.isConstantColorSupported
        }
        session.commitConfiguration()
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput,
        didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?
    ) {
        photos.append(photo)
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput,
        didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        finished.signal()
    }
}

@Test func constantColorDeliversAPhotoAndItsFallback() throws {
    let taker = PhotoTaker()
    try taker.configure()
    taker.session.startRunning()
    defer { taker.session.stopRunning() }

    let settings = AVCapturePhotoSettings()
    settings.flashMode = .auto
    settings.isConstantColorEnabled = true
    settings.isConstantColorFallbackPhotoDeliveryEnabled = true
    taker.output.capturePhoto(with: settings, delegate: taker)

    #expect(taker.finished.wait(timeout: .now() + 60) == .success)
    let fallbacks = taker.photos.map(\.isConstantColorFallbackPhoto)
    #expect(fallbacks == [true, false])
    let confidence = taker.photos[1].constantColorCenterWeightedMeanConfidenceLevel
    #expect(confidence > 0.5)
}
