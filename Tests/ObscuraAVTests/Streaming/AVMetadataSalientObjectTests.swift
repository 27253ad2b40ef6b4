import Foundation
import Obscura
import ObscuraAV
import Testing

/// Salient objects in the metadata output are found in the frames the camera captures (spec §16 rule 3): an object
/// that stands apart from a plain wall is reported where the camera images it, and the wall alone holds none.
@Suite struct AVMetadataSalientObjectTests {
    /// A scene of our own: balls of radius 0.1 m, 1 m in front of a camera at 1.6 m, at the given sideways offsets,
    /// before a plain grey wall 1.5 m away, under office light.
    private static func balls(_ offsets: [Double], in folder: URL) throws -> String {
        let wall = "{name: wall, shape: plane, size_m: [6.0, 4.0], position_m: [0.0, 1.6, -1.5], material: wall}"
        let balls = offsets.enumerated().map { i, x in
            "{name: ball \(i), shape: sphere, radius_m: 0.1, position_m: [\(x), 1.6, -1.0], material: red}"
        }
        return try MetadataRig.writeScene(
            "balls", description: "Red balls 1 m from the camera in front of a grey wall, office light.",
            materials: [
                "{name: wall, srgb: [0.6, 0.6, 0.62], roughness: 0.9}",
                "{name: red, srgb: [0.7, 0.12, 0.1], roughness: 0.6}",
            ], objects: [wall] + balls, in: folder)
    }

    private static func folder() -> URL { MetadataRig.folder("salient") }

    private static func rig(_ scene: String) throws -> MetadataRig {
        try MetadataRig(scene: scene, types: [.salientObject])
    }

    // spec §16 rule 3: the ball is found where the camera images it. The reference is the scene's geometry: a ball
    // of radius 0.1 m at 1 m, 0.15 m to the right of the optical axis, projects to a disc centred at
    // 0.5 + f · 0.15 of the frame's width and 2 f · 0.1 across (f the focal length as a share of the width); the
    // box may be wider by the map's coarse grid, two of its 68 pixels each side.
    @Test func aBallBeforeAPlainWallIsTheSalientObjectWhereItIs() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let rig = try Self.rig(try Self.balls([0.15], in: folder))
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let objects = rig.last(AVMetadataSalientObject.self)
            #expect(objects.count == 1)
            let object = try #require(objects.first)
            #expect(object.type == .salientObject && object.objectID >= 1)
            #expect(object.obscuraObjectName == "ball 0")
            let f = rig.focal.x
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
            let rig = try Self.rig(try Self.balls([], in: folder))
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
            let rig = try Self.rig(try Self.balls([-0.2, 0.2], in: folder))
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let first = rig.last(AVMetadataSalientObject.self).sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(first.count == 2 && Set(first.map(\.objectID)).count == 2)
            Emulator.shared.runFrames(6)
            let later = rig.last(AVMetadataSalientObject.self).sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(later.map(\.objectID) == first.map(\.objectID))
            // Only the left half: the right ball is out of view.
            rig.metadata.rectOfInterest = CGRect(x: 0, y: 0, width: 0.5, height: 1)
            Emulator.shared.runFrames(4)
            let left = rig.last(AVMetadataSalientObject.self)
            #expect(left.count == 1 && left.first?.objectID == first.first?.objectID)
            rig.metadata.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
            Emulator.shared.runFrames(4)
            let back = rig.last(AVMetadataSalientObject.self).sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(back.count == 2)
            #expect(back.first?.objectID == first.first?.objectID)
            #expect((back.last?.objectID ?? 0) > (first.map(\.objectID).max() ?? 0))
        }
    }
}
