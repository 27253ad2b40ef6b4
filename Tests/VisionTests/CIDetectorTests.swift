import AVFoundation
import CoreImage
import ExternalTools
import Foundation
import ObscuraTesting
import Testing
import Vision

/// `CIDetector` as photo-library scanners use it: a picked image in, features out, in Core Image's coordinates
/// (pixels, origin at the bottom left), checked against where the scene's geometry puts the code and the print.
@Suite struct CIDetectorTests {
    /// A stored pixel position (origin top left) in Core Image's coordinates of an image `height` pixels tall.
    static func ci(_ p: SIMD2<Double>, height: Int) -> CGPoint { CGPoint(x: p.x, y: Double(height) - p.y) }

    @Test(.needs(.zxing), .obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func aQRCodeIsReadWhereItsCardProjects() throws {
        let photo = try CodePhoto.take()
        let detector = try #require(
            CIDetector(
                ofType: CIDetectorTypeQRCode, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let features = detector.features(in: CIImage(cgImage: photo.image))
        let qr = try #require(features.compactMap { $0 as? CIQRCodeFeature }.first)
        #expect(qr.type == CIFeatureTypeQRCode)
        #expect(qr.messageString == "https://example.com")
        let truth = VNDetectBarcodesRequestTests.projectedQRCorners(photo).map {
            Self.ci($0, height: photo.image.height)
        }
        // zxing-cpp places a corner within about a module of the symbol's edge.
        let tolerance = 1.5 * VNDetectBarcodesRequestTests.qrModule(photo)
        let found = [qr.topLeft, qr.topRight, qr.bottomRight, qr.bottomLeft]
        for (corner, (expected, name)) in zip(
            found, zip(truth, ["top left", "top right", "bottom right", "bottom left"]))
        {
            #expect(CapturedPrintTests.distance(corner, expected) < tolerance, "\(name): \(corner) against \(expected)")
        }
        // The printed top edge is the upper one in Core Image's y-up coordinates.
        #expect(qr.topLeft.y > qr.bottomLeft.y)
        #expect(abs(qr.bounds.minX - min(qr.topLeft.x, qr.bottomLeft.x)) < 1e-9)
        #expect(abs(qr.bounds.maxY - max(qr.topLeft.y, qr.topRight.y)) < 1e-9)
    }

    /// An image moved by a translation keeps its features in its own coordinates: they move with it.
    @Test(.needs(.zxing), .obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func featuresFollowTheImagesExtent() throws {
        let photo = try CodePhoto.take()
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: CIContext(), options: nil))
        let image = CIImage(cgImage: photo.image)
        let here = try #require(detector.features(in: image).first as? CIQRCodeFeature)
        let moved = image.transformed(by: CGAffineTransform(translationX: 100, y: -50))
        let there = try #require(detector.features(in: moved).first as? CIQRCodeFeature)
        #expect(abs(there.topLeft.x - here.topLeft.x - 100) < 1e-6 && abs(there.topLeft.y - here.topLeft.y + 50) < 1e-6)
    }

    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func theMostProminentRectangleIsThePrint() throws {
        let photo = try CapturedPrintTests.capture(AVCapturePhotoSettings())
        let image = try #require(photo.cgImageRepresentation())
        let detector = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil, options: nil))
        let features = detector.features(in: CIImage(cgImage: image))
        #expect(features.count == 1)
        let print = try #require(features.first as? CIRectangleFeature)
        #expect(print.type == CIFeatureTypeRectangle)
        let k = try #require(photo.pixelIntrinsicMatrix)
        let projected = CapturedPrintTests.projectedPrintCorners(
            fx: Double(k.columns.0.x), fy: Double(k.columns.1.y), cx: Double(k.columns.2.x),
            cy: Double(k.columns.2.y), width: image.width, height: image.height
        ).map { CGPoint(x: $0.x * CGFloat(image.width), y: $0.y * CGFloat(image.height)) }
        // Within 0.5 % of the shorter side of a corner the geometry puts there (Vision's check, in pixels).
        let tolerance = 0.005 * Double(min(image.width, image.height))
        for corner in [print.topLeft, print.topRight, print.bottomRight, print.bottomLeft] {
            let nearest = projected.map { CapturedPrintTests.distance($0, corner) }.min() ?? .infinity
            #expect(nearest < tolerance, "\(corner)")
        }
        #expect(print.topLeft.y > print.bottomLeft.y && print.topRight.x > print.topLeft.x)
    }

    /// Text is not offered: the failable initialiser says so, as Apple's signature allows; faces are offered exactly
    /// where the face cascade is installed.
    @Test func detectorsNotOfferedAreNil() {
        let faces = CIDetector(ofType: CIDetectorTypeFace, context: nil, options: nil)
        #expect((faces != nil) == ExternalTool.faceCascade.isPresent)
        #expect(CIDetector(ofType: CIDetectorTypeText, context: nil, options: nil) == nil)
        #expect(CIDetector(ofType: "NoSuchDetector", context: nil, options: nil) == nil)
    }

    /// A scanner's stream handler: one `VNSequenceRequestHandler` for every frame a video data output hands over,
    /// the code read from each frame's own pixels.
    @Test(.needs(.zxing), .obscura(device: "iphone-15-pro", scene: "qr-on-desk"))
    func aSequenceHandlerReadsEachFrame() throws {
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        let output = AVCaptureVideoDataOutput()
        let frames = FrameCollector(count: 3)
        output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        #expect(frames.done.wait(timeout: .now() + 60) == .success)
        session.stopRunning()
        let handler = VNSequenceRequestHandler()
        let samples = frames.samples
        #expect(samples.count == 3)
        for sample in samples {
            let request = VNDetectBarcodesRequest()
            request.symbologies = [.qr]
            try handler.perform([request], on: sample)
            #expect(request.results?.first?.payloadStringValue == "https://example.com")
            let buffer = try #require(CMSampleBufferGetImageBuffer(sample))
            let again = VNDetectBarcodesRequest()
            try handler.perform([again], on: buffer, orientation: .right)
            #expect(again.results?.first?.payloadStringValue == "https://example.com")
        }
        // An image with no pixels fails as the image handler's does.
        let empty = VNDetectBarcodesRequest()
        #expect(throws: (any Error).self) { try handler.perform([empty], onImageData: Data()) }
    }
}

/// Keeps the first `count` frames a video data output delivers.
final class FrameCollector: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let count: Int
    private var kept: [CMSampleBuffer] = []
    let done = DispatchSemaphore(value: 0)

    init(count: Int) { self.count = count }

    var samples: [CMSampleBuffer] { lock.withLock { kept } }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        let finished = lock.withLock { () -> Bool in
            guard kept.count < count else { return false }
            kept.append(sampleBuffer)
            return kept.count == count
        }
        if finished { done.signal() }
    }
}
