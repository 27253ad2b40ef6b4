import Foundation
import Obscura
import ObscuraAV
import ObscuraSupport
import Scenes

/// `scene_object: {name: pot, remove: true}`, `{name: pot, position_m: [x, y, z]}` or
/// `{name: pot, move_by_m: [dx, dy, dz]}`: changes the scene's objects between steps through
/// `Emulator.shared.use(scene:named:)`.
struct SceneObjectStep: ScenarioStep {
    static let key = "scene_object"
    static let summary = "takes an object out of the scene or moves it"

    enum Change {
        case remove
        case place(Vector3)
        case move(Vector3)
    }

    let name: String
    let change: Change

    init(value: YAMLNode?, step: YAMLNode) throws {
        let map = try Self.requireValue(value, step: step)
            .mapping(allowedKeys: ["name", "remove", "position_m", "move_by_m"])
        name = try map.required("name").string()
        let given = ["remove", "position_m", "move_by_m"].filter(map.has)
        guard given.count == 1 else {
            throw map.node.error("'scene_object' takes exactly one of remove, position_m, move_by_m")
        }
        func vector(_ node: YAMLNode) throws -> Vector3 {
            let v = try node.sequence(count: 3).map { try $0.double() }
            return Vector3(v[0], v[1], v[2])
        }
        if let node = map.optional("remove") {
            guard try node.bool() else { throw node.error("'remove' must be true") }
            change = .remove
        } else if let node = map.optional("position_m") {
            change = .place(try vector(node))
        } else {
            change = .move(try vector(try map.required("move_by_m")))
        }
    }

    var apiCalls: [String] {
        let edit: String
        switch change {
        case .remove: edit = "scene.objects.removeAll { $0.name == \"\(name)\" }"
        case let .place(p): edit = "object '\(name)'.transform.position = \(p)"
        case let .move(d): edit = "object '\(name)'.transform.position += \(d)"
        }
        return ["var scene = Emulator.shared.sceneValue", edit, "Emulator.shared.use(scene: scene, named: …)"]
    }

    var specSections: [String] { ["the Scenes article (Lights, Objects)"] }

    func perform(_ context: RunContext) throws {
        var scene = Emulator.shared.sceneValue
        guard let i = scene.objects.firstIndex(where: { $0.name == name }) else {
            throw StepFailure("no object named '\(name)'; the scene has: \(scene.objects.map(\.name).joined(separator: ", "))")
        }
        switch change {
        case .remove:
            guard scene.objects.count > 1 else { throw StepFailure("a scene keeps at least one object") }
            scene.objects.remove(at: i)
        case let .place(p): scene.objects[i].transform.position = p
        case let .move(d): scene.objects[i].transform.position = scene.objects[i].transform.position + d
        }
        Emulator.shared.use(scene: scene, named: Emulator.shared.scene + " (edited)")
        context.scene = scene
    }
}
