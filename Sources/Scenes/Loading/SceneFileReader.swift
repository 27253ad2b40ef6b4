import Imaging
import ObscuraSupport
import Spectra

/// Walks a parsed scene file section by section, collecting every problem before giving up.
struct SceneFileReader {
    static let topKeys = ["description", "device", "ambient", "lights", "materials", "objects"]

    let file: String
    let baseDirectory: String
    /// Folders besides `baseDirectory` that textures may come from.
    var allowedDirectories: [String] = []

    func read(_ root: YAMLNode) throws -> Scene {
        let top = try root.mapping(allowedKeys: Self.topKeys)
        var errors = ErrorCollector()
        if let description = top.optional("description") { _ = errors.attempt { try description.string() } }

        // Materials first: objects refer to them by name.
        var materials: [String: Material] = [:]
        if let node = top.optional("materials"), let items = errors.attempt({ try node.sequence() }) {
            for item in items {
                let material = errors.attempt { try MaterialReader.read(item) }
                guard let nameNode = item.node.mapping?["name"], let name = nameNode.scalar?.string else { continue }
                if materials[name] != nil {
                    let at = YAMLNode(nameNode, file: file, path: item.labelledByName.path + ".name")
                    errors.add(at.error("duplicate material name '\(name)'"))
                }
                // A material that failed still counts as declared: its users should not report a
                // second, misleading "no material named" error.
                materials[name] = material ?? .neutral(name, reflectance: 0)
            }
        }

        var objects: [SceneObject] = []
        let objectReader = ObjectReader(
            materials: materials, baseDirectory: baseDirectory,
            confinement: FileConfinement(allowing: [baseDirectory] + allowedDirectories))
        var objectPositions: [String: Vector3] = [:]
        if let node = errors.attempt({ try top.required("objects") }),
            let items = errors.attempt({ try node.sequence() })
        {
            if items.isEmpty { errors.add(node.error("a scene needs at least one object")) }
            for item in items {
                if let object = errors.attempt({ try objectReader.read(item) }) {
                    objects.append(object)
                }
                guard let nameNode = item.node.mapping?["name"], let name = nameNode.scalar?.string else { continue }
                if objectPositions[name] != nil {
                    let at = YAMLNode(nameNode, file: file, path: item.labelledByName.path + ".name")
                    errors.add(at.error("duplicate object name '\(name)'; object names must be unique"))
                }
                let position = item.node.mapping?["position_m"].flatMap {
                    try? YAMLNode($0, file: file, path: "").vector3()
                }
                objectPositions[name] = position ?? .zero
            }
        }

        let lightReader = LightReader(objectPositions: objectPositions)
        let device = errors.attempt { try lightReader.readDevice(try top.required("device")) }
        let ambient = top.optional("ambient").flatMap { node in errors.attempt { try LightReader.readAmbient(node) } }
        var lights: [Light] = []
        if let node = top.optional("lights"), let items = errors.attempt({ try node.sequence() }) {
            var names = Set<String>()
            for item in items {
                if let light = errors.attempt({ try lightReader.read(item) }) {
                    if !names.insert(light.name).inserted, let nameNode = item.node.mapping?["name"] {
                        let at = YAMLNode(nameNode, file: file, path: item.labelledByName.path + ".name")
                        errors.add(at.error("duplicate light name '\(light.name)'"))
                    }
                    lights.append(light)
                }
            }
        }
        // No ambient and no lights is not an error: a dark room lit only by the flash is a scene.
        try errors.throwIfAny()
        return Scene(objects: objects, ambient: ambient, lights: lights, device: try collected(device, at: root))
    }
}
