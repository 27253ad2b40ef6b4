import AVFoundation
import Foundation
import Obscura
import ObscuraTesting
import Testing
import Vision

/// A scanner app's first step on a real capture: a photo of a print on a table, taken through the capture API on an
/// iPhone 15 Pro, then Vision's rectangle request on the photo's `CGImage`.
@Suite struct CapturedPrintTests {
    /// Waits for one photo.
    final class PhotoWaiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var delivered: AVCapturePhoto?
        private let finished = DispatchSemaphore(value: 0)
        var photo: AVCapturePhoto? { lock.withLock { delivered } }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            lock.withLock { delivered = photo }
        }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) { finished.signal() }

        func wait() -> Bool { finished.wait(timeout: .now() + 20) == .success }
    }

    /// The instant-photo scene: an 88 × 107 mm print on a walnut table, seen from about 22° off the vertical. The
    /// reference is the print scanner's own finding on the same photo's processed pixels (`scannedPrint()`), which
    /// reads them without Vision's pixel formats, coordinate conversions and filters.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func aCapturedPrintsCornersMatchTheScanners() throws {
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        let waiter = PhotoWaiter()
        output.capturePhoto(with: AVCapturePhotoSettings(), delegate: waiter)
        #expect(waiter.wait())
        let photo = try #require(waiter.photo)
        let image = try #require(photo.cgImageRepresentation())

        let request = VNDetectRectanglesRequest()
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
        let found = try #require((request.results as? [VNRectangleObservation])?.first)

        let scan = try #require(photo.scannedPrint())
        expectNear(found.topLeft, scan.topLeft, 0.01, "top left")
        expectNear(found.topRight, scan.topRight, 0.01, "top right")
        expectNear(found.bottomRight, scan.bottomRight, 0.01, "bottom right")
        expectNear(found.bottomLeft, scan.bottomLeft, 0.01, "bottom left")
        // The print lies in the middle of the frame, the camera looking at its centre.
        let centre = CGPoint(x: found.boundingBox.midX, y: found.boundingBox.midY)
        expectNear(centre, CGPoint(x: 0.5, y: 0.5), 0.1, "centre")
        #expect(found.confidence > 0.5)
    }
}
