import AVFoundation
import Foundation
import Testing

// Preview-sized buffers as tracking and barcode apps ask for them: the automatic configuration turned off, then
// small buffers from a large format, or full-size ones kept on purpose.

extension DropIn {
    @Suite struct PreviewSizedBufferIdiomTests {
        final class FirstFrame: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private var kept: CMSampleBuffer?
            let arrived = DispatchSemaphore(value: 0)
            var sample: CMSampleBuffer? { lock.withLock { kept } }

            func captureOutput(
                _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
            ) {
                let first = lock.withLock { () -> Bool in
                    guard kept == nil else { return false }
                    kept = sampleBuffer
                    return true
                }
                if first { arrived.signal() }
            }
        }

        @Test func aFourKFormatDeliversPreviewSizedBuffersOnRequest() throws {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.beginConfiguration()
            session.sessionPreset = .hd4K3840x2160
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()

            // Automatic: full-size buffers, and a request for small ones waits for the automatic mode to go.
            #expect(output.automaticallyConfiguresOutputBufferDimensions)
            #expect(!output.deliversPreviewSizedOutputBuffers)
            output.deliversPreviewSizedOutputBuffers = true
            #expect(!output.deliversPreviewSizedOutputBuffers)
            #expect(output.videoSettings[kCVPixelBufferWidthKey as String] as? Int == 3840)
            #expect(output.videoSettings[kCVPixelBufferHeightKey as String] as? Int == 2160)

            output.automaticallyConfiguresOutputBufferDimensions = false
            output.deliversPreviewSizedOutputBuffers = true
            #expect(output.deliversPreviewSizedOutputBuffers)
            #expect(output.videoSettings[kCVPixelBufferWidthKey as String] as? Int == 1920)
            #expect(output.videoSettings[kCVPixelBufferHeightKey as String] as? Int == 1080)
            let writer = output.recommendedVideoSettingsForAssetWriter(writingTo: .mov)
            #expect(writer?[AVVideoWidthKey] as? Int == 1920 && writer?[AVVideoHeightKey] as? Int == 1080)
            // A writer timescale that counts every frame time in whole units.
            let scale = output.recommendedMediaTimeScaleForAssetWriter
            #expect(scale >= 600 && scale % camera.activeVideoMinFrameDuration.timescale == 0)

            let connection = try #require(output.connection(with: .video))
            if connection.isCameraIntrinsicMatrixDeliverySupported {
                connection.isCameraIntrinsicMatrixDeliveryEnabled = true
            }
            let frames = FirstFrame()
            output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
            session.startRunning()
            defer { session.stopRunning() }
            #expect(frames.arrived.wait(timeout: .now() + 60) == .success)
            let sample = try #require(frames.sample)
            let image = try #require(CMSampleBufferGetImageBuffer(sample))
            #expect(CVPixelBufferGetWidth(image) == 1920 && CVPixelBufferGetHeight(image) == 1080)
            // The same view, smaller: the focal length in pixels follows the format's field of view at 1920 pixels.
            let data = try #require(
                CMGetAttachment(sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil)
                    as? Data)
            let k = data.withUnsafeBytes { $0.loadUnaligned(as: matrix_float3x3.self) }
            let halfAngle = Double(camera.activeFormat.videoFieldOfView) / 2 * .pi / 180
            let expected = 960 / tan(halfAngle)
            #expect(abs(Double(k.columns.0.x) - expected) < 0.02 * expected, "fx \(k.columns.0.x), \(expected)")
        }

        @Test func thePhotoPresetStreamsItsOwnSizeEitherWay() throws {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            session.beginConfiguration()
            session.sessionPreset = .photo
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addOutput(output)
            session.commitConfiguration()
            let size = camera.activeFormat.formatDescription.dimensions
            for preview in [false, true] {
                output.automaticallyConfiguresOutputBufferDimensions = false
                output.deliversPreviewSizedOutputBuffers = preview
                #expect(output.videoSettings[kCVPixelBufferWidthKey as String] as? Int == Int(size.width))
                #expect(output.videoSettings[kCVPixelBufferHeightKey as String] as? Int == Int(size.height))
            }
        }
    }
}
