import AVFoundation
import Foundation
import ObscuraTesting
import Testing
import Vision

/// A print finder written as a scanner app writes its viewfinder: the back camera's frames go to a video data
/// output, and each frame gets a rectangle request whose best observation is kept for the overlay (the first half of
/// a document scanner; the second, straightening the print with Core Image's perspective correction, takes the
/// corners from here). Apple's names only, so it would build for iOS unchanged.
final class PrintFinderProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    private let frameQueue = DispatchQueue(label: "print finder frames")
    private let lock = NSLock()
    private var _found: [VNRectangleObservation?] = []
    private let frameDone = DispatchSemaphore(value: 0)

    /// The best rectangle of each frame so far, nil where a frame had none.
    var found: [VNRectangleObservation?] { lock.withLock { _found } }

    func configure() throws {
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        videoOutput.alwaysDiscardsLateVideoFrames = true
        videoOutput.setSampleBufferDelegate(self, queue: frameQueue)
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        session.commitConfiguration()
    }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        guard let pixelBuffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let request = Self.printRequest()
        let handler = VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: .up, options: [:])
        let best: VNRectangleObservation?
        do {
            try handler.perform([request])
            best = request.results?.first
        } catch {
            best = nil
        }
        lock.withLock { _found.append(best) }
        frameDone.signal()
    }

    /// The request for a print of any proportions, held roughly square to the camera.
    static func printRequest() -> VNDetectRectanglesRequest {
        let request = VNDetectRectanglesRequest()
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        request.minimumSize = 0.1
        request.quadratureTolerance = 30
        request.minimumConfidence = 0.5
        return request
    }

    /// Runs the viewfinder until `frames` frames have been searched; false when they do not come.
    func run(frames: Int) -> Bool {
        session.startRunning()
        defer { session.stopRunning() }
        for _ in 0..<frames where frameDone.wait(timeout: .now() + 60) != .success { return false }
        return true
    }
}

@Suite struct PrintFinderProgramTests {
    /// The instant-photo scene holds still: every frame finds the print, and its corners agree from frame to frame
    /// to within the frames' noise.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func everyFrameFindsTheSamePrint() throws {
        let program = PrintFinderProgram()
        try program.configure()
        #expect(program.run(frames: 6))
        let found = program.found
        #expect(found.count >= 6)
        let prints = found.compactMap { $0 }
        #expect(prints.count == found.count, "a frame without the print")
        let first = try #require(prints.first)
        for print in prints.dropFirst() {
            for (got, want) in zip(
                [print.topLeft, print.topRight, print.bottomRight, print.bottomLeft],
                [first.topLeft, first.topRight, first.bottomRight, first.bottomLeft])
            {
                expectNear(got, want, 0.005, "frame to frame")
            }
        }
        // The camera looks down at the print's centre.
        expectNear(CGPoint(x: first.boundingBox.midX, y: first.boundingBox.midY), CGPoint(x: 0.5, y: 0.5), 0.1)
    }
}
