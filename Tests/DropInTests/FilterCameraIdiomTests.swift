import AVFoundation
import CoreImage
import CoreImage.CIFilterBuiltins
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// A filter camera as such apps are written: live BGRA frames from a video data output, each turned into a
    /// `CIImage`, run through a chosen look (a LUT built in code, a preset photo effect, a vignette, sharpening),
    /// and rendered back into a pixel buffer for display.
    @Suite struct FilterCameraIdioms {
        final class FrameGrabber: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private(set) var frame: CVPixelBuffer?
            let ready = DispatchSemaphore(value: 0)

            func captureOutput(
                _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
            ) {
                guard let buffer = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
                let first = lock.withLock { () -> Bool in
                    defer { frame = frame ?? buffer }
                    return frame == nil
                }
                if first { ready.signal() }
            }
        }

        static func liveFrame() throws -> CVPixelBuffer {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            let camera = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            let output = AVCaptureVideoDataOutput()
            output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
            output.alwaysDiscardsLateVideoFrames = true
            let grabber = FrameGrabber()
            output.setSampleBufferDelegate(grabber, queue: DispatchQueue(label: "frames"))
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            #expect(grabber.ready.wait(timeout: .now() + 30) == .success)
            return try #require(grabber.frame)
        }

        /// The 16³ LUT a filter app builds at launch: here, a negative.
        static func negativeCube(dimension: Int) -> Data {
            var values: [Float] = []
            for b in 0..<dimension {
                for g in 0..<dimension {
                    for r in 0..<dimension {
                        let scale = Float(dimension - 1)
                        values += [1 - Float(r) / scale, 1 - Float(g) / scale, 1 - Float(b) / scale, 1]
                    }
                }
            }
            return values.withUnsafeBufferPointer { Data(buffer: $0) }
        }

        /// The BGRA bytes of a rendered frame.
        static func render(_ image: CIImage, like frame: CVPixelBuffer, _ context: CIContext) -> [UInt8] {
            var out: CVPixelBuffer?
            CVPixelBufferCreate(
                nil, CVPixelBufferGetWidth(frame), CVPixelBufferGetHeight(frame), kCVPixelFormatType_32BGRA, nil, &out)
            guard let buffer = out else { return [] }
            context.render(image, to: buffer)
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            guard let base = CVPixelBufferGetBaseAddress(buffer) else { return [] }
            let bytes = CVPixelBufferGetBytesPerRow(buffer) * CVPixelBufferGetHeight(buffer)
            return [UInt8](UnsafeRawBufferPointer(start: base, count: bytes))
        }

        @Test func aLookChainRendersBackIntoAFrame() throws {
            let frame = try Self.liveFrame()
            let context = CIContext()
            let camera = CIImage(cvPixelBuffer: frame)
            let (w, h) = (CVPixelBufferGetWidth(frame), CVPixelBufferGetHeight(frame))
            let rowBytes = CVPixelBufferGetBytesPerRow(frame)
            let original = Self.render(camera, like: frame, context)

            // A negative through a LUT, in sRGB as LUT files are written.
            let lut = CIFilter.colorCubeWithColorSpace()
            lut.inputImage = camera
            lut.cubeDimension = 16
            lut.cubeData = Self.negativeCube(dimension: 16)
            lut.colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
            let negative = Self.render(try #require(lut.outputImage), like: frame, context)
            var worst = 0
            for y in stride(from: 0, to: h, by: 37) {
                for x in stride(from: 0, to: w, by: 41) {
                    let i = y * rowBytes + 4 * x
                    for c in 0..<3 { worst = max(worst, abs(Int(negative[i + c]) - (255 - Int(original[i + c])))) }
                }
            }
            #expect(worst <= 2, "a negative LUT inverts every byte (worst \(worst))")

            // Noir, then a vignette: grey everywhere, and the corners darker than the middle.
            let noir = CIFilter.photoEffectNoir()
            noir.inputImage = camera
            let vignette = CIFilter.vignette()
            vignette.inputImage = noir.outputImage
            vignette.intensity = 1
            vignette.radius = 1
            let sharpen = CIFilter.sharpenLuminance()
            sharpen.inputImage = vignette.outputImage
            let styled = try #require(sharpen.outputImage)
            #expect(styled.extent == camera.extent)
            let look = Self.render(styled, like: frame, context)
            let plainNoir = Self.render(try #require(noir.outputImage), like: frame, context)
            var cornerRatio: [Double] = [], middleRatio: [Double] = []
            for y in stride(from: 0, to: h, by: 16) {
                for x in stride(from: 0, to: w, by: 16) {
                    let i = y * rowBytes + 4 * x
                    #expect(look[i] == look[i + 1] && look[i + 1] == look[i + 2], "grey at (\(x), \(y))")
                    guard plainNoir[i] > 40 else { continue }
                    let ratio = Double(look[i]) / Double(plainNoir[i])
                    let corner = (x < w / 8 || x > 7 * w / 8) && (y < h / 8 || y > 7 * h / 8)
                    let middle = abs(x - w / 2) < w / 8 && abs(y - h / 2) < h / 8
                    if corner { cornerRatio.append(ratio) }
                    if middle { middleRatio.append(ratio) }
                }
            }
            let mean = { (v: [Double]) in v.reduce(0, +) / Double(max(1, v.count)) }
            #expect(!cornerRatio.isEmpty && !middleRatio.isEmpty)
            #expect(
                mean(cornerRatio) < 0.75 * mean(middleRatio),
                "corners \(mean(cornerRatio)), middle \(mean(middleRatio))")
        }

        /// The brightness meter such apps run on each frame: `CIAreaAverage` over the frame, read back as four bytes.
        @Test func theAverageColourOfAFrameIsItsLinearMean() throws {
            let frame = try Self.liveFrame()
            let camera = CIImage(cvPixelBuffer: frame)
            let filter = CIFilter.areaAverage()
            filter.inputImage = camera
            filter.extent = camera.extent
            var bitmap = [UInt8](repeating: 0, count: 4)
            CIContext().render(
                try #require(filter.outputImage), toBitmap: &bitmap, rowBytes: 4,
                bounds: CGRect(x: 0, y: 0, width: 1, height: 1), format: .RGBA8, colorSpace: nil)
            // The same mean from the frame's own bytes: decoded from sRGB, averaged, encoded again.
            let bytes = Self.render(camera, like: frame, CIContext())
            let (w, h) = (CVPixelBufferGetWidth(frame), CVPixelBufferGetHeight(frame))
            let rowBytes = CVPixelBufferGetBytesPerRow(frame)
            func linear(_ code: UInt8) -> Double {
                let v = Double(code) / 255
                return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
            }
            func encoded(_ v: Double) -> Double { v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055 }
            var sums = [0.0, 0.0, 0.0]
            for y in 0..<h {
                for x in 0..<w {
                    // BGRA bytes: red is the third.
                    for (c, offset) in [(0, 2), (1, 1), (2, 0)] {
                        sums[c] += linear(bytes[y * rowBytes + 4 * x + offset])
                    }
                }
            }
            for c in 0..<3 {
                let expected = encoded(sums[c] / Double(w * h)) * 255
                #expect(abs(Double(bitmap[c]) - expected) <= 1.5, "channel \(c): \(bitmap[c]) against \(expected)")
            }
            #expect(bitmap[3] == 255)
        }
    }
}
