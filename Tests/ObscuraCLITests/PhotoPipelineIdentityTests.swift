import Foundation
import Imaging
import Obscura
import ObscuraAV
import Testing

/// One ordinary-photo pipeline behind the capture API and `obscura render`: the same scene, device,
/// exposure and seed give the same pixels through either.
@Suite(.serialized) struct PhotoPipelineIdentityTests {
    /// Waits for the one photo of a capture.
    final class PhotoCatcher: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private let done = DispatchSemaphore(value: 0)
        private var caught: AVCapturePhoto?

        var photo: AVCapturePhoto? { lock.withLock { caught } }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?
        ) {
            lock.withLock { caught = photo }
        }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) {
            done.signal()
        }

        func wait() -> Bool { done.wait(timeout: .now() + 120) == .success }
    }

    /// A 640×480 flash photo of violets-warm-room at ISO 100, 1/50 s, through the API, with the
    /// emulator's seed set to `seed`.
    static func apiPhoto(seed: UInt64) throws -> PNGImage {
        try Emulator.shared.withDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: "violets-warm-room")
            let previousSeed = Emulator.shared.seed
            Emulator.shared.seed = seed
            defer { Emulator.shared.seed = previousSeed }
            let session = AVCaptureSession()
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: device)
            let output = AVCapturePhotoOutput()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(input)
            session.addOutput(output)
            session.commitConfiguration()
            try device.lockForConfiguration()
            device.setExposureModeCustom(duration: CMTime(value: 1, timescale: 50), iso: 100)
            device.unlockForConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            // Uncompressed, so the file is a lossless PNG to compare pixel by pixel.
            let settings = AVCapturePhotoSettings(format: [
                kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)
            ])
            settings.flashMode = .on
            let catcher = PhotoCatcher()
            output.capturePhoto(with: settings, delegate: catcher)
            #expect(catcher.wait())
            let data = try #require(catcher.photo?.fileDataRepresentation())
            return try PNG.decode([UInt8](data))
        }
    }

    @Test func apiPhotoAndRenderCommandGiveTheSamePixels() throws {
        let api = try Self.apiPhoto(seed: 11)
        #expect(api.textValue(forKey: "Obscura.ExposureTime") == "0.02")
        #expect(api.textValue(forKey: "Obscura.ISO") == "100.0")
        // The API derives each capture's noise seed from the emulator's seed and the capture's
        // ordinal, and writes it into the file; the CLI takes it as given.
        let seed = try #require(api.textValue(forKey: "Obscura.Seed"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("render.png").path
        let result = try CLIRunner.run([
            "render", "violets-warm-room", "--device", "iphone-15-pro", "--size", "640x480", "--flash",
            "--exposure", "100,1/50", "--seed", seed, "--out", out,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let cli = try PNG.read(contentsOf: out)
        // One set of metadata keys for both paths.
        #expect(Set(api.text.map(\.key)) == Set(cli.text.map(\.key)))
        #expect(cli.textValue(forKey: "Obscura.ExposureTime") == "0.02")
        guard case let .eightBit(a) = api.pixels, case let .eightBit(c) = cli.pixels else {
            Issue.record("expected 8-bit photos")
            return
        }
        #expect(a.width == 640 && a.height == 480)
        #expect(a == c)
        // A different seed changes the noise, so the comparison can fail.
        let other = try Self.apiPhoto(seed: 12)
        guard case let .eightBit(o) = other.pixels else { return }
        #expect(o != a)
    }
}
