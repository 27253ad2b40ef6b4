import Foundation
import Obscura
import ObscuraAV
import Testing

/// A back-camera session at 640 × 480 with a metadata output asking for `types` on `scene`, for the suites that check
/// what the output finds in the frames (faces, salient objects).
final class MetadataRig {
    let session = AVCaptureSession()
    let metadata = AVCaptureMetadataOutput()
    let recorder = StreamRecorder()
    let device: AVCaptureDevice

    init(scene: String, types: [AVMetadataObject.ObjectType]) throws {
        try Emulator.shared.use(scene: scene)
        device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(metadata)
        session.commitConfiguration()
        metadata.setMetadataObjectsDelegate(recorder, queue: DispatchQueue(label: "metadata rig"))
        metadata.metadataObjectTypes = types
        session.startRunning()
    }

    /// The objects of one class in the last delivery.
    func last<Object: AVMetadataObject>(_ kind: Object.Type) -> [Object] {
        recorder.metadata.last?.compactMap { $0 as? Object } ?? []
    }

    /// The focal length of the active format, as a share of the frame's width and of its height.
    var focal: (x: Double, y: Double) {
        let d = CMVideoFormatDescriptionGetDimensions(device.activeFormat.formatDescription)
        let f = Double(d.width) / 2 / tan(Double(device.activeFormat.videoFieldOfView) / 2 * .pi / 180)
        return (f / Double(d.width), f / Double(d.height))
    }

    /// A fresh folder for a scene of a test's own.
    static func folder(_ prefix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// Writes a scene of a test's own into `folder`: a camera at eye height (1.6 m) looking level at the wall
    /// 1.5 m ahead (or as `device` says), under office light, with `materials` and `objects` (YAML flow mappings, one
    /// a line); returns its path.
    static func writeScene(
        _ name: String, description: String, materials: [String], objects: [String], in folder: URL,
        device: String = "{position_m: [0.0, 1.6, 0.0], look_at_m: [0.0, 1.6, -1.0]}"
    ) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("\(name).yaml")
        let text = """
            description: \(description)
            device: \(device)
            ambient: {spectrum: {cct_k: 4000}, lux: 600, direction: [0.2, 1.0, 0.6], diffuse_fraction: 0.7}
            materials:
            \(materials.map { "  - \($0)" }.joined(separator: "\n"))
            objects:
            \(objects.map { "  - \($0)" }.joined(separator: "\n"))

            """
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
