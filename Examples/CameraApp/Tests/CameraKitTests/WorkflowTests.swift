// The tests run on Linux, where Obscura stands in for the camera; the package names its products there only.
#if os(Linux)
import AVFoundation
import CameraKit
import CoreImage
import Foundation
import ObscuraTesting
import Testing

/// The two workflows capture apps build right after capture: a document scanner on the camera's frames (Vision,
/// then Core Image), and a depth mask on a photo's file (Core Image).
@Suite struct WorkflowTests {
    /// An 88 × 107 mm instant print on a table, seen from above: the scanner finds it in a frame and straightens it
    /// to the print's own proportions.
    @Test(.obscura(device: "iphone-15-pro", scene: "instant-photo"))
    func theScannerStraightensThePrintToItsShape() throws {
        let camera = Camera()
        try camera.configure()
        camera.start()
        defer { camera.stop() }
        #expect(camera.waitForFrames(3))
        let frame = try #require(camera.latestFrame)
        let print = try #require(try DocumentScanner.findPrint(in: frame))
        #expect(print.confidence >= 0.5)
        let scan = try #require(try DocumentScanner.scan(frame))
        let ratio = Double(min(scan.width, scan.height)) / Double(max(scan.width, scan.height))
        #expect(abs(ratio - 88.0 / 107.0) < 0.05, "\(scan.width) × \(scan.height)")
        #expect(min(scan.width, scan.height) >= 100)
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
