import Obscura
import Foundation
import ObscuraAV
import Testing

/// Barcodes come from the scene's printed-code annotations (spec §16).
@Suite struct AVMetadataMachineReadableCodeTests {
    /// A back-camera session with a metadata output on `qr-on-desk`, run for a few frames.
    private func scan(
        types: [AVMetadataObject.ObjectType], rectOfInterest: CGRect? = nil, frames: Int = 4
    ) throws -> (codes: [AVMetadataMachineReadableCodeObject], dimensions: CMVideoDimensions) {
        try Emulator.shared.use(scene: "qr-on-desk")
        let session = AVCaptureSession()
        let metadata = AVCaptureMetadataOutput()
        let recorder = StreamRecorder()
        let device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(metadata)
        session.commitConfiguration()
        metadata.setMetadataObjectsDelegate(recorder, queue: DispatchQueue(label: "codes"))
        metadata.metadataObjectTypes = types
        if let rectOfInterest { metadata.rectOfInterest = rectOfInterest }
        session.startRunning()
        defer { session.stopRunning() }
        Emulator.shared.runFrames(frames)
        let codes = recorder.metadata.flatMap { $0 }.compactMap { $0 as? AVMetadataMachineReadableCodeObject }
        return (codes, CMVideoFormatDescriptionGetDimensions(device.activeFormat.formatDescription))
    }

    // spec §16 [D]: a camera's metadata output offers the barcode types.
    @Test func barcodeTypesAreAvailableWithACamera() throws {
        try onDevice {
            let session = AVCaptureSession()
            let metadata = AVCaptureMetadataOutput()
            #expect(metadata.availableMetadataObjectTypes.isEmpty)
            let device = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(metadata)
            for type in [AVMetadataObject.ObjectType.qr, .ean13, .ean8, .code128, .code39, .code93, .pdf417, .aztec,
                .dataMatrix, .upce, .interleaved2of5, .itf14]
            {
                #expect(metadata.availableMetadataObjectTypes.contains(type))
            }
        }
    }

    // spec §16 [D][I]: a visible printed QR code is reported with its text, type and corners.
    @Test func qrCodeInViewIsReported() throws {
        try onDevice {
            let (codes, dimensions) = try scan(types: [.qr])
            let qr = try #require(codes.first)
            #expect(qr.type == .qr)
            #expect(qr.stringValue == "https://example.com")
            #expect(codes.allSatisfy { $0.type == .qr })
            #expect(qr.corners.count == 4)
            // The card is square to the optical axis, so its image is a rectangle whose normalised
            // sides are in the ratio of the frame's height to its width (a square in pixels).
            let c = qr.corners
            let width = c[1].x - c[0].x
            let height = c[3].y - c[0].y
            let expected = Double(dimensions.height) / Double(dimensions.width)
            #expect(abs(width / height - expected) < 0.02 * expected)
            // Clockwise from the printed top-left: right along the top edge, then down.
            #expect(c[1].x > c[0].x && c[2].y > c[1].y && c[3].x < c[2].x)
            // The camera looks at the card's centre from 0.3 m: it sits near the frame's centre.
            #expect(abs(qr.bounds.midX - 0.5) < 0.05 && abs(qr.bounds.midY - 0.5) < 0.05)
            #expect(qr.bounds.width > 0 && qr.bounds.height > 0)
        }
    }

    // spec §8 [D]: only the asked types are delivered; the EAN-13 label appears when asked for.
    @Test func onlyRequestedCodeTypesAreDelivered() throws {
        try onDevice {
            let (codes, _) = try scan(types: [.ean13])
            #expect(!codes.isEmpty)
            #expect(codes.allSatisfy { $0.type == .ean13 && $0.stringValue == "4006381333931" })
        }
    }

    // spec §16 [I]: a code outside rectOfInterest is not read.
    @Test func codeOutsideRectOfInterestIsNotReported() throws {
        try onDevice {
            let (codes, _) = try scan(types: [.qr], rectOfInterest: CGRect(x: 0, y: 0, width: 0.3, height: 0.3))
            #expect(codes.isEmpty)
        }
    }

    /// A scanned QR code and a video data output's connection in a session of its own.
    func codeAndVideoConnection() throws -> (
        AVMetadataMachineReadableCodeObject, AVCaptureSession, AVCaptureVideoDataOutput, AVCaptureConnection
    ) {
        let (codes, _) = try scan(types: [.qr])
        let qr = try #require(codes.first)
        let session = AVCaptureSession()
        let video = AVCaptureVideoDataOutput()
        let device = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(video)
        return (qr, session, video, try #require(video.connection(with: .video)))
    }

    // spec §16 [D]: with the connection's default orientation the transform keeps the geometry.
    @Test func transformedCodeKeepsItsGeometryAtTheDefaultOrientation() throws {
        try onDevice {
            let (qr, session, video, connection) = try codeAndVideoConnection()
            _ = session  // holds the connection
            let transformed = video.transformedMetadataObject(for: qr, connection: connection)
            let moved = try #require(transformed as? AVMetadataMachineReadableCodeObject)
            #expect(moved.bounds == qr.bounds)
            #expect(moved.corners == qr.corners)
            #expect(moved.stringValue == qr.stringValue)
        }
    }

    // spec §1.5, §16: on a portrait connection (90°) a device point (x, y) lands at (1 − y, x), the
    // same quarter turn the connection gives its video buffers; a mirror then maps x to 1 − x.
    @Test func transformedCodeTurnsWithThePortraitConnection() throws {
        try onDevice {
            let (qr, session, video, connection) = try codeAndVideoConnection()
            _ = session  // holds the connection
            connection.videoRotationAngle = 90
            let turned = try #require(
                video.transformedMetadataObject(for: qr, connection: connection) as? AVMetadataMachineReadableCodeObject)
            for (before, after) in zip(qr.corners, turned.corners) {
                #expect(abs(after.x - (1 - before.y)) < 1e-12 && abs(after.y - before.x) < 1e-12)
            }
            #expect(abs(turned.bounds.width - qr.bounds.height) < 1e-12)
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = true
            let mirrored = try #require(
                video.transformedMetadataObject(for: qr, connection: connection) as? AVMetadataMachineReadableCodeObject)
            for (before, after) in zip(qr.corners, mirrored.corners) {
                #expect(abs(after.x - before.y) < 1e-12 && abs(after.y - before.x) < 1e-12)
            }
        }
    }
}
