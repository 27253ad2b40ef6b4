import AVFoundation
import Foundation
import Obscura
import ObscuraTesting
import Testing
import Vision

/// A scanner app's first step on a real capture: a photo of a print on a table, taken through the capture API on an
/// iPhone 15 Pro, then Vision's rectangle request on the photo's `CGImage`.
@Suite struct CapturedPrintTests {
    /// Waits for one photo.
    final class PhotoWaiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var delivered: AVCapturePhoto?
        private let finished = DispatchSemaphore(value: 0)
        var photo: AVCapturePhoto? { lock.withLock { delivered } }

        func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?)
        {
            lock.withLock { delivered = photo }
        }

        func photoOutput(
            _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
            error: Error?
        ) { finished.signal() }

        func wait() -> Bool { finished.wait(timeout: .now() + 20) == .success }
    }

    /// The instant-photo scene: an 88 × 107 mm print on a walnut table, seen from about 22° off the vertical. Two
    /// references: the print scanner's own finding on the same photo's processed pixels (`scannedPrint()`, which
    /// reads them without Vision's pixel formats, coordinate conversions and filters), and the print's corners
    /// projected from the scene's geometry, which know nothing of any detector.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func aCapturedPrintsCornersMatchTheScanners() throws {
        let photo = try Self.capture(AVCapturePhotoSettings())
        let image = try #require(photo.cgImageRepresentation())

        let request = VNDetectRectanglesRequest()
        request.minimumAspectRatio = 0.3
        request.maximumAspectRatio = 1.0
        try VNImageRequestHandler(cgImage: image, options: [:]).perform([request])
        // Typed as the request's own observations, as iOS 15 and later declare it.
        let found: VNRectangleObservation = try #require(request.results?.first)

        let scan = try #require(photo.scannedPrint())
        expectNear(found.topLeft, scan.topLeft, 0.01, "top left")
        expectNear(found.topRight, scan.topRight, 0.01, "top right")
        expectNear(found.bottomRight, scan.bottomRight, 0.01, "bottom right")
        expectNear(found.bottomLeft, scan.bottomLeft, 0.01, "bottom left")
        // The print's corners where the scene's geometry puts them, through the photo's camera matrix.
        let k = try #require(photo.pixelIntrinsicMatrix)
        let projected = Self.projectedPrintCorners(
            fx: Double(k.columns.0.x), fy: Double(k.columns.1.y), cx: Double(k.columns.2.x),
            cy: Double(k.columns.2.y), width: image.width, height: image.height)
        for (corner, name) in zip(
            [found.topLeft, found.topRight, found.bottomRight, found.bottomLeft],
            ["top left", "top right", "bottom right", "bottom left"])
        {
            let nearest = projected.min { Self.distance($0, corner) < Self.distance($1, corner) } ?? .zero
            expectNear(corner, nearest, 0.003, "\(name) against the scene's geometry")
        }
        #expect(found.confidence > 0.5)
    }

    /// A portrait photo's file (Exif orientation 6): a handler made from its data shows the picture upright, as one
    /// made from its pixels with `.right` does, and unlike one told `.up`.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func aPhotoFilesOrientationIsHonoured() throws {
        let photo = try Self.capture(AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg]), angle: 90)
        let data = try #require(photo.fileDataRepresentation())
        let image = try #require(photo.cgImageRepresentation())
        func corner(_ handler: VNImageRequestHandler) throws -> CGPoint {
            let request = VNDetectRectanglesRequest()
            request.minimumAspectRatio = 0.3
            request.maximumAspectRatio = 1.0
            try handler.perform([request])
            return try #require(request.results?.first).topLeft
        }
        let fromFile = try corner(VNImageRequestHandler(data: data, options: [:]))
        let turned = try corner(VNImageRequestHandler(cgImage: image, orientation: .right, options: [:]))
        let stored = try corner(VNImageRequestHandler(cgImage: image, orientation: .up, options: [:]))
        expectNear(fromFile, turned, 0.01, "top left, upright")
        #expect(Self.distance(fromFile, stored) > 0.05, "the file's orientation was ignored")
    }

    /// One photo from the back camera of a VGA session, its photo connection turned by `angle` degrees.
    static func capture(_ settings: AVCapturePhotoSettings, angle: CGFloat = 0) throws -> AVCapturePhoto {
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.addOutput(output)
        session.commitConfiguration()
        try #require(output.connection(with: .video)).videoRotationAngle = angle
        session.startRunning()
        defer { session.stopRunning() }
        let waiter = PhotoWaiter()
        output.capturePhoto(with: settings, delegate: waiter)
        #expect(waiter.wait())
        return try #require(waiter.photo)
    }

    static func distance(_ a: CGPoint, _ b: CGPoint) -> Double { Double(hypot(a.x - b.x, a.y - b.y)) }

    /// The instant-photo scene file's print, 88 × 107 mm in its local XY plane, turned pitch −90° (about +X) then yaw
    /// 12° (about +Y), both counter-clockwise seen from the axis's tip, and raised 1 mm; the camera at
    /// (0, 0.30, 0.12) m looking at the origin with world +Y up; a pinhole with the photo's intrinsics (pixel
    /// coordinates from the top-left corner). Returned in Vision's normalised coordinates.
    static func projectedPrintCorners(
        fx: Double, fy: Double, cx: Double, cy: Double, width: Int, height: Int
    ) -> [CGPoint] {
        typealias V = SIMD3<Double>
        func cross(_ a: V, _ b: V) -> V { V(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x) }
        func normalized(_ a: V) -> V { a / (a * a).sum().squareRoot() }
        let yaw = 12.0 * .pi / 180
        let eye = V(0, 0.30, 0.12)
        let forward = normalized(V(0, 0, 0) - eye)
        let right = normalized(cross(forward, V(0, 1, 0)))
        let down = cross(forward, right)
        return [(-1.0, -1.0), (1, -1), (1, 1), (-1, 1)].map { sx, sy in
            let local = V(sx * 0.044, sy * 0.0535, 0)
            // Pitch −90° about +X takes (x, y, 0) to (x, 0, −y); yaw φ about +Y takes (x, y, z) to
            // (x cos φ + z sin φ, y, −x sin φ + z cos φ).
            let flat = V(local.x, 0, -local.y)
            let world = V(flat.x * cos(yaw) + flat.z * sin(yaw), 0.001, -flat.x * sin(yaw) + flat.z * cos(yaw))
            let d = world - eye
            let (x, y, z) = ((d * right).sum(), (d * down).sum(), (d * forward).sum())
            return CGPoint(x: (fx * x / z + cx) / Double(width), y: 1 - (fy * y / z + cy) / Double(height))
        }
    }
}
