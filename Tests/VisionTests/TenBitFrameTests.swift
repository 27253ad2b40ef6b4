import AVFoundation
import CoreImage
import Foundation
import ObscuraTesting
import Testing
import Vision

/// One frame from the back camera, taken as an HDR video app takes it: the camera's 10-bit format made active
/// (or an 8-bit one), the video data output asked for a pixel format or left at its default.
final class OneFrameProgram: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    private let arrived = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var frame: CVPixelBuffer?

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        lock.withLock { if frame == nil { frame = CMSampleBufferGetImageBuffer(sampleBuffer) } }
        arrived.signal()
    }

    /// The camera's first format whose pixel format is `code`.
    static func format(_ camera: AVCaptureDevice, _ code: OSType) -> AVCaptureDevice.Format? {
        camera.formats.first { CMFormatDescriptionGetMediaSubType($0.formatDescription) == code }
    }

    /// The formats the output offers once configured, and its first frame.
    static func take(activeFormat code: OSType, pixelFormat: OSType?) throws -> (offered: [OSType], frame: CVPixelBuffer) {
        let program = OneFrameProgram()
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        let session = program.session, output = program.output
        session.beginConfiguration()
        session.addInput(try AVCaptureDeviceInput(device: camera))
        output.setSampleBufferDelegate(program, queue: DispatchQueue(label: "frames"))
        session.addOutput(output)
        try camera.lockForConfiguration()
        camera.activeFormat = try #require(format(camera, code))
        camera.unlockForConfiguration()
        if let pixelFormat { output.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat] }
        session.commitConfiguration()
        let offered = output.availableVideoPixelFormatTypes
        session.startRunning()
        defer { session.stopRunning() }
        #expect(program.arrived.wait(timeout: .now() + 60) == .success)
        return (offered, try #require(program.lock.withLock { program.frame }))
    }
}

/// The codes of a bi-planar buffer's plane: 8-bit samples as they are, 10-bit ones from the high bits of their
/// 16-bit words, checking that the low six bits are clear.
private func codes(_ buffer: CVPixelBuffer, plane: Int) -> (values: [Int], lowBitsClear: Bool) {
    CVPixelBufferLockBaseAddress(buffer, .readOnly)
    defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
    let tenBit = [kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange]
        .contains(CVPixelBufferGetPixelFormatType(buffer))
    let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane)!, stride = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
    let samples = CVPixelBufferGetWidthOfPlane(buffer, plane) * (plane == 0 ? 1 : 2)
    var values: [Int] = [], clear = true
    for y in 0..<CVPixelBufferGetHeightOfPlane(buffer, plane) {
        let row = base + y * stride
        for x in 0..<samples {
            if tenBit {
                let word = UInt16(littleEndian: row.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self))
                clear = clear && word & 0x3F == 0
                values.append(Int(word >> 6))
            } else {
                values.append(Int(row.load(fromByteOffset: x, as: UInt8.self)))
            }
        }
    }
    return (values, clear)
}

@Suite struct TenBitFrameTests {
    static let x420 = kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange
    static let xf20 = kCVPixelFormatType_420YpCbCr10BiPlanarFullRange

    /// A 10-bit format's frames come as 10-bit Y'CbCr unless the app asks otherwise, as the format's own pixel
    /// format; the output offers both 10-bit ranges first. Video-range codes lie in 64–940 (luma) and 64–960
    /// (chroma), ten bits at the top of each 16-bit word (BT.601 §2.5 for ten bits).
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func aTenBitFormatDeliversTenBitFramesByDefault() throws {
        let (offered, frame) = try OneFrameProgram.take(activeFormat: Self.x420, pixelFormat: nil)
        #expect(Array(offered.prefix(2)) == [Self.x420, Self.xf20])
        #expect(offered.contains(kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange))
        #expect(CVPixelBufferGetPixelFormatType(frame) == Self.x420)
        #expect(CVPixelBufferGetWidth(frame) == 3840 && CVPixelBufferGetHeight(frame) == 2160)
        let luma = codes(frame, plane: 0), chroma = codes(frame, plane: 1)
        #expect(luma.lowBitsClear && chroma.lowBitsClear)
        #expect(luma.values.allSatisfy { (64...940).contains($0) })
        #expect(chroma.values.allSatisfy { (64...960).contains($0) })
        #expect(Set(luma.values).count > 100, "a picture, not a flat fill")
    }

    /// Both ranges hold the same picture as the 8-bit frames of the same moment: ten-bit codes are the 8-bit ones
    /// scaled by 4 (video range) or 1023/255 (full range), within the 8-bit codes' own rounding: the colours'
    /// half code moves Y', Cb or Cr by at most half a code of its scale, the 8-bit rounding by half a code more,
    /// and scaled to ten bits with the 10-bit rounding's half that is at most 4.51 codes (full-range chroma).
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func tenBitFramesHoldTheEightBitPicture() throws {
        for (ten, eight, scale) in [
            (Self.x420, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, 4.0),
            (Self.xf20, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, 1023.0 / 255),
        ] {
            let wide = try OneFrameProgram.take(activeFormat: Self.x420, pixelFormat: ten).frame
            let narrow = try OneFrameProgram.take(activeFormat: Self.x420, pixelFormat: eight).frame
            #expect(CVPixelBufferGetPixelFormatType(wide) == ten)
            for plane in 0..<2 {
                let a = codes(wide, plane: plane).values, b = codes(narrow, plane: plane).values
                #expect(a.count == b.count)
                let worst = zip(a, b).map { abs(Double($0) - scale * Double($1)) }.max() ?? .infinity
                #expect(worst <= 4.52, "plane \(plane) of \(ten): \(worst)")
            }
        }
    }

    /// An 8-bit format offers no 10-bit pixel format, and delivers its own.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func anEightBitFormatOffersNoTenBitPixelFormats() throws {
        let (offered, frame) = try OneFrameProgram.take(
            activeFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, pixelFormat: nil)
        #expect(!offered.contains(Self.x420) && !offered.contains(Self.xf20))
        #expect(CVPixelBufferGetPixelFormatType(frame) == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange)
    }

    /// Core Image and Vision read 10-bit frames as they read 8-bit ones: the rendered picture agrees within the
    /// 8-bit frame's rounding, and the rectangle request finds the print at the same corners.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func coreImageAndVisionReadTenBitFrames() throws {
        let wide = try OneFrameProgram.take(activeFormat: Self.x420, pixelFormat: Self.x420).frame
        let narrow = try OneFrameProgram.take(
            activeFormat: Self.x420, pixelFormat: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        ).frame
        let context = CIContext()
        func bytes(_ buffer: CVPixelBuffer) throws -> [UInt8] {
            let image = CIImage(cvPixelBuffer: buffer)
            let cg = try #require(context.createCGImage(image, from: image.extent))
            return [UInt8](cg.dataProvider!.data! as Data)
        }
        let a = try bytes(wide), b = try bytes(narrow)
        #expect(a.count == b.count)
        let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? .max
        #expect(worst <= 4, "largest difference \(worst)")

        func corners(_ buffer: CVPixelBuffer) throws -> [CGPoint] {
            let request = PrintFinderProgram.printRequest()
            try VNImageRequestHandler(cvPixelBuffer: buffer, options: [:]).perform([request])
            let found = try #require(request.results?.first)
            return [found.topLeft, found.topRight, found.bottomRight, found.bottomLeft]
        }
        for (p, q) in zip(try corners(wide), try corners(narrow)) {
            #expect(hypot(p.x - q.x, p.y - q.y) < 0.005)
        }
    }
}
