// The tests run on Linux, where Obscura stands in for the camera; the package names its products there only.
#if os(Linux)
import AVFoundation
import CameraKit
import CoreImage
import Foundation
import ObscuraTesting
import Testing
import Vision

/// The two workflows capture apps build right after capture: a document scanner on the camera's frames (Vision,
/// then Core Image), and a depth mask on a photo's file (Core Image).
@Suite struct WorkflowTests {
    /// An instant print on a table: the scanner finds it in a frame and straightens it onto an upright rectangle
    /// whose sides are the longer of each pair of the print's opposite sides in the frame (computed here from
    /// Vision's corners), raising its contrast.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func theScannerStraightensThePrint() throws {
        let camera = Camera()
        try camera.configure()
        camera.start()
        defer { camera.stop() }
        #expect(camera.waitForFrames(3))
        let frame = try #require(camera.latestFrame)
        let print = try #require(try DocumentScanner.findPrint(in: frame))
        #expect(print.confidence >= 0.5)
        let (w, h) = (CVPixelBufferGetWidth(frame), CVPixelBufferGetHeight(frame))
        let corners = [print.topLeft, print.topRight, print.bottomRight, print.bottomLeft].map {
            VNImagePointForNormalizedPoint($0, w, h)
        }
        func length(_ a: CGPoint, _ b: CGPoint) -> Double { Double(hypot(a.x - b.x, a.y - b.y)) }
        let width = max(length(corners[0], corners[1]), length(corners[3], corners[2]))
        let height = max(length(corners[0], corners[3]), length(corners[1], corners[2]))
        let scan = try #require(try DocumentScanner.scan(frame))
        #expect(abs(Double(scan.width) - width) <= 1 && abs(Double(scan.height) - height) <= 1,
            "\(scan.width) × \(scan.height) against \(width) × \(height)")
        // The print fills a good part of the frame, as the request's minimum size asks.
        #expect(min(scan.width, scan.height) >= Int(0.2 * Double(min(w, h))))
    }

    /// A photo with depth from the LiDAR camera: the mask holds exactly where the photo's own depth
    /// (`AVDepthData`) is nearer than the focus distance, and the portrait keeps the photo there and dims it
    /// elsewhere.
    @Test(.obscura(device: "iphone-15-pro", scene: "violets-warm-room"))
    func theDepthMaskFollowsThePhotosDepth() throws {
        let photo = try DepthPhoto.take()
        let data = try #require(photo.fileDataRepresentation())
        let focus: Float = 1.0
        let mask = try #require(DepthMask.mask(photoData: data, focusDistance: focus, softness: 0.05))

        let depth = try #require(photo.depthData).converting(toDepthDataType: kCVPixelFormatType_DepthFloat32)
        let map = depth.depthDataMap
        let (w, h) = (CVPixelBufferGetWidth(map), CVPixelBufferGetHeight(map))
        #expect(mask.extent == CGRect(x: 0, y: 0, width: w, height: h))
        var rendered: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, w, h, kCVPixelFormatType_64RGBAHalf, nil, &rendered)
        let out = try #require(rendered)
        CIContext(options: [.workingColorSpace: NSNull()]).render(mask, to: out)
        CVPixelBufferLockBaseAddress(map, .readOnly)
        CVPixelBufferLockBaseAddress(out, .readOnly)
        defer {
            CVPixelBufferUnlockBaseAddress(map, .readOnly)
            CVPixelBufferUnlockBaseAddress(out, .readOnly)
        }
        var agree = 0, decided = 0, near = 0
        for y in 0..<h {
            let z = (CVPixelBufferGetBaseAddress(map)! + y * CVPixelBufferGetBytesPerRow(map))
                .assumingMemoryBound(to: Float.self)
            let m = (CVPixelBufferGetBaseAddress(out)! + y * CVPixelBufferGetBytesPerRow(out))
                .assumingMemoryBound(to: Float16.self)
            for x in 0..<w where z[x].isFinite && z[x] > 0 {
                // Outside the soft edge (disparity 0.05 1/m either side of 1/focus), the mask is 0 or 1.
                let disparity = 1 / z[x]
                guard abs(disparity - 1 / focus) > 0.06 else { continue }
                let expected: Float = disparity > 1 / focus ? 1 : 0
                decided += 1
                if expected == 1 { near += 1 }
                if abs(Float(m[4 * x + 3]) - expected) < 0.25 { agree += 1 }
            }
        }
        #expect(decided > w * h / 2)
        #expect(near > 0 && near < decided, "both sides of the focus distance: \(near) of \(decided)")
        #expect(Double(agree) >= 0.98 * Double(decided), "\(agree) of \(decided) mask pixels agree")

        let portrait = try #require(DepthMask.portrait(photoData: data, focusDistance: focus))
        #expect(portrait.width == Int(photo.resolvedSettings.photoDimensions.width))
        #expect(portrait.height == Int(photo.resolvedSettings.photoDimensions.height))
    }
}

/// A photo with its depth embedded, taken as a depth app takes one: the LiDAR camera's smallest format with depth,
/// depth delivery on the output and in the settings.
final class DepthPhoto: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var photo: AVCapturePhoto?

    static func take() throws -> AVCapturePhoto {
        let taker = DepthPhoto()
        let session = AVCaptureSession()
        let output = AVCapturePhotoOutput()
        let device = try #require(AVCaptureDevice.default(.builtInLiDARDepthCamera, for: .video, position: .back))
        func smallestPhoto(_ f: AVCaptureDevice.Format) -> Int32 { f.supportedMaxPhotoDimensions.map(\.width).min() ?? .max }
        let format = try #require(
            device.formats.filter { !$0.supportedDepthDataFormats.isEmpty }.min { smallestPhoto($0) < smallestPhoto($1) })
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
        session.startRunning()
        defer { session.stopRunning() }
        let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
        settings.isDepthDataDeliveryEnabled = true
        settings.embedsDepthDataInPhoto = true
        settings.maxPhotoDimensions = output.maxPhotoDimensions
        output.capturePhoto(with: settings, delegate: taker)
        guard taker.done.wait(timeout: .now() + 60) == .success, let photo = taker.photo else {
            throw CocoaError(.fileReadUnknown)
        }
        return photo
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        self.photo = photo
        done.signal()
    }
}
#endif
