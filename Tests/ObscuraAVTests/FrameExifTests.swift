import Foundation
import Obscura
import Testing

/// The `{Exif}` attachment of video frames, read as light-meter code reads it: the frame's exposure, the lens,
/// and the scene's brightness in APEX units.
@Suite struct FrameExifTests {
    final class FrameTaker: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var kept: [String: Any]?
        let done = DispatchSemaphore(value: 0)
        let wanted: Int
        init(wanted: Int) { self.wanted = wanted }

        func captureOutput(
            _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
        ) {
            let n = lock.withLock { count += 1; return count }
            guard n == wanted else { return }
            let attachments = CMCopyDictionaryOfAttachments(
                allocator: kCFAllocatorDefault, target: sampleBuffer, attachmentMode: kCMAttachmentMode_ShouldPropagate)
            lock.withLock { kept = (attachments as? [String: Any])?[kCGImagePropertyExifDictionary as String] as? [String: Any] }
            done.signal()
        }
        var exif: [String: Any]? { lock.withLock { kept } }
    }

    /// The `{Exif}` of a frame of a grey card (reflectance 0.5) at `lux`, with the exposure biased by `bias` EV.
    static func frameExif(lux: Double, bias: Float = 0) throws -> [String: Any] {
        try Emulator.shared.use(scene: PhotoScenes.greyCard(lux: lux, distance: 1))
        let session = AVCaptureSession()
        let device = try #require(AVCaptureDevice.default(for: .video))
        try device.lockForConfiguration()
        device.setExposureTargetBias(bias)
        device.unlockForConfiguration()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        let output = AVCaptureVideoDataOutput()
        let taker = FrameTaker(wanted: 5)
        output.setSampleBufferDelegate(taker, queue: DispatchQueue(label: "frames"))
        session.addOutput(output)
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        #expect(taker.done.wait(timeout: .now() + 60) == .success)
        return try #require(taker.exif)
    }

    // APEX (ASA PH2.5-1960): Bv = Av + Tv − Sv of the exposure the metering chose, so sixteen times the light is
    // four stops of brightness whatever exposure the frame was taken with; the exposure and lens are the frame's.
    @Test func framesCarryTheExposureAndTheScenesBrightness() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            var brightness: [Double] = []
            for lux in [50.0, 800.0] {
                let exif = try Self.frameExif(lux: lux)
                let bv = try #require(exif[kCGImagePropertyExifBrightnessValue as String] as? Double)
                let time = try #require(exif[kCGImagePropertyExifExposureTime as String] as? Double)
                let iso = try #require((exif[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])?.first)
                let fNumber = try #require(exif[kCGImagePropertyExifFNumber as String] as? Double)
                #expect(abs(fNumber - Double(device.lensAperture)) < 0.01)
                #expect(time > 0 && time <= device.activeMaxExposureDuration.seconds + 1e-9 && iso > 0)
                // The frame's own settings in APEX: Tv = −log₂ t, Av = 2 log₂ N.
                let tv = try #require(exif["ShutterSpeedValue"] as? Double)
                let av = try #require(exif["ApertureValue"] as? Double)
                #expect(abs(tv + log2(time)) < 1e-9 && abs(av - 2 * log2(fNumber)) < 1e-9)
                brightness.append(bv)
            }
            #expect(abs(brightness[1] - brightness[0] - 4) < 0.2, "\(brightness)")
        }
    }

    // An exposure bias moves the exposure, not the scene: Bv stays, and the bias is reported.
    @Test func exposureBiasLeavesTheBrightness() throws {
        try onDevice {
            let plain = try Self.frameExif(lux: 200)
            let biased = try Self.frameExif(lux: 200, bias: 1)
            let a = try #require(plain[kCGImagePropertyExifBrightnessValue as String] as? Double)
            let b = try #require(biased[kCGImagePropertyExifBrightnessValue as String] as? Double)
            #expect(abs(a - b) < 0.05, "\(a) against \(b)")
            #expect(biased[kCGImagePropertyExifExposureBiasValue as String] as? Double == 1)
            let t0 = try #require(plain[kCGImagePropertyExifExposureTime as String] as? Double)
            let t1 = try #require(biased[kCGImagePropertyExifExposureTime as String] as? Double)
            let i0 = try #require((plain[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])?.first)
            let i1 = try #require((biased[kCGImagePropertyExifISOSpeedRatings as String] as? [Int])?.first)
            // One stop more exposure (time × ISO doubles, within the ISO's rounding).
            #expect(abs(log2(t1 * Double(i1) / (t0 * Double(i0))) - 1) < 0.1)
        }
    }
}
