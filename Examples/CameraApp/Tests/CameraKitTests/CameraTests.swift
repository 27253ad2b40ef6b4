// The tests run on Linux, where Obscura stands in for the camera; the package names its products there only.
#if os(Linux)
import AVFoundation
import CameraKit
import Foundation
import ObscuraTesting
import Testing

/// The camera's tests, each in a world of its own; Swift Testing runs them in parallel.
@Suite struct CameraTests {
    /// Takes a photo and waits for it.
    static func photo(from camera: Camera) async -> AVCapturePhoto? {
        await withCheckedContinuation { continuation in
            camera.takePhoto { continuation.resume(returning: $0) }
        }
    }

    @Test(.obscura(device: "iphone-15-pro", scene: "violets-warm-room"))
    func fifteenProStreamsAndTakesAConstantColorPhoto() async throws {
        let camera = Camera()
        try camera.configure()
        #expect(camera.photoOutput.isConstantColorEnabled)
        camera.start()
        defer { camera.stop() }
        #expect(camera.waitForFrames(10))
        let photo = try #require(await Self.photo(from: camera))
        #expect(photo.isConstantColorFallbackPhoto == false)
        #expect(photo.resolvedSettings.photoDimensions.width == 4032)
        // The pixels are made when first read: the bytes of a 12 MP photo (a clean synthetic scene
        // compresses well, so a few hundred kilobytes).
        let data = try #require(photo.fileDataRepresentation())
        #expect(data.count > 100_000)
        // Core Image reads the same photo for a thumbnail of the width asked, keeping the 4:3 shape.
        let thumbnail = try #require(Thumbnail.make(from: photo, width: 400))
        #expect(thumbnail.width == 400 && thumbnail.height == 300)
    }

    @Test(.obscura(device: "iphone-7-plus", scene: "hand-on-desk"))
    func sevenPlusHasNoConstantColor() async throws {
        let camera = Camera()
        try camera.configure()
        #expect(!camera.photoOutput.isConstantColorSupported)
        #expect(AVCaptureDevice.default(for: .video)?.modelID == "iPhone 7 Plus")
        camera.start()
        defer { camera.stop() }
        #expect(camera.waitForFrames(5))
        let photo = try #require(await Self.photo(from: camera))
        // Callbacks and metadata only: the pixels are never read, so they are never rendered.
        #expect(photo.resolvedSettings.photoDimensions.width == 4032)
        #expect(photo.isConstantColorFallbackPhoto == false)
    }
}
#endif
