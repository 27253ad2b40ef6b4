import AVFoundation
import Foundation
import ObscuraTesting
import Testing
import Vision

/// The print finder of `PrintFinderProgram` written against iOS 18's Swift interface, as a new scanner app writes it:
/// the video data output's frames go into an `AsyncStream`, and an async loop awaits a configured
/// `DetectRectanglesRequest` on each frame's sample buffer. Apple's names only, so it would build for iOS unchanged.
final class ModernPrintFinderProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let videoOutput = AVCaptureVideoDataOutput()
    private let frameQueue = DispatchQueue(label: "modern print finder frames")
    private let frames: AsyncStream<CMSampleBuffer>
    private let continuation: AsyncStream<CMSampleBuffer>.Continuation

    override init() {
        // The newest frame only: a slow search drops frames rather than falling behind.
        (frames, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        super.init()
    }

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
        continuation.yield(sampleBuffer)
    }

    /// Runs the viewfinder until `count` frames have been searched, and returns each one's best rectangle.
    func findPrints(count: Int) async -> [RectangleObservation?] {
        var request = DetectRectanglesRequest()
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        request.minimumSize = 0.1
        request.quadratureToleranceDegrees = 30
        request.minimumConfidence = 0.5
        session.startRunning()
        defer { session.stopRunning() }
        var found: [RectangleObservation?] = []
        for await frame in frames {
            found.append(try? await request.perform(on: frame).first)
            if found.count == count { break }
        }
        return found
    }
}

@Suite struct ModernPrintFinderProgramTests {
    /// Frame after frame the print is found, where the `VN…` viewfinder finds it in the same scene.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func everyFrameFindsThePrintTheClassicRequestFinds() async throws {
        let program = ModernPrintFinderProgram()
        try program.configure()
        let found = await program.findPrints(count: 4)
        let prints = found.compactMap { $0 }
        #expect(found.count == 4 && prints.count == 4, "a frame without the print")

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
