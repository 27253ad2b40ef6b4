import Foundation
import Obscura
import Testing

/// What zoom and the torch do to streamed frames.
@Suite struct AVCaptureDeviceZoomStreamingTests {
    /// One BGRA frame of the back wide camera of iPhone 7 Plus, set up by `configure` (connection, then
    /// the device while locked), with exposure and white balance held, as for any comparison of frames:
    /// metering a changed view would otherwise change both.
    private func heldFrame(
        _ configure: (AVCaptureConnection, AVCaptureDevice) throws -> Void
    ) throws -> (sample: CMSampleBuffer, image: CVPixelBuffer, stabilization: AVCaptureVideoStabilizationMode) {
        let rig = try StreamRig(type: .builtInWideAngleCamera, outputs: ["video"])
        let recorder = StreamRecorder()
        rig.video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
        let connection = try #require(rig.video.connection(with: .video))
        try rig.device.lockForConfiguration()
        try configure(connection, rig.device)
        rig.device.setExposureModeCustom(
            duration: CMTime(value: 1, timescale: 30), iso: rig.device.activeFormat.minISO * 4)
        rig.device.setWhiteBalanceModeLocked(
            with: AVCaptureDevice.WhiteBalanceGains(redGain: 1.8, greenGain: 1, blueGain: 1.6))
        rig.device.unlockForConfiguration()
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        Emulator.shared.runFrames(1)
        let sample = try #require(recorder.video.first)
        // Read while the session and its input live: a connection's ports do not keep their input.
        return (sample, try #require(sample.imageBuffer), connection.activeVideoStabilizationMode)
    }

    /// One frame at a zoom factor, with its intrinsics.
    private func frame(zoom: CGFloat) throws -> (image: CVPixelBuffer, k: matrix_float3x3) {
        let held = try heldFrame { connection, device in
            connection.isCameraIntrinsicMatrixDeliveryEnabled = true
            device.videoZoomFactor = zoom
        }
        let data = try #require(
            CMGetAttachment(held.sample, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil)
                as? Data)
        return (held.image, data.withUnsafeBytes { $0.load(as: matrix_float3x3.self) })
    }

    /// Luma-like sum of a BGRA pixel.
    private func value(_ image: CVPixelBuffer, _ x: Int, _ y: Int) -> Int {
        CVPixelBufferLockBaseAddress(image, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(image, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(image) else { return 0 }
        let row = base.advanced(by: y * CVPixelBufferGetBytesPerRow(image)).assumingMemoryBound(to: UInt8.self)
        return Int(row[4 * x]) + Int(row[4 * x + 1]) + Int(row[4 * x + 2])
    }

    // A pinhole camera images a point at angle θ at u = cx + fx·tan θ, so multiplying fx by 2
    // doubles every distance from the principal point: the 2× frame at (cx + d) shows what the 1×
    // frame shows at (cx + d / 2), and the delivered fx and fy double (closed form).
    @Test func twoTimesZoomMagnifiesAboutTheCentre() throws {
        try onDevice("iphone-7-plus") {
            let one = try frame(zoom: 1)
            let two = try frame(zoom: 2)
            #expect(abs(two.k.columns.0.x / one.k.columns.0.x - 2) < 1e-4)
            #expect(abs(two.k.columns.1.y / one.k.columns.1.y - 2) < 1e-4)
            let cx = Double(one.k.columns.2.x), cy = Double(one.k.columns.2.y)
            let (w, h) = (CVPixelBufferGetWidth(one.image), CVPixelBufferGetHeight(one.image))
            var matched = 0, unmatched = 0, total = 0
            for j in 0..<24 {
                for i in 0..<32 {
                    let x = Int(Double(w) * (Double(i) + 0.5) / 32), y = Int(Double(h) * (Double(j) + 0.5) / 24)
                    let sx = Int(cx + (Double(x) - cx) / 2), sy = Int(cy + (Double(y) - cy) / 2)
                    let zoomed = value(two.image, x, y)
                    if abs(zoomed - value(one.image, sx, sy)) <= 24 { matched += 1 }
                    if abs(zoomed - value(one.image, x, y)) > 24 { unmatched += 1 }
                    total += 1
                }
            }
            // Edges between objects shift by up to a render pixel; most samples agree.
            #expect(Double(matched) / Double(total) > 0.85)
            #expect(unmatched > total / 10)  // and the zoomed frame is not the unzoomed one
        }
    }

    // The format's horizontal field of view is the pinhole angle across the frame, 2·atan(w / 2fx),
    // with fx the focal length in pixels the connection delivers for the same frames (closed form).
    @Test func fieldOfViewMatchesTheDeliveredIntrinsics() throws {
        try onDevice("iphone-7-plus") {
            let one = try frame(zoom: 1)
            let device = try #require(AVCaptureDevice.default(for: .video))
            let w = Double(CVPixelBufferGetWidth(one.image))
            let expected = 2 * atan(w / (2 * Double(one.k.columns.0.x))) * 180 / Double.pi
            #expect(abs(Double(device.activeFormat.videoFieldOfView) - expected) < 0.01)
        }
    }

    /// One frame with the connection's preferred stabilisation (intrinsics are not delivered while it runs).
    private func frame(stabilization: AVCaptureVideoStabilizationMode) throws -> (
        image: CVPixelBuffer, active: AVCaptureVideoStabilizationMode
    ) {
        let held = try heldFrame { connection, _ in
            if connection.isVideoStabilizationSupported { connection.preferredVideoStabilizationMode = stabilization }
        }
        return (held.image, held.stabilization)
    }

    // Standard stabilisation keeps a 10 % margin to shift the picture within, so the frame shows the
    // central 1/1.1 of the field scaled to the output: the stabilised frame at (c + d) shows what the
    // unstabilised one shows at (c + d / 1.1), about the image centre (the camera's principal point
    // lies within a pixel of the centre in the profile used here).
    @Test func standardStabilizationGivesUpTheMarginsFieldOfView() throws {
        try onDevice("iphone-7-plus") {
            let plain = try frame(stabilization: .off)
            let steady = try frame(stabilization: .auto)
            #expect(plain.active == .off)
            #expect(steady.active == .standard)
            let (w, h) = (CVPixelBufferGetWidth(plain.image), CVPixelBufferGetHeight(plain.image))
            let cx = Double(w) / 2, cy = Double(h) / 2
            // Compared as 9 × 9 means, which damp the sensor noise, at the samples where the two models
            // disagree (one within 10 of the stabilised frame, the other more than 30 away: object
            // edges), the crop model must win nearly always.
            func mean(_ image: CVPixelBuffer, _ x: Int, _ y: Int) -> Double {
                var sum = 0
                for dy in -4...4 { for dx in -4...4 { sum += value(image, x + dx, y + dy) } }
                return Double(sum) / 81
            }
            var cropWins = 0, sameWins = 0
            for j in 0..<54 {
                for i in 0..<72 {
                    let x = Int(Double(w) * (Double(i) + 0.5) / 72), y = Int(Double(h) * (Double(j) + 0.5) / 54)
                    let sx = Int((cx + (Double(x) - cx) / 1.1).rounded())
                    let sy = Int((cy + (Double(y) - cy) / 1.1).rounded())
                    let stabilised = mean(steady.image, x, y)
                    let crop = abs(stabilised - mean(plain.image, sx, sy))
                    let same = abs(stabilised - mean(plain.image, x, y))
                    if crop < 10 && same > 30 { cropWins += 1 }
                    if same < 10 && crop > 30 { sameWins += 1 }
                }
            }
            #expect(cropWins >= 20)
            #expect(sameWins * 10 <= cropWins)
        }
    }
}
