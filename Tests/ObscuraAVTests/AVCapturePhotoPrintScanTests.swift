import Foundation
import Obscura
import Testing

/// The print-scanner workflow on a captured photo: find the print, flatten it to its true shape.
@Suite struct AVCapturePhotoPrintScanTests {
    /// The instant-photo scene's print is 88 × 107 mm (its scene file), lying on the table and seen obliquely from
    /// about 22° off the vertical; the photo's intrinsics are the profile's (fx = fy = 5590.94, principal point
    /// (4035.5, 3022) at 8064 × 6048) scaled to the photo.
    @Test func scannedPrintHasThePrintsAspectRatio() throws {
        try onDevice {
            try Emulator.shared.use(scene: "instant-photo")
            let rig = try PhotoRig()
            let delegate = capture(rig, AVCapturePhotoSettings())
            let photo = try #require(delegate.photos.first)
            let image = try #require(photo.cgImageRepresentation())
            let k = try #require(photo.pixelIntrinsicMatrix)
            let scale = Double(image.width) / 8064
            #expect(abs(Double(k.columns.0.x) - 5590.94 * scale) < 1e-3 * 5590.94 * scale)
            #expect(abs(Double(k.columns.1.y) - 5590.94 * scale) < 1e-3 * 5590.94 * scale)
            #expect(abs(Double(k.columns.2.x) - 4035.5 * scale) < 0.01)
            #expect(abs(Double(k.columns.2.y) - 3022 * scale) < 0.01)
            let scan = try #require(photo.scannedPrint())
            let truth = 88.0 / 107
            #expect(scan.aspectRatioSource == .cameraIntrinsics)
            #expect(abs(scan.aspectRatio / truth - 1) < 0.03, "aspect ratio \(scan.aspectRatio)")
            #expect(abs(Double(scan.image.width) / Double(scan.image.height) / truth - 1) < 0.03)
            #expect(scan.confidence > 0.5)
        }
    }
}
