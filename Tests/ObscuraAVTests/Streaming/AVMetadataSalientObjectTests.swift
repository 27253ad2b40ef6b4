import Foundation
import Obscura
import ObscuraAV
import Testing

/// Salient objects in the metadata output are found in the frames the camera captures (spec §16 rule 3): an object
/// that stands apart from a plain wall is reported where the camera images it, and the wall alone holds none.
@Suite struct AVMetadataSalientObjectTests {
    /// A back-camera session at 640 × 480 with a metadata output asking for salient objects on `scene`.
    private final class Rig {
        let session = AVCaptureSession()
        let metadata = AVCaptureMetadataOutput()
        let recorder = StreamRecorder()
        let device: AVCaptureDevice

        init(scene: String) throws {
            try Emulator.shared.use(scene: scene)
            device = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: device))
            session.addOutput(metadata)
            session.commitConfiguration()
            metadata.setMetadataObjectsDelegate(recorder, queue: DispatchQueue(label: "salient"))
            metadata.metadataObjectTypes = [.salientObject]
            session.startRunning()
        }

        /// The salient objects of the last delivery.
        var lastObjects: [AVMetadataSalientObject] {
            recorder.metadata.last?.compactMap { $0 as? AVMetadataSalientObject } ?? []
        }

        /// The focal length of the active format, as a share of the frame's width.
        var focal: Double { 0.5 / tan(Double(device.activeFormat.videoFieldOfView) / 2 * .pi / 180) }
    }

    /// A scene of our own: balls of radius 0.1 m, 1 m in front of a camera at 1.6 m, at the given sideways offsets,
    /// before a plain grey wall 1.5 m away, under office light.
    private static func balls(_ offsets: [Double], in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var objects = [
            "  - {name: wall, shape: plane, size_m: [6.0, 4.0], position_m: [0.0, 1.6, -1.5], material: wall}"
        ]
        for (i, x) in offsets.enumerated() {
            objects.append(
                "  - {name: ball \(i), shape: sphere, radius_m: 0.1, position_m: [\(x), 1.6, -1.0], material: red}")
        }
        let url = folder.appendingPathComponent("balls.yaml")
        try
            ("""
        description: Red balls 1 m from the camera in front of a grey wall, office light.
        device: {position_m: [0.0, 1.6, 0.0], look_at_m: [0.0, 1.6, -1.0]}
        ambient: {spectrum: {cct_k: 4000}, lux: 600, direction: [0.2, 1.0, 0.6], diffuse_fraction: 0.7}
        materials:
          - {name: wall, srgb: [0.6, 0.6, 0.62], roughness: 0.9}
          - {name: red, srgb: [0.7, 0.12, 0.1], roughness: 0.6}
        objects:

        """ + objects.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("salient-\(UUID().uuidString)")
    }

    // spec §16 rule 3: the ball is found where the camera images it. The reference is the scene's geometry: a ball
    // of radius 0.1 m at 1 m, 0.15 m to the right of the optical axis, projects to a disc centred at
    // 0.5 + f · 0.15 of the frame's width and 2 f · 0.1 across (f the focal length as a share of the width); the
    // box may be wider by the map's coarse grid, two of its 68 pixels each side.
    @Test func aBallBeforeAPlainWallIsTheSalientObjectWhereItIs() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let rig = try Rig(scene: try Self.balls([0.15], in: folder))
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let objects = rig.lastObjects
            #expect(objects.count == 1)
            let object = try #require(objects.first)
            #expect(object.type == .salientObject && object.objectID >= 1)
            #expect(object.obscuraObjectName == "ball 0")
            let f = rig.focal
            let (centre, width) = (0.5 + f * 0.15, 2 * f * 0.1)
            #expect(abs(object.bounds.midX - centre) < 0.03, "\(object.bounds) vs x \(centre)")
            #expect(abs(object.bounds.midY - 0.5) < 0.03, "\(object.bounds) vs y 0.5")
            #expect(
                object.bounds.width > 0.6 * width && object.bounds.width < width + 4.0 / 68,
                "\(object.bounds) vs width \(width)")
        }
    }

    // spec §16 rule 3: a plain wall stands out nowhere, so nothing is delivered.
    @Test func aPlainWallHasNoSalientObject() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let rig = try Rig(scene: try Self.balls([], in: folder))
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            #expect(rig.recorder.metadata.allSatisfy { $0.isEmpty })
        }
    }

    // spec §16 rule 2 for salient objects: each keeps its ID while in view, two take two, and one that leaves the
    // region of interest and comes back takes a new one.
    @Test func objectsKeepTheirIDsAndTakeNewOnesWhenTheyReturn() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let rig = try Rig(scene: try Self.balls([-0.2, 0.2], in: folder))
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let first = rig.lastObjects.sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(first.count == 2 && Set(first.map(\.objectID)).count == 2)
            Emulator.shared.runFrames(6)
            let later = rig.lastObjects.sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(later.map(\.objectID) == first.map(\.objectID))
            // Only the left half: the right ball is out of view.
            rig.metadata.rectOfInterest = CGRect(x: 0, y: 0, width: 0.5, height: 1)
            Emulator.shared.runFrames(4)
            let left = rig.lastObjects
            #expect(left.count == 1 && left.first?.objectID == first.first?.objectID)
            rig.metadata.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
            Emulator.shared.runFrames(4)
            let back = rig.lastObjects.sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(back.count == 2)
            #expect(back.first?.objectID == first.first?.objectID)
            #expect((back.last?.objectID ?? 0) > (first.map(\.objectID).max() ?? 0))
        }
    }
}
