import Devices
import Foundation
import Imaging
import ObscuraAV
import ObscuraSupport
import Scenes

/// Resolves the files a scenario names (`device:`, `scene:`, `scene_light.from_scene:`) and keeps
/// them inside the folders a user trusts.
///
/// Scenario files are shared between teams and run in CI next to secrets; a reference must not be
/// able to read an arbitrary file and publish it in an error or a report. Paths resolve against
/// the scenario's own folder and must lie, links resolved, in that folder, the device catalogue,
/// the scene folder, or a folder the user allowed explicitly (`obscura run --allow-path DIR`).
/// Our choice (spec: scenario files).
struct FileReferences {
    /// The folder of the scenario file; relative references start here.
    let scenarioFolder: String
    /// The folders references may point into.
    let confinement: FileConfinement

    init(scenarioFile: String, allowedDirectories: [String]) {
        scenarioFolder = FileConfinement.folder(of: scenarioFile)
        let catalogue = try? DeviceCatalog().directory
        let scenes = try? SceneLoader().directory
        confinement = FileConfinement(
            allowing: [scenarioFolder] + [catalogue, scenes].compactMap { $0 } + allowedDirectories)
    }

    /// Whether a reference is a path rather than a catalogue id or scene name.
    static func isPath(_ reference: String) -> Bool { reference.hasSuffix(".yaml") || reference.contains("/") }

    /// `reference` as a path: absolute as given, else relative to the scenario's folder.
    func path(of reference: String) -> String {
        reference.hasPrefix("/") ? reference : FileConfinement.join(scenarioFolder, reference)
    }

    /// Refuses a path outside the trusted folders, at the node that named it.
    func check(_ path: String, given: String, at node: YAMLNode) throws {
        guard confinement.contains(path) else {
            throw node.error(
                "\(TextExcerpt.quoted(given)) lies outside the scenario's folder, the device catalogue and the "
                    + "scene folder; allow its folder with 'obscura run --allow-path DIR'")
        }
    }

    /// Loads a scene named by `name` (a name beside the scenario or in the scene folder, or a
    /// path); returns the path it came from and the scene. Errors are located at `node`.
    func scene(_ name: String, at node: YAMLNode) throws -> (path: String, scene: Scene) {
        // Footage (a movie, a picture or a folder of numbered pictures) is shown whole, on a screen filling the
        // view; its path obeys the same confinement as a scene file's.
        if !name.hasSuffix(".yaml"), FootageScene.isFootage(path(of: name)) {
            let path = self.path(of: name)
            try check(path, given: name, at: node)
            do {
                return (path, try Emulation.footage(path))
            } catch {
                throw node.error("cannot show the footage \(TextExcerpt.quoted(name)): \(error)")
            }
        }
        let path: String
        if Self.isPath(name) {
            path = self.path(of: name)
        } else {
            let here = FileConfinement.join(scenarioFolder, name + ".yaml")
            if FileManager.default.fileExists(atPath: here) {
                path = here
            } else {
                do {
                    let loader = try SceneLoader()
                    let candidate = FileConfinement.join(loader.directory, name + ".yaml")
                    // The loader words a missing name, with suggestions; the user needs it at their key.
                    if !FileManager.default.fileExists(atPath: candidate) { _ = try loader.scene(name) }
                    path = candidate
                } catch let error as LocatedError {
                    throw node.error(error.message)
                }
            }
        }
        try check(path, given: name, at: node)
        // Asked only once the path is known to be inside: no probing of other folders.
        guard FileManager.default.fileExists(atPath: path) else {
            throw node.error("no scene file \(TextExcerpt.quoted(name)) (paths start at the scenario's folder)")
        }
        let scene = try SceneLoader.load(path: path, allowedDirectories: confinement.roots)
        return (path, scene)
    }

    /// Footage given as a mapping, `{footage: PATH, mode: physics | direct, depth: PATH}`: the footage's path, how
    /// reports name it (as written, with the mode and depth), and the scene. Both paths obey the confinement of
    /// scene files; errors are located at the key they concern.
    func footage(_ node: YAMLNode) throws -> (path: String, reference: String, scene: Scene) {
        let map = try node.mapping(allowedKeys: ["footage", "mode", "depth"])
        let footageNode = try map.required("footage")
        let given = try footageNode.string()
        let mode = try map.optional("mode")?.choice(FootageMode.self) ?? .physics
        let depthNode = map.optional("depth")
        let givenDepth = try depthNode?.string()
        let path = self.path(of: given)
        try check(path, given: given, at: footageNode)
        guard !given.hasSuffix(".yaml"), FootageScene.isFootage(path) else {
            throw footageNode.error(
                "\(TextExcerpt.quoted(given)) is not footage: expected a movie (.y4m, .mp4, .mov, .m4v, .mkv, .webm, "
                    + ".avi), a picture (.png, .jpg, .heic) or a folder of numbered pictures")
        }
        var depthPath: String?
        if let givenDepth, let depthNode {
            let resolved = self.path(of: givenDepth)
            try check(resolved, given: givenDepth, at: depthNode)
            depthPath = resolved
        }
        let scene: Scene
        do {
            scene = try Emulation.footage(path, mode: mode, depth: depthPath)
        } catch let error as FootageError {
            // The depth's own problems are reported at `depth:`, the footage's at `footage:`.
            // A picture inside a folder is named as the user would write it.
            func named(_ root: String, _ written: String) -> String {
                guard error.path != root, error.path.hasPrefix(root + "/") else { return error.reason }
                let inside = error.path.dropFirst(root.count + 1)
                return "\(FileConfinement.join(written, String(inside))): \(error.reason)"
            }
            if let depthPath, error.path.hasPrefix(depthPath), let depthNode, let givenDepth {
                throw depthNode.error(
                    "cannot use the depth \(TextExcerpt.quoted(givenDepth)): \(named(depthPath, givenDepth))")
            }
            throw footageNode.error("cannot show the footage \(TextExcerpt.quoted(given)): \(named(path, given))")
        } catch {
            throw footageNode.error("cannot show the footage \(TextExcerpt.quoted(given)): \(error)")
        }
        var extras: [String] = []
        if mode != .physics { extras.append("mode: \(mode.rawValue)") }
        if let givenDepth { extras.append("depth: \(givenDepth)") }
        return (path, extras.isEmpty ? given : "\(given) {\(extras.joined(separator: ", "))}", scene)
    }

    /// Resolves and checks a device reference; returns the id or the profile path.
    func device(_ id: String, at node: YAMLNode) throws -> String {
        if Self.isPath(id) {
            let path = self.path(of: id)
            try check(path, given: id, at: node)
            guard FileManager.default.fileExists(atPath: path) else {
                throw node.error("no profile file \(TextExcerpt.quoted(id)) (paths start at the scenario's folder)")
            }
            _ = try DeviceProfileLoader.load(path: path)
            return path
        }
        do {
            let catalog = try DeviceCatalog()
            _ = try catalog.profile(id)
            try check(FileConfinement.join(catalog.directory, id + ".yaml"), given: id, at: node)
        } catch let error as LocatedError {
            // The catalogue locates its error in the catalogue; the user needs it at their key.
            throw error.location.file == node.file ? error : node.error(error.message)
        }
        return id
    }
}
