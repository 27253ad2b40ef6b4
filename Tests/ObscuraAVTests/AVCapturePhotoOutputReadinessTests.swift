import Obscura
import Foundation
import ObscuraAV
import Testing

/// Previews, zero shutter lag and responsive capture: the rules that raise, and the preview's pixels.
@Suite struct AVCapturePhotoOutputReadinessTests {
    // spec §3.1 [O] pattern, §3.3 [D]: enabling responsive capture without zero shutter lag raises.
    @Test func responsiveCaptureWithoutZeroShutterLagRaises() throws {
        try onDevice {
            let rig = try PhotoRig(start: false)
            rig.output.isZeroShutterLagEnabled = false
            expectException(.invalidArgumentException, "Responsive capture") {
                rig.output.isResponsiveCaptureEnabled = true
            }
            #expect(!rig.output.isResponsiveCaptureEnabled)
        }
    }

    // spec §3.3 [D]: zero shutter lag cannot be enabled on an output without a camera.
    @Test func zeroShutterLagWithoutACameraRaises() {
        let output = AVCapturePhotoOutput()
        expectException(.invalidArgumentException, "Zero shutter lag") { output.isZeroShutterLagEnabled = true }
    }

    // spec §3.2 rule 9 [D]: a preview pixel format outside the available list raises, and the
    // settings' uniqueID stays unused.
    @Test func unavailablePreviewFormatRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings()
            settings.previewPhotoFormat = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_14Bayer_RGGB]
            expectException(.invalidArgumentException, capturePrefix + "Unsupported previewPhotoFormat") {
                rig.output.capturePhoto(with: settings, delegate: RecordingPhotoDelegate())
            }
            settings.previewPhotoFormat = nil
            capture(rig, settings)
        }
    }

    // spec §3.2 rule 9 [D]: a thumbnail codec outside the available list raises.
    @Test func unavailableThumbnailCodecRaises() throws {
        try onDevice {
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings()
            settings.embeddedThumbnailPhotoFormat = [AVVideoCodecKey: AVVideoCodecType.hevc]
            expectException(.invalidArgumentException, "Unsupported embeddedThumbnailPhotoFormat") {
                rig.output.capturePhoto(with: settings, delegate: RecordingPhotoDelegate())
            }
        }
    }

    // spec §5 [D]: the preview is the photo scaled down. A 640 × 480 photo shrunk by exactly 4 to
    // 160 × 120 by averaging keeps each channel's mean: the means agree to within rounding.
    @Test func previewKeepsThePhotosMeanColour() throws {
        try onDevice {
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            settings.previewPhotoFormat = [
                kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA, kCVPixelBufferWidthKey as String: 160,
                kCVPixelBufferHeightKey as String: 160,
            ]
            let photo = try #require(capture(rig, settings).photos.first)
            let full = try #require(photo.pixelBuffer)
            let preview = try #require(photo.previewPixelBuffer)
            #expect(CVPixelBufferGetWidth(full) == 4 * CVPixelBufferGetWidth(preview))
            #expect(CVPixelBufferGetHeight(full) == 4 * CVPixelBufferGetHeight(preview))
            let a = Self.meanBGR(full)
            let b = Self.meanBGR(preview)
            for c in 0..<3 { #expect(abs(a[c] - b[c]) < 0.6, "channel \(c): \(a[c]) vs \(b[c])") }
        }
    }

    static func meanBGR(_ buffer: CVPixelBuffer) -> [Double] {
        _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return [] }
        let (w, h, stride) = (
            CVPixelBufferGetWidth(buffer), CVPixelBufferGetHeight(buffer), CVPixelBufferGetBytesPerRow(buffer)
        )
        var sums = [0.0, 0.0, 0.0]
        for y in 0..<h {
            let row = base.advanced(by: y * stride).assumingMemoryBound(to: UInt8.self)
            for x in 0..<w { for c in 0..<3 { sums[c] += Double(row[4 * x + c]) } }
        }
        return sums.map { $0 / Double(w * h) }
    }

    // spec §3.3 [I]: with fast capture prioritization, an overlapping request is traced as
    // processed for speed.
    @Test func fastCapturePrioritizationIsTracedForOverlappingCaptures() throws {
        try onDevice {
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            rig.output.isResponsiveCaptureEnabled = true
            rig.output.isFastCapturePrioritizationEnabled = true
            Emulator.shared.clearTrace()
            let first = RecordingPhotoDelegate()
            let second = RecordingPhotoDelegate()
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: first)
            rig.output.capturePhoto(with: AVCapturePhotoSettings(), delegate: second)
            #expect(first.waitUntilFinished() && second.waitUntilFinished())
            #expect(Emulator.shared.trace.contains { $0.sentence.contains("Fast capture prioritization") })
        }
    }
}

/// The CGImage of a photo holds the photo's pixels.
@Suite struct CGImageRepresentationTests {
    // spec §5 [D]: the CGImage and the uncompressed buffer of one photo are the same pixels:
    // BGRA bytes read as R, G, B in the other order.
    @Test func cgImageBytesAreThePhotosPixels() throws {
        try onDevice {
            let rig = try PhotoRig()
            defer { rig.session.stopRunning() }
            let settings = AVCapturePhotoSettings(format: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            let photo = try #require(capture(rig, settings).photos.first)
            let buffer = try #require(photo.pixelBuffer)
            let image = try #require(photo.cgImageRepresentation())
            #expect(image.width == CVPixelBufferGetWidth(buffer) && image.height == CVPixelBufferGetHeight(buffer))
            #expect(image.alphaInfo == .noneSkipLast && image.bitsPerPixel == 32)
            let bytes = [UInt8](image.pixelData)
            #expect(bytes.count == image.bytesPerRow * image.height)
            _ = CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { _ = CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            let base = try #require(CVPixelBufferGetBaseAddress(buffer))
            var mismatches = 0
            for y in stride(from: 0, to: image.height, by: 7) {
                let row = base.advanced(by: y * CVPixelBufferGetBytesPerRow(buffer)).assumingMemoryBound(to: UInt8.self)
                for x in stride(from: 0, to: image.width, by: 7) {
                    let i = y * image.bytesPerRow + 4 * x
                    if bytes[i] != row[4 * x + 2] || bytes[i + 1] != row[4 * x + 1] || bytes[i + 2] != row[4 * x] {
                        mismatches += 1
                    }
                }
            }
            #expect(mismatches == 0)
        }
    }
}
