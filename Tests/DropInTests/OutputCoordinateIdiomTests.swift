import AVFoundation
import Foundation
import Testing

// An output's pixel coordinates and a metadata output's normalised ones, as tap-to-focus code converts a point in a
// frame (Apple's TrueDepthStreamer passes a point of its video texture) into a point of interest.

extension DropIn {
    @Suite struct OutputCoordinateIdiomTests {
        static func expectNear(_ a: CGRect, _ b: CGRect, _ note: String) {
            #expect(
                abs(a.minX - b.minX) < 1e-9 && abs(a.minY - b.minY) < 1e-9 && abs(a.width - b.width) < 1e-9
                    && abs(a.height - b.height) < 1e-9, "\(note): \(a) against \(b)")
        }

        @Test func aFramesRectangleIsARectangleOfInterest() throws {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .hd1920x1080
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            let output = AVCaptureVideoDataOutput()
            session.addOutput(output)
            session.commitConfiguration()
            let d = CMVideoFormatDescriptionGetDimensions(camera.activeFormat.formatDescription)
            let (w, h) = (CGFloat(d.width), CGFloat(d.height))
            // Unturned: the pixels over the format's size.
            let rect = CGRect(x: 0.1 * w, y: 0.2 * h, width: 0.3 * w, height: 0.4 * h)
            Self.expectNear(
                output.metadataOutputRectConverted(fromOutputRect: rect),
                CGRect(x: 0.1, y: 0.2, width: 0.3, height: 0.4),
                "unturned")
            // Portrait frames (a quarter turn clockwise) are h × w: the metadata origin (the unturned top left) is
            // the frame's top right, so frame (a, b) is metadata (b, 1 − a).
            let connection = try #require(output.connection(with: .video))
            connection.videoRotationAngle = 90
            let portrait = CGRect(x: 0.1 * h, y: 0.2 * w, width: 0.3 * h, height: 0.4 * w)
            let expected = CGRect(x: 0.2, y: 1 - 0.1 - 0.3, width: 0.4, height: 0.3)
            Self.expectNear(output.metadataOutputRectConverted(fromOutputRect: portrait), expected, "portrait")
            Self.expectNear(output.outputRectConverted(fromMetadataOutputRect: expected), portrait, "back")
            // Mirrored as a front camera's frames are: the frame's x runs the other way first.
            connection.isVideoMirrored = true
            let mirrored = CGRect(
                x: h - portrait.maxX, y: portrait.minY, width: portrait.width, height: portrait.height)
            Self.expectNear(output.metadataOutputRectConverted(fromOutputRect: mirrored), expected, "mirrored")
            // A tap at a point of the frame becomes a point of interest, as TrueDepthStreamer focuses: the mirrored
            // portrait frame's top left is the unturned picture's top left.
            let tap = output.metadataOutputRectConverted(fromOutputRect: CGRect(origin: .zero, size: .zero))
            #expect(abs(tap.origin.x) < 1e-9 && abs(tap.origin.y) < 1e-9)
        }

        /// Without a camera connected, there is no pixel space to convert from: the rectangle comes back as given.
        @Test func anUnconnectedOutputKeepsTheRectangle() {
            let rect = CGRect(x: 1, y: 2, width: 3, height: 4)
            #expect(AVCaptureVideoDataOutput().metadataOutputRectConverted(fromOutputRect: rect) == rect)
        }
    }
}
