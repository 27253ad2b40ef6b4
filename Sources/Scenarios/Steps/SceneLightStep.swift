import Foundation
import Obscura
import ObscuraAV
import ObscuraSupport
import Scenes

/// `scene_light: {name: red spot, scale: 0.5}`, `{name: red spot, remove: true}`,
/// `{name: red spot, from_scene: violets-red-light}` or `{name: ambient, scale: 2}`: changes the
/// scene's lights between steps through `Emulator.shared.use(scene:named:)`.
struct SceneLightStep: FileReferencingStep {
    static let key = "scene_light"
    static let summary = "switches a scene light off, scales it, or brings one in from another scene"

    enum Change {
        case remove
        case scale(Double)
        case add(fromScene: String)
    }

    let name: String
    let change: Change
    /// Where `name` and `from_scene` are written, for errors found while the loader reads the other scene.
    private let nameNode: YAMLNode
    private let fromSceneNode: YAMLNode?
    /// The light brought in by `from_scene`, read by the loader (`resolvingFiles`).
    private var importedLight: Light?

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step)
            .mapping(allowedKeys: ["name", "remove", "scale", "from_scene"])
        nameNode = try map.required("name")
        name = try nameNode.string()
        fromSceneNode = map.optional("from_scene")
        let given = ["remove", "scale", "from_scene"].filter(map.has)
        guard given.count == 1 else { throw map.node.error("'scene_light' takes exactly one of remove, scale, from_scene") }
        if let node = map.optional("remove") {
            guard try node.bool() else { throw node.error("'remove' must be true") }
            change = .remove
        } else if let node = map.optional("scale") {
            change = .scale(try node.double(in: 0...1000))
        } else {
            change = .add(fromScene: try map.required("from_scene").string())
        }
    }

    func resolvingFiles(_ references: FileReferences) throws -> SceneLightStep {
        guard case let .add(from) = change, let fromSceneNode else { return self }
        let other = try references.scene(from, at: fromSceneNode).scene
        guard let light = other.lights.first(where: { $0.name == name }) else {
            let names = other.lights.map { TextExcerpt.quoted($0.name) }
            throw nameNode.error(
                "scene \(TextExcerpt.quoted(from)) has no light named \(TextExcerpt.quoted(name))"
                    + (names.isEmpty ? "" : "; it has \(names.joined(separator: ", "))"))
        }
        var step = self
        step.importedLight = light
        return step
    }

    var apiCalls: [String] {
        var edit: String
        switch change {
        case .remove: edit = "scene.lights.removeAll { $0.name == \"\(name)\" }"
        case let .scale(s): edit = "scale light '\(name)' by \(s)"
        case let .add(from): edit = "scene.lights.append(light '\(name)' of scene '\(from)')"
        }
        return ["var scene = Emulator.shared.sceneValue", edit, "Emulator.shared.use(scene: scene, named: …)"]
    }

    var specSections: [String] { ["the Scenes article (Lights, Objects)"] }

    func perform(_ context: RunContext) throws {
        var scene = Emulator.shared.sceneValue
        let isAmbient = name == "ambient"
        switch change {
        case .remove:
            if isAmbient {
                scene.ambient = nil
            } else {
                guard scene.lights.contains(where: { $0.name == name }) else { throw unknown(scene) }
                scene.lights.removeAll { $0.name == name }
            }
        case let .scale(factor):
            if isAmbient {
                guard scene.ambient != nil else { throw StepFailure("the scene has no ambient light") }
                scene.ambient?.illuminance *= factor
            } else {
                guard let i = scene.lights.firstIndex(where: { $0.name == name }) else { throw unknown(scene) }
                scene.lights[i].kind = Self.scaled(scene.lights[i].kind, factor)
            }
        case let .add(from):
            guard let light = importedLight else {
                throw StepFailure("the light '\(name)' of scene '\(from)' was not read with the scenario")
            }
            scene.lights.removeAll { $0.name == name }
            scene.lights.append(light)
        }
        Emulator.shared.use(scene: scene, named: Emulator.shared.scene + " (edited)")
        context.scene = scene
        context.notes.append("Scene lights now: " + (scene.ambient.map { "ambient \(DepthRate.fmt($0.illuminance)) lux" } ?? "no ambient")
            + (scene.lights.isEmpty ? "" : ", " + scene.lights.map(\.name).joined(separator: ", ")) + ".")
    }

    private func unknown(_ scene: Scene) -> StepFailure {
        let names = scene.lights.map(\.name) + ["ambient"]
        return StepFailure("no light named '\(name)'; the scene has: \(names.joined(separator: ", "))")
    }

    private static func scaled(_ kind: Light.Kind, _ f: Double) -> Light.Kind {
        switch kind {
        case let .directional(towards, lux): return .directional(towardsLight: towards, illuminance: lux * f)
        case let .point(position, cd): return .point(position: position, intensity: cd * f)
        case let .spot(position, axis, cd, half):
            return .spot(position: position, axis: axis, intensity: cd * f, beamHalfAngleDegrees: half)
        }
    }
}
