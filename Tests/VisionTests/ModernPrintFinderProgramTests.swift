import AVFoundation
import Foundation
import ObscuraTesting
import Testing
import Vision

/// The print finder of `PrintFinderProgram` written against iOS 18's Swift interface, as a new scanner app writes it:
/// each frame from the video data output goes to a `Task` that awaits a configured `DetectRectanglesRequest` on the
/// frame's sample buffer. Apple's names only, so it would build for iOS unchanged.
final class ModernPrintFinderProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    private let frameQueue = DispatchQueue(label: "modern print finder frames")
    private let lock = NSLock()
    private var _found: [RectangleObservation?] = []
    private let frameDone = DispatchSemaphore(value: 0)
    private let request: DetectRectanglesRequest = {
        var request = DetectRectanglesRequest()
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        request.minimumSize = 0.1
        request.quadratureToleranceDegrees = 30
        request.minimumConfidence = 0.5
        return request
    }()

    /// The best rectangle of each frame so far, nil where a frame had none.
    var found: [RectangleObservation?] { lock.withLock { _found } }

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
        let request = request
        Task {
            let best = try? await request.perform(on: sampleBuffer).first
            lock.withLock { _found.append(best) }
            frameDone.signal()
        }
    }

    /// Runs the viewfinder until `frames` frames have been searched; false when they do not come. It waits off the
    /// concurrency pool, which the frames' tasks run on.
    func run(frames: Int) async -> Bool {
        session.startRunning()
        defer { session.stopRunning() }
        let done = frameDone
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                for _ in 0..<frames where done.wait(timeout: .now() + 60) != .success {
                    continuation.resume(returning: false)
                    return
                }
                continuation.resume(returning: true)
            }
        }
    }
}

@Suite struct ModernPrintFinderProgramTests {
    /// Frame after frame the print is found, where the `VN…` viewfinder finds it in the same scene.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func everyFrameFindsThePrintTheClassicRequestFinds() async throws {
        let program = ModernPrintFinderProgram()
        try program.configure()
        #expect(await program.run(frames: 4))
        let prints = program.found.compactMap { $0 }
        #expect(prints.count >= 4 && prints.count == program.found.count, "a frame without the print")

        let classic = PrintFinderProgram()
        try classic.configure()
        #expect(classic.run(frames: 2))
        let want = try #require(classic.found.compactMap { $0 }.first)
        for print in prints {
            for (got, expected) in zip(
                [print.topLeft, print.topRight, print.bottomRight, print.bottomLeft],
                [want.topLeft, want.topRight, want.bottomRight, want.bottomLeft])
            {
                expectNear(got.cgPoint, expected, 0.005, "against the classic request")
            }
        }
    }
}
