import Obscura
import Foundation
import Imaging
import ObscuraAV
import Testing

/// Display P3 video frames through the public API (spec §2.6), read back as extended linear sRGB.
extension AVCaptureStreamingTests {
    /// One BGRA frame of the `saturated` scene with the device's colour space set to `space`, on the smallest
    /// format that supports Display P3.
    private func saturatedFrame(_ space: AVCaptureColorSpace) throws -> CMSampleBuffer {
        try onDevice("iphone-15-pro") {
            try Emulator.shared.use(scene: "saturated")
            let session = AVCaptureSession()
            let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "wide-colour-test"))
            session.beginConfiguration()
            session.automaticallyConfiguresCaptureDeviceForWideColor = false
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(video)
            session.commitConfiguration()
            let format = try #require(device.formats.filter { $0.supportedColorSpaces.contains(.P3_D65) }.min {
                let a = CMVideoFormatDescriptionGetDimensions($0.formatDescription)
                let b = CMVideoFormatDescriptionGetDimensions($1.formatDescription)
                return Int(a.width) * Int(a.height) < Int(b.width) * Int(b.height)
            })
            try device.lockForConfiguration()
            device.activeFormat = format
            device.activeColorSpace = space
            device.unlockForConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            Emulator.shared.runFrames(1)
            return try #require(recorder.video.first)
        }
    }

    /// The fraction of pixels with a channel below −0.01 or above 1.01, and the most negative channel.
    private func outside(_ linear: FloatPlane) -> (fraction: Double, minimum: Float) {
        var count = 0, minimum = Float.infinity
        for y in 0..<linear.height {
            for x in 0..<linear.width {
                let rgb = SIMD3(linear[x, y, 0], linear[x, y, 1], linear[x, y, 2])
                minimum = min(minimum, rgb.min())
                if rgb.min() < -0.01 || rgb.max() > 1.01 { count += 1 }
            }
        }
        return (Double(count) / Double(linear.width * linear.height), minimum)
    }

    @Test func videoFramesInDisplayP3KeepColoursOutsideSRGB() throws {
        let sample = try saturatedFrame(.P3_D65)
        let image = try #require(sample.imageBuffer)
        #expect(
            CVBufferCopyAttachment(image, kCVImageBufferColorPrimariesKey, nil) as? String == "P3_D65")
        #expect(
            CVBufferCopyAttachment(image, kCVImageBufferTransferFunctionKey, nil) as? String == "IEC_sRGB")
        let linear = try #require(sample.extendedLinearSRGB())
        let (fraction, minimum) = outside(linear)
        // Four P3 patches and four narrow-band ones fill about a fifth of the frame; most lie outside sRGB.
        #expect(fraction > 0.03, "fraction outside sRGB: \(fraction)")
        #expect(minimum < -0.05, "most negative channel: \(minimum)")
        #if !(os(macOS) && arch(x86_64))
        let half = try #require(image.extendedLinearSRGBHalf())
        var negative = 0
        for y in 0..<half.height { for x in 0..<half.width where half[x, y, 0] < -0.01 || half[x, y, 1] < -0.01
            || half[x, y, 2] < -0.01 { negative += 1 } }
        #expect(negative > 0)
        #endif
    }

    @Test func videoFramesInSRGBAreClippedToSRGB() throws {
        let sample = try saturatedFrame(.sRGB)
        let image = try #require(sample.imageBuffer)
        #expect(
            CVBufferCopyAttachment(image, kCVImageBufferColorPrimariesKey, nil) as? String == "ITU_R_709_2")
        let linear = try #require(sample.extendedLinearSRGB())
        let (fraction, minimum) = outside(linear)
        #expect(fraction == 0)
        #expect(minimum >= 0)
    }
}
