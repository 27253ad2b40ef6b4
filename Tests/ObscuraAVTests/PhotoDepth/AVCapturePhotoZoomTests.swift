import Obscura
import Foundation
import ObscuraAV
import Testing

/// The processed photo follows `videoZoomFactor` (spec §2.2): with depth delivery the dual camera
/// is held at 2×, and the photo shows half the field of view.
struct AVCapturePhotoZoomTests {
    /// Width in pixels of the bright card across the photo's middle row: pixels brighter than the
    /// midpoint between the wall (reflectance 0.5) and the card (0.8) at the centre.
    static func cardWidth(_ photo: AVCapturePhoto) throws -> Int {
        let buffer = try #require(photo.pixelBuffer)
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let w = CVPixelBufferGetWidth(buffer), h = CVPixelBufferGetHeight(buffer)
        let row = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
            + (h / 2) * CVPixelBufferGetBytesPerRow(buffer)
        let green = (0..<w).map { Int(row[4 * $0 + 1]) }
        let threshold = (green[w / 2] + green[2]) / 2
        return green.filter { $0 > threshold }.count
    }

    @Test func depthLockedTwoTimesZoomDoublesTheCard() throws {
        try onDevice("iphone-7-plus") {
            try Emulator.shared.use(scene: DepthScenes.occluder(near: 1, far: 3, cardSize: 0.2))
            let settings = { AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]) }
            let plain = try AVCapturePhotoDepthTests.dualRig(depth: false)
            #expect(plain.device.videoZoomFactor == 1)
            let one = try Self.cardWidth(try #require(capture(plain, settings()).photos.first))
            plain.session.stopRunning()
            let zoomed = try AVCapturePhotoDepthTests.dualRig(depth: true)
            #expect(zoomed.device.videoZoomFactor == 2)
            let two = try Self.cardWidth(try #require(capture(zoomed, settings()).photos.first))
            #expect(one > 20)
            #expect(abs(Double(two) / Double(one) - 2) < 0.1, "1×: \(one) px, 2×: \(two) px")
        }
    }
}
