import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import ImageIO
import MobileCoreServices
import Testing

// A camera written for iOS 7 to 9, as such apps read: an AVCaptureStillImageOutput whose pinch gesture sets the
// connection's videoScaleAndCropFactor within videoMaxScaleAndCropFactor, pictures taken as BGRA sample buffers,
// and the JPEG saved through ImageIO with MobileCoreServices' kUTTypeJPEG. Apple's names only.
extension DropIn {
    @Suite struct StillImageZoomProgramTests {
        final class Camera: @unchecked Sendable {
            let session = AVCaptureSession()
            let stillOutput = AVCaptureStillImageOutput()
            let videoOutput = AVCaptureVideoDataOutput()

            init() throws {
                session.beginConfiguration()
                session.sessionPreset = .vga640x480
                guard let device = AVCaptureDevice.default(for: .video) else { throw CameraError.noCamera }
                let input = try AVCaptureDeviceInput(device: device)
                if session.canAddInput(input) { session.addInput(input) }
                stillOutput.outputSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
                if session.canAddOutput(stillOutput) { session.addOutput(stillOutput) }
                if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
                session.commitConfiguration()
                session.startRunning()
            }

            /// What a pinch handler does: the gesture's scale, kept within what the connection allows.
            func pinch(to scale: CGFloat) {
                guard let connection = stillOutput.connection(with: .video) else { return }
                connection.videoScaleAndCropFactor = min(max(scale, 1), connection.videoMaxScaleAndCropFactor)
            }

            func takePicture() throws -> CMSampleBuffer {
                guard let connection = stillOutput.connection(with: .video) else { throw CameraError.noCamera }
                let done = DispatchSemaphore(value: 0)
                nonisolated(unsafe) var taken: CMSampleBuffer?
                stillOutput.captureStillImageAsynchronously(from: connection) { buffer, _ in
                    taken = buffer
                    done.signal()
                }
                _ = done.wait(timeout: .now() + 60)
                guard let taken else { throw CameraError.noPicture }
                return taken
            }

            deinit { session.stopRunning() }
        }

        enum CameraError: Error { case noCamera, noPicture }

        /// The picture's green channel as a grid of whole numbers, width × height.
        static func green(_ buffer: CMSampleBuffer) throws -> (values: [Int], width: Int, height: Int) {
            let pixels = try #require(CMSampleBufferGetImageBuffer(buffer))
            CVPixelBufferLockBaseAddress(pixels, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(pixels, .readOnly) }
            let width = CVPixelBufferGetWidth(pixels), height = CVPixelBufferGetHeight(pixels)
            let stride = CVPixelBufferGetBytesPerRow(pixels)
            let base = try #require(CVPixelBufferGetBaseAddress(pixels)).assumingMemoryBound(to: UInt8.self)
            var values = [Int](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width { values[y * width + x] = Int(base[y * stride + 4 * x + 1]) }
            }
            return (values, width, height)
        }

        @Test func aPinchScalesAndCropsTheStillPicture() throws {
            let camera = try Camera()
            let still = try #require(camera.stillOutput.connection(with: .video))
            let device = try #require(AVCaptureDevice.default(for: .video))
            // The still picture can be enlarged as far as the camera zooms; video buffers are not scaled at all.
            #expect(still.videoMaxScaleAndCropFactor == device.activeFormat.videoMaxZoomFactor)
            #expect(still.videoMaxScaleAndCropFactor > 2)
            #expect(still.videoScaleAndCropFactor == 1)
            #expect(try #require(camera.videoOutput.connection(with: .video)).videoMaxScaleAndCropFactor == 1)

            let wide = try Self.green(try camera.takePicture())
            camera.pinch(to: 2)
            #expect(still.videoScaleAndCropFactor == 2)
            let zoomed = try Self.green(try camera.takePicture())
            #expect(zoomed.width == wide.width && zoomed.height == wide.height)
            // At 2× the picture is the wide picture's centre half, enlarged: each 4 × 4 block of the zoomed picture
            // matches the 2 × 2 block at its place in the wide picture's centre far better than the 4 × 4 block at
            // the same place in the whole wide picture (which a picture left unzoomed would match). Block means keep
            // the two captures' noise small beside the picture's structure; each picture's gain is matched first,
            // since auto exposure meters the narrower view anew.
            let w = wide.width, h = wide.height
            func mean(_ values: [Int], _ x: Int, _ y: Int, _ size: Int) -> Double {
                var sum = 0
                for dy in 0..<size { for dx in 0..<size { sum += values[(y + dy) * w + x + dx] } }
                return Double(sum) / Double(size * size)
            }
            let zoomedMean = Double(zoomed.values.reduce(0, +)) / Double(w * h)
            var centreSum = 0
            for y in h / 4..<(3 * h / 4) { for x in w / 4..<(3 * w / 4) { centreSum += wide.values[y * w + x] } }
            let centreGain = zoomedMean / (Double(centreSum) / Double(w * h / 4))
            let wholeGain = zoomedMean / (Double(wide.values.reduce(0, +)) / Double(w * h))
            var centre = 0.0, whole = 0.0, count = 0.0
            for y in stride(from: 0, through: h - 4, by: 4) {
                for x in stride(from: 0, through: w - 4, by: 4) {
                    let block = mean(zoomed.values, x, y, 4)
                    centre += abs(block - centreGain * mean(wide.values, w / 4 + x / 2, h / 4 + y / 2, 2))
                    whole += abs(block - wholeGain * mean(wide.values, x, y, 4))
                    count += 1
                }
            }
            #expect(centre / count * 3 < whole / count, "centre \(centre / count), whole \(whole / count)")
        }

        // The JPEG of a still picture, written with MobileCoreServices' type constant as iOS 8 code wrote it.
        @Test func aJPEGSavedWithTheOlderTypeConstant() throws {
            let camera = try Camera()
            camera.stillOutput.outputSettings = [AVVideoCodecKey: AVVideoCodecType.jpeg]
            let buffer = try camera.takePicture()
            let jpeg = try #require(AVCaptureStillImageOutput.jpegStillImageNSDataRepresentation(buffer))
            let source = try #require(CGImageSourceCreateWithData(jpeg as CFData, nil))
            #expect(CGImageSourceGetType(source) as String? == kUTTypeJPEG as String)
            let image = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
            let copy = NSMutableData()
            let destination = try #require(CGImageDestinationCreateWithData(copy as CFMutableData, kUTTypeJPEG, 1, nil))
            CGImageDestinationAddImage(destination, image, nil)
            #expect(CGImageDestinationFinalize(destination))
            let reread = try #require(CGImageSourceCreateWithData(copy as CFData, nil))
            #expect(CGImageSourceGetType(reread) as String? == "public.jpeg")
            #expect(kUTTypeImage as String == UTType.image.identifier && kUTTypeMovie as String == UTType.movie.identifier)
            #expect(kUTTypeQuickTimeMovie as String == AVFileType.mov.rawValue)
        }
    }
}
