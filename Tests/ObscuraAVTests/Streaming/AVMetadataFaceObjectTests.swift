import ExternalTools
import Foundation
import Obscura
import ObscuraAV
import Testing

/// Faces in the metadata output are found in the frames the camera captures, by the face detector Vision runs
/// (spec §16 rules 1 and 2): a face a scene paints on its person is reported, a featureless head is not.
@Suite(.needs(.faceCascade)) struct AVMetadataFaceObjectTests {
    /// The painted head of the seed scenes (`Scenes/textures/head.png`).
    private static let headTexture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scenes/textures/head.png")

    /// A scene of our own: heads 0.6 m in front of a camera at eye height, at the given sideways offsets, painted
    /// with a face or bare skin, each with a hair cap and a torso, in front of a grey wall, under office light.
    /// A painted head may be tilted by `roll` degrees about the camera's axis, counterclockwise as the camera sees it.
    private static func people(_ heads: [(x: Double, painted: Bool)], roll: [Double] = [], in folder: URL) throws
        -> String
    {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: headTexture, to: folder.appendingPathComponent("head.png"))
        var objects = ["{name: wall, shape: plane, size_m: [4.0, 3.0], position_m: [0.0, 1.5, -1.5], material: wall}"]
        for (i, head) in heads.enumerated() {
            let surface =
                head.painted
                ? "card: {type: image, png: head.png, palette: [skin, brow, eye white, iris, pupil, shadowed skin, lips, hair]},"
                    + " person: {skin: [skin, brow, eye white, iris, pupil, shadowed skin, lips], hair: [hair]}"
                : "material: skin, person: skin"
            let tilt = i < roll.count ? " rotation: {roll_deg: \(roll[i])}," : ""
            objects += [
                "{name: head \(i), shape: sphere, radius_m: 0.09, position_m: [\(head.x), 1.6, -0.6],\(tilt) \(surface)}",
                "{name: hair \(i), shape: sphere, radius_m: 0.095, position_m: [\(head.x), 1.62, -0.615],"
                    + " material: hair, person: hair}",
                "{name: torso \(i), shape: box, size_m: [0.38, 0.5, 0.2], position_m: [\(head.x), 1.22, -0.68],"
                    + " material: shirt, person: body}",
            ]
        }
        return try MetadataRig.writeScene(
            "people", description: "People 0.6 m from the camera in front of a grey wall, office light.",
            materials: [
                "{name: wall, srgb: [0.6, 0.6, 0.62], roughness: 0.9}", #"{name: skin, reflectance: "skin:020"}"#,
                "{name: hair, srgb: [0.12, 0.09, 0.07], roughness: 0.5}",
                "{name: shirt, srgb: [0.15, 0.25, 0.5], roughness: 0.9}",
                "{name: brow, srgb: [0.235, 0.176, 0.157], roughness: 0.6}",
                "{name: eye white, srgb: [0.92, 0.92, 0.92], roughness: 0.3}",
                "{name: iris, srgb: [0.275, 0.235, 0.196], roughness: 0.3}",
                "{name: pupil, srgb: [0.04, 0.04, 0.04], roughness: 0.3}",
                "{name: shadowed skin, srgb: [0.59, 0.41, 0.31]}", "{name: lips, srgb: [0.63, 0.27, 0.27], roughness: 0.6}",
            ], objects: objects, in: folder)
    }

    private static func folder() -> URL { MetadataRig.folder("faces") }

    // spec §16 rule 1: the seed person's painted face is found where the camera images the head. The reference is
    // the scene's geometry: the head (radius 0.095 m) at (0, 1.58, −0.5) seen from (0, 1.55, 0) looking at
    // (0, 1.45, −1), projected through the format's field of view; the detector's box holds the face's features,
    // so it is narrower than the head and centred on it within a quarter of its width.
    @Test func thePaintedFaceOfTheSeedPersonIsFoundOnTheHead() throws {
        try onDevice {
            let rig = try MetadataRig(scene: "near-and-far", types: [.face, .humanBody])
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let faces = rig.last(AVMetadataFaceObject.self)
            #expect(faces.count == 1)
            let face = try #require(faces.first)
            #expect(face.type == .face && face.faceID >= 1)
            // spec §16 rule 4: the head is level, so its roll is about 0 (or just under 360); no yaw.
            #expect(face.hasRollAngle && !face.hasYawAngle)
            #expect(min(face.rollAngle, 360 - face.rollAngle) < 4, "\(face.rollAngle)")
            #expect(face.obscuraObjectName == "head")

            // The camera's frame: forward towards the look-at point, up the world's +Y made square to it.
            let forward =
                SIMD3<Double>(0, -0.1, -1) / (SIMD3<Double>(0, -0.1, -1) * SIMD3(0, -0.1, -1)).sum().squareRoot()
            var up = SIMD3<Double>(0, 1, 0) - forward.y * forward
            up /= (up * up).sum().squareRoot()
            let centre = SIMD3<Double>(0, 1.58, -0.5) - SIMD3(0, 1.55, 0)
            let depth = (centre * forward).sum()
            let (fx, fy) = rig.focal
            let headY = 0.5 - fy * (centre * up).sum() / depth
            let headWidth = fx * 2 * 0.095 / depth
            #expect(abs(face.bounds.midX - 0.5) < 0.25 * headWidth, "\(face.bounds) vs x 0.5")
            #expect(abs(face.bounds.midY - headY) < 0.25 * headWidth, "\(face.bounds) vs y \(headY)")
            #expect(
                face.bounds.width > 0.5 * headWidth && face.bounds.width < headWidth, "\(face.bounds) vs \(headWidth)")

            // The face lies inside the person's body, whose bounds are far taller.
            let body = try #require(rig.recorder.metadata.last?.first { $0.type == .humanBody })
            #expect(body.bounds.contains(face.bounds) && body.bounds.height > 2 * face.bounds.height)
        }
    }

    // spec §16 rule 1: a person whose head is a ball of bare skin has a body but no face: the scene's labels do not
    // make faces, the pixels do.
    @Test func aFeaturelessHeadIsNoFace() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let rig = try MetadataRig(scene: try Self.people([(0, false)], in: folder), types: [.face, .humanBody])
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(6)
            let delivered = rig.recorder.metadata.flatMap { $0 }
            #expect(delivered.contains { $0.type == .humanBody })
            #expect(!delivered.contains { $0.type == .face })
        }
    }

    // spec §16 rules 1 and 2: two painted faces side by side are two faces, each with its own ID, the left one
    // on the left; a bare head beside them adds none.
    @Test func twoFacesHaveTwoIDs() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let scene = try Self.people([(-0.16, true), (0.16, true), (0.45, false)], in: folder)
            let rig = try MetadataRig(scene: scene, types: [.face])
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let faces = rig.last(AVMetadataFaceObject.self).sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(faces.count == 2)
            #expect(Set(faces.map(\.faceID)).count == faces.count)
            #expect(faces.map(\.obscuraObjectName) == ["head 0", "head 1"])
            #expect(faces.allSatisfy { $0.bounds.midX < 0.75 })
        }
    }

    // spec §16 rule 4: heads turned about the camera's axis by 8° counterclockwise and 8° clockwise (as the camera
    // sees them) report those tilts, counterclockwise from 0 up to 360: about 8 and 352. On a portrait connection
    // the roll turns back by 90° with the picture, and a mirror then reverses it.
    @Test func aTiltedFaceReportsItsRoll() throws {
        try onDevice {
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let scene = try Self.people([(-0.14, true), (0.14, true)], roll: [8, -8], in: folder)
            let rig = try MetadataRig(scene: scene, types: [.face])
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(4)
            let faces = rig.last(AVMetadataFaceObject.self).sorted { $0.bounds.midX < $1.bounds.midX }
            #expect(faces.map(\.obscuraObjectName) == ["head 0", "head 1"])
            guard faces.count == 2 else { return }
            #expect(faces.allSatisfy { $0.hasRollAngle })
            #expect(abs(faces[0].rollAngle - 8) < 3, "\(faces[0].rollAngle)")
            #expect(abs(faces[1].rollAngle - 352) < 3, "\(faces[1].rollAngle)")

            let video = AVCaptureVideoDataOutput()
            rig.session.addOutput(video)
            let connection = try #require(video.connection(with: .video))
            connection.videoRotationAngle = 90
            let turned = try #require(
                video.transformedMetadataObject(for: faces[0], connection: connection) as? AVMetadataFaceObject)
            #expect(turned.hasRollAngle && abs(turned.rollAngle - (faces[0].rollAngle + 270)) < 1e-9)
            connection.automaticallyAdjustsVideoMirroring = false
            connection.isVideoMirrored = true
            let mirrored = try #require(
                video.transformedMetadataObject(for: faces[0], connection: connection) as? AVMetadataFaceObject)
            #expect(abs(mirrored.rollAngle - (90 - faces[0].rollAngle)) < 1e-9)
        }
    }

    // spec §16 rule 2: a face keeps its ID frame after frame while in view; once it has gone (here outside the
    // rect of interest, where nothing is searched) and comes back, it takes a new ID, never one used before.
    @Test func aFaceKeepsItsIDAndTakesANewOneWhenItReturns() throws {
        try onDevice {
            let rig = try MetadataRig(scene: "near-and-far", types: [.face])
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(10)
            let first = rig.recorder.metadata.compactMap { $0.compactMap { $0 as? AVMetadataFaceObject }.first }
            #expect(first.count >= 6)
            let id = try #require(first.first?.faceID)
            #expect(first.allSatisfy { $0.faceID == id })

            rig.metadata.rectOfInterest = CGRect(x: 0, y: 0, width: 0.2, height: 0.2)
            Emulator.shared.runFrames(6)
            let before = rig.recorder.metadata.count
            rig.metadata.rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
            Emulator.shared.runFrames(6)
            let returned = rig.recorder.metadata.dropFirst(before).compactMap {
                $0.compactMap { $0 as? AVMetadataFaceObject }.first
            }
            let again = try #require(returned.last)
            #expect(again.faceID > id)
        }
    }
}
