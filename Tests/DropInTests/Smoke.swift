import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

/// A photo capture written the way Apple's sample code writes it.
final class CameraModel: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let photoOutput = AVCapturePhotoOutput()
    private let done = DispatchSemaphore(value: 0)
    private(set) var photoData: Data?
    private(set) var finished = false

    func configure() throws {
        session.beginConfiguration()
        // Sample code asks for `.photo`; VGA keeps this debug-build test fast (its photos are 640 × 480).
        session.sessionPreset = .vga640x480
        let discovery = AVCaptureDevice.DiscoverySession(
            deviceTypes: [.builtInTripleCamera, .builtInDualWideCamera, .builtInWideAngleCamera],
            mediaType: .video, position: .back)
        guard let device = discovery.devices.first ?? AVCaptureDevice.default(for: .video) else { return }
        let input = try AVCaptureDeviceInput(device: device)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(photoOutput) {
            session.addOutput(photoOutput)
            photoOutput.maxPhotoQualityPrioritization = .quality
        }
        session.commitConfiguration()
    }

    func takePhoto() -> Bool {
        var settings = AVCapturePhotoSettings()
        if photoOutput.availablePhotoCodecTypes.contains(.hevc) {
            settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc])
        }
        if photoOutput.supportedFlashModes.contains(.auto) { settings.flashMode = .auto }
        settings.photoQualityPrioritization = .balanced
        photoOutput.capturePhoto(with: settings, delegate: self)
        return done.wait(timeout: .now() + 120) == .success
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        photoData = photo.fileDataRepresentation()
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        finished = true
        done.signal()
    }
}

extension DropIn {
    @Suite struct Smoke {
        @Test func sampleStyleCaptureProducesAPhoto() throws {
            let model = CameraModel()
            try model.configure()
            model.session.startRunning()
            #expect(model.session.isRunning)
            #expect(model.takePhoto())
            #expect(model.finished)
            let data = try #require(model.photoData)
            #expect(data.count > 100)
            model.session.stopRunning()
            let time: CMTime = CMTimeMake(value: 1, timescale: 30)
            #expect(time.seconds > 0.033 && time.seconds < 0.034)
        }
    }
}
