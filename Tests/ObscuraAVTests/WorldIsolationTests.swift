import Foundation
import Obscura
import ObscuraTesting
import Testing

/// Worlds scoped to tests: parallel tests on different devices and scenes each see their own.
@Suite struct WorldIsolationTests {
    /// Discovers the camera, starts a free-running stream and checks the world while the other
    /// test does the same on another device and scene.
    static func streamAndCheck(model: String, scene: String, seed: UInt64) async throws {
        let camera = try #require(AVCaptureDevice.default(for: .video))
        #expect(camera.modelID == model)
        let session = AVCaptureSession()
        let output = AVCaptureVideoDataOutput()
        let counter = FrameCounter()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(output)
        output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "isolation"))
        session.commitConfiguration()
        session.startRunning()
        for _ in 0..<5 {
            #expect(counter.frames.wait(timeout: .now() + 30) == .success)
            // Yield so the other test runs between frames.
            try await Task.sleep(nanoseconds: 2_000_000)
            #expect(Emulator.shared.scene == scene)
            #expect(Emulator.shared.seed == seed)
            #expect(AVCaptureDevice.default(for: .video)?.modelID == model)
        }
        session.stopRunning()
    }

    @Test(.obscura(device: "iphone-7-plus", scene: "spoon", seed: 7))
    func sevenPlusSeesTheSpoon() async throws {
        try await Self.streamAndCheck(model: "iPhone 7 Plus", scene: "spoon", seed: 7)
    }

    @Test(.obscura(device: "iphone-15-pro", scene: "hand-on-desk", seed: 9))
    func fifteenProSeesTheHand() async throws {
        try await Self.streamAndCheck(model: "iPhone 15 Pro", scene: "hand-on-desk", seed: 9)
    }
}

/// Counts video frames.
final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let frames = DispatchSemaphore(value: 0)
    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        frames.signal()
    }
}
