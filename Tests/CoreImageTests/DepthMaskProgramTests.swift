import AVFoundation
import CoreImage
import Foundation
import Testing

/// A depth-mask program written as portrait-effect samples write one: a photo with depth from the LiDAR
/// camera, its file read back with Core Image as auxiliary depth, turned to disparity, thresholded into a
/// mask with a colour matrix and a clamp, and the photo blended over a flat background through it.
final class DepthPhotoTaker: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCapturePhotoOutput()
    private let done = DispatchSemaphore(value: 0)
    private(set) var photo: AVCapturePhoto?

    func configure() throws {
        let device = try #require(AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back))
        // The format with depth that takes the smallest photos keeps the test fast (VGA presets have no depth).
        func smallestPhoto(_ f: AVCaptureDevice.Format) -> Int32 { f.supportedMaxPhotoDimensions.map(\.width).min() ?? .max }
        let format = try #require(device.formats.filter { !$0.supportedDepthDataFormats.isEmpty }
            .min { smallestPhoto($0) < smallestPhoto($1) })
        try device.lockForConfiguration()
        device.activeFormat = format
        device.unlockForConfiguration()
        session.beginConfiguration()
        session.sessionPreset = .inputPriority
        let input = try AVCaptureDeviceInput(device: device)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) { session.addOutput(output) }
        output.isDepthDataDeliveryEnabled = output.isDepthDataDeliverySupported
        if let smallest = format.supportedMaxPhotoDimensions.min(by: { $0.width < $1.width }) {
            output.maxPhotoDimensions = smallest
        }
        session.commitConfiguration()
        #expect(output.isDepthDataDeliveryEnabled)
    }

    func capture() throws -> AVCapturePhoto {
        session.startRunning()
        defer { session.stopRunning() }
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.isDepthDataDeliveryEnabled = true
        settings.embedsDepthDataInPhoto = true
        settings.maxPhotoDimensions = output.maxPhotoDimensions
        output.capturePhoto(with: settings, delegate: self)
        guard done.wait(timeout: .now() + 60) == .success, let photo else { throw CocoaError(.fileReadUnknown) }
        return photo
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        self.photo = photo
        done.signal()
    }
}

@Suite struct DepthMaskProgramTests {
    @Test func auxiliaryDepthToDisparityToAMaskThenABlend() throws {
        let taker = DepthPhotoTaker()
        try taker.configure()
        let photo = try taker.capture()
        let data = try #require(photo.fileDataRepresentation())

        // The program: depth from the file, disparity, a mask of what is nearer than 1 m (disparity above
        // 1/m), hard-edged by a gain of 20 around it.
        let depthImage = try #require(CIImage(data: data, options: [.auxiliaryDepth: true]))
        let disparity = depthImage.applyingFilter("CIDepthToDisparity")
        let (gain, threshold): (CGFloat, CGFloat) = (20, 1)
        let mask = disparity
            .applyingFilter("CIColorMatrix", parameters: [
                "inputRVector": CIVector(x: gain, y: 0, z: 0, w: 0), "inputGVector": CIVector(x: gain, y: 0, z: 0, w: 0),
                "inputBVector": CIVector(x: gain, y: 0, z: 0, w: 0), "inputAVector": CIVector(x: gain, y: 0, z: 0, w: 0),
                "inputBiasVector": CIVector(x: -gain * threshold, y: -gain * threshold, z: -gain * threshold, w: -gain * threshold),
            ])
            .applyingFilter("CIColorClamp")

        // The reference: the photo's own depth, read with AVDepthData, through the same closed form.
        let reference = try #require(photo.depthData).converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        let map = reference.depthDataMap
        let (w, h) = (CVPixelBufferGetWidth(map), CVPixelBufferGetHeight(map))
        #expect(depthImage.extent == CGRect(x: 0, y: 0, width: w, height: h))
        CVPixelBufferLockBaseAddress(map, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(map, .readOnly) }
        let base = CVPixelBufferGetBaseAddress(map)!, rowBytes = CVPixelBufferGetBytesPerRow(map)
        // The mask's alpha, read through a context that leaves values as they are.
        let context = CIContext(options: [.workingColorSpace: NSNull()])
        var buffer: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, w, h, kCVPixelFormatType_64RGBAHalf, nil, &buffer)
        let out = try #require(buffer)
        context.render(mask, to: out)
        CVPixelBufferLockBaseAddress(out, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(out, .readOnly) }
        let maskBase = CVPixelBufferGetBaseAddress(out)!, maskStride = CVPixelBufferGetBytesPerRow(out)
        var agree = 0, decided = 0, near = 0
        for y in 0..<h {
            let depthRow = (base + y * rowBytes).assumingMemoryBound(to: Float.self)
            let maskRow = (maskBase + y * maskStride).assumingMemoryBound(to: Float16.self)
            for x in 0..<w {
                let z = depthRow[x]
                guard z.isFinite, z > 0 else { continue }
                let expected = min(max(Float(gain) * (1 / z - Float(threshold)), 0), 1)
                // The file's depth is quantised to 8 bits; pixels within a step of the threshold may differ.
                guard expected == 0 || expected == 1 else { continue }
                decided += 1
                if expected == 1 { near += 1 }
                if abs(Float(maskRow[4 * x + 3]) - expected) < 0.25 { agree += 1 }
            }
        }
        #expect(decided > w * h / 2)
        #expect(Double(agree) >= 0.98 * Double(decided), "\(agree) of \(decided) mask pixels agree")

