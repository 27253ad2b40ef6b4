import Obscura
import Foundation
import ObscuraAV
import Testing

/// A video data output's buffers follow the connection's rotation and mirroring, as on a device (spec §1.5).
extension AVCaptureStreamingTests {
    /// One frame in `format` with the connection rotated by `angle` and mirrored or not, with its intrinsics.
    private func frame(
        _ format: OSType, angle: CGFloat, mirrored: Bool = false
    ) throws -> (buffer: CVPixelBuffer, intrinsics: matrix_float3x3, dimensions: CMVideoDimensions) {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(type: .builtInWideAngleCamera, outputs: ["video"])
            rig.video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(format)]
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            let connection = try #require(rig.video.connection(with: .video))
            connection.isCameraIntrinsicMatrixDeliveryEnabled = true
            connection.videoRotationAngle = angle
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = mirrored
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(1)
            let sample = try #require(recorder.video.first)
            let data = try #require(
                CMGetAttachment(
                    sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil) as? Data)
            let k = data.withUnsafeBytes { $0.loadUnaligned(as: matrix_float3x3.self) }
            let description = try #require(sample.formatDescription)
            return (try #require(sample.imageBuffer), k, description.dimensions)
        }
    }

    /// The bytes of pixel (x, y) of plane `plane`, `size` bytes wide.
    private func pixel(_ buffer: CVPixelBuffer, plane: Int, _ x: Int, _ y: Int, size: Int) -> [UInt8] {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane) else { return [] }
        let row = base + y * CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
        return (0..<size).map { row.load(fromByteOffset: x * size + $0, as: UInt8.self) }
    }

    /// Projects a camera-frame point with an intrinsic matrix.
    private func project(_ k: matrix_float3x3, _ p: SIMD3<Float>) -> SIMD2<Float> {
        let h = k * p
        return SIMD2(h.x / h.z, h.y / h.z)
    }

    // spec §1.5 [D]: portrait rotates the buffer 90° clockwise; the pixel at (x, y) lands at (H − 1 − y, x).
    @Test func portraitConnectionRotatesBGRABuffersAndIntrinsics() throws {
        let upright = try frame(kCVPixelFormatType_32BGRA, angle: 0)
        let portrait = try frame(kCVPixelFormatType_32BGRA, angle: 90)
        let (w, h) = (CVPixelBufferGetWidth(upright.buffer), CVPixelBufferGetHeight(upright.buffer))
        #expect(CVPixelBufferGetWidth(portrait.buffer) == h && CVPixelBufferGetHeight(portrait.buffer) == w)
        #expect(portrait.dimensions.width == Int32(h) && portrait.dimensions.height == Int32(w))
        for (x, y) in [(0, 0), (w - 1, 0), (17, 401), (w / 2, h / 3), (w - 1, h - 1)] {
            #expect(
                pixel(upright.buffer, plane: 0, x, y, size: 4)
                    == pixel(portrait.buffer, plane: 0, h - 1 - y, x, size: 4))
        }
        // A point (X, Y, Z) of the sensor's camera frame is (−Y, X, Z) in the turned frame; both matrices must
        // put it where the rotation puts its pixel: (u, v) → (H − v, u).
        let p = SIMD3<Float>(0.3, -0.2, 2)
        let uv = project(upright.intrinsics, p)
        let turned = project(portrait.intrinsics, SIMD3(-p.y, p.x, p.z))
        #expect(abs(turned.x - (Float(h) - uv.y)) < 1e-3 && abs(turned.y - uv.x) < 1e-3)
    }

    // spec §1.5 [D]: a mirrored landscape buffer flips each row; the mirrored intrinsics flip x.
    @Test func mirroredConnectionFlipsRowsAndPrincipalPoint() throws {
        let plain = try frame(kCVPixelFormatType_32BGRA, angle: 0)
        let mirrored = try frame(kCVPixelFormatType_32BGRA, angle: 0, mirrored: true)
        let w = CVPixelBufferGetWidth(plain.buffer)
        for (x, y) in [(0, 0), (5, 9), (w - 1, 300)] {
            #expect(
                pixel(plain.buffer, plane: 0, x, y, size: 4) == pixel(mirrored.buffer, plane: 0, w - 1 - x, y, size: 4))
        }
        #expect(abs(mirrored.intrinsics.columns.2.x - (Float(w) - plain.intrinsics.columns.2.x)) < 1e-3)
        #expect(mirrored.intrinsics.columns.2.y == plain.intrinsics.columns.2.y)
    }

    // spec §1.5 [D]: bi-planar 4:2:0 rotates both planes; chroma moves as CbCr pairs on the half-size grid.
    @Test func upsideDownConnectionRotatesBiPlanarBuffers() throws {
        let format = kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
        let upright = try frame(format, angle: 0)
        let turned = try frame(format, angle: 180)
        let (w, h) = (CVPixelBufferGetWidth(upright.buffer), CVPixelBufferGetHeight(upright.buffer))
        #expect(CVPixelBufferGetWidth(turned.buffer) == w)
        for (x, y) in [(0, 0), (w - 1, 2), (100, 200)] {
            #expect(
                pixel(upright.buffer, plane: 0, x, y, size: 1)
                    == pixel(turned.buffer, plane: 0, w - 1 - x, h - 1 - y, size: 1))
        }
        let cw = CVPixelBufferGetWidthOfPlane(upright.buffer, 1), ch = CVPixelBufferGetHeightOfPlane(upright.buffer, 1)
        for (x, y) in [(0, 0), (cw - 1, 3), (40, 90)] {
            #expect(
                pixel(upright.buffer, plane: 1, x, y, size: 2)
                    == pixel(turned.buffer, plane: 1, cw - 1 - x, ch - 1 - y, size: 2))
        }
        let (cx, cy) = (upright.intrinsics.columns.2.x, upright.intrinsics.columns.2.y)
        #expect(abs(turned.intrinsics.columns.2.x - (Float(w) - cx)) < 1e-3)
        #expect(abs(turned.intrinsics.columns.2.y - (Float(h) - cy)) < 1e-3)
    }

    // spec §1.5 rule M: mirroring may be set while it is automatic, as Apple's samples do.
    @Test func settingMirroringWhileAutomaticTakesEffect() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(type: .builtInWideAngleCamera, outputs: ["video"])
            let connection = try #require(rig.video.connection(with: .video))
            #expect(connection.automaticallyAdjustsVideoMirroring && connection.isVideoMirroringSupported)
            expectNoException { connection.isVideoMirrored = true }
            #expect(connection.isVideoMirrored)
            connection.isVideoMirrored = false
            expectException(.invalidArgumentException, "setVideoRotationAngle:") {
                connection.videoRotationAngle = 45
            }
            connection.automaticallyAdjustsVideoMirroring = false
            expectNoException { connection.isVideoMirrored = true }
            #expect(connection.isVideoMirrored)
        }
    }
}
