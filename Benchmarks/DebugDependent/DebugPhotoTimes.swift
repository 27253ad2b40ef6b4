import AVFoundation
import Foundation
import XCTest

/// Photos as Apple's samples take them, timed in a dependent package's plain debug build (every
/// dependency compiled without optimisation). tools/bench-debug.sh copies this file into a throwaway
/// package and runs `swift test` there; it is not part of Obscura's own suite. The device and scene
/// come from OBSCURA_DEVICE and OBSCURA_SCENE, as an app's CI would set them: no Obscura call.
final class DebugPhotoTimes: XCTestCase {
    final class Catcher: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        let readsBytes: Bool
        var sizes: [Int] = []
        init(readsBytes: Bool) { self.readsBytes = readsBytes }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
            if readsBytes { sizes.append(photo.fileDataRepresentation()?.count ?? 0) }
        }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) {
            done.signal()
        }
    }

    /// A session as the samples configure it, with the photo output's largest size or the one asked for.
    func session(pixels: Int?) throws -> (AVCaptureSession, AVCapturePhotoOutput) {
        let camera = try XCTUnwrap(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .photo
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(output)
        let sizes = camera.activeFormat.supportedMaxPhotoDimensions
        let chosen = pixels.flatMap { want in sizes.first { Int($0.width) * Int($0.height) == want } } ?? sizes.last
        output.maxPhotoDimensions = try XCTUnwrap(chosen)
        if output.isConstantColorSupported { output.isConstantColorEnabled = true }
        session.commitConfiguration()
        session.startRunning()
        return (session, output)
    }

    func time(_ label: String, pixels: Int?, constantColor: Bool = false, readsBytes: Bool = true) throws {
        let (session, output) = try session(pixels: pixels)
        defer { session.stopRunning() }
        let settings =
            output.availablePhotoCodecTypes.contains(.hevc)
            ? AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.hevc]) : AVCapturePhotoSettings()
        settings.maxPhotoDimensions = output.maxPhotoDimensions
        if constantColor {
            settings.flashMode = .auto
            settings.isConstantColorEnabled = true
            settings.isConstantColorFallbackPhotoDeliveryEnabled = true
        }
        let catcher = Catcher(readsBytes: readsBytes)
        let start = Date()
        output.capturePhoto(with: settings, delegate: catcher)
        catcher.done.wait()
        let seconds = Date().timeIntervalSince(start)
        let d = output.maxPhotoDimensions
        print(
            String(
                format: "debug-time %@: %dx%d, %d photo(s), bytes %@, %.2f s", label, Int(d.width), Int(d.height),
                max(catcher.sizes.count, 1), catcher.sizes.map(String.init).joined(separator: "+"), seconds))
    }

    func testPhoto48MP() throws { try time("photo-48mp", pixels: nil) }
    func testPhoto12MP() throws { try time("photo-12mp", pixels: 4032 * 3024) }
    func testConstantColorPair48MP() throws { try time("constant-color-48mp", pixels: nil, constantColor: true) }
    func testUnreadPhoto48MP() throws { try time("unread-48mp", pixels: nil, readsBytes: false) }
}