        // The blend: the mask stretched over the photo, the photo where it is 1, flat grey where it is 0.
        let image = try #require(CIImage(data: data))
        let scaled = mask.transformed(by: CGAffineTransform(scaleX: image.extent.width / CGFloat(w), y: image.extent.height / CGFloat(h)))
        let background = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: image.extent)
        let blend = CIFilter.blendWithAlphaMask()
        blend.inputImage = image
        blend.backgroundImage = background
        blend.maskImage = scaled
        let blended = try #require(blend.outputImage)
        let (photoWidth, photoHeight) = (Int(image.extent.width), Int(image.extent.height))
        let context8 = CIContext()
        /// One pixel of an image as the default context renders it, at a row counted from the top.
        func pixel(_ image: CIImage, _ x: Int, _ yFromTop: Int) throws -> [UInt8] {
            let rect = CGRect(x: x, y: photoHeight - 1 - yFromTop, width: 1, height: 1)
            return Array([UInt8](try #require(context8.createCGImage(image, from: rect)).dataProvider!.data! as Data)[0..<3])
        }
        func maskValue(_ x: Int, _ y: Int) -> Float {
            Float((maskBase + y * maskStride).assumingMemoryBound(to: Float16.self)[4 * x + 3])
        }
        var checked = 0
        // Pixels under depth samples whose whole 3 × 3 neighbourhood of the mask is decided one way.
        for y in stride(from: 1, to: h - 1, by: 16) {
            for x in stride(from: 1, to: w - 1, by: 16) {
                var values: [Float] = []
                for dy in -1...1 { for dx in -1...1 { values.append(maskValue(x + dx, y + dy)) } }
                guard values.allSatisfy({ $0 == 0 }) || values.allSatisfy({ $0 == 1 }) else { continue }
                // The photo pixel under the depth sample's centre.
                let px = Int((Double(x) + 0.5) * Double(photoWidth) / Double(w))
                let py = Int((Double(y) + 0.5) * Double(photoHeight) / Double(h))
                let expected: [UInt8] = values[0] == 1 ? try pixel(image, px, py) : [128, 128, 128]
                let seen = try pixel(blended, px, py)
                #expect(zip(seen, expected).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(seen) against \(expected)")
                checked += 1
            }
        }
        #expect(checked > 20)
        #expect(near > decided / 50 && near < decided - decided / 50, "both sides of the threshold: \(near) of \(decided) near")
    }
}
