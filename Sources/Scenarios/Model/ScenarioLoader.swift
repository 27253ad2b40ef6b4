import Devices
import Foundation
import Scenes

/// Reads scenario files (`Scenes/*.scenario.yaml`) into validated `Scenario` values.
///
/// Every problem is a `LocatedError` (`file:line:column: message`), with the nearest key
/// suggested for a typo. Several errors in one file are reported together.
public enum ScenarioLoader {
    static let topKeys = ["description", "device", "scene", "seed", "clock", "steps"]
    static let stepExtraKeys = ["expect", "save"]

    /// Loads a scenario file.
    public static func load(path: String) throws -> Scenario {
        let root = try YAMLDocument.load(path: path)
        return try read(root, file: path)
    }

    /// Parses scenario text; `file` names it in errors and decides where scene names are looked up.
    public static func load(text: String, file: String) throws -> Scenario {
        try read(try YAMLDocument.parse(text, file: file), file: file)
    }

    private static func read(_ root: YAMLNode, file: String) throws -> Scenario {
        let map = try root.mapping(allowedKeys: topKeys)
        var errors = ErrorCollector()
        let device = errors.attempt { try readDevice(map) } ?? DeviceCatalog.defaultDeviceID
        let scene = errors.attempt { try readScene(map, file: file) } ?? SceneLoader.defaultSceneName
        let seed = errors.attempt { try map.optional("seed").map { UInt64(try $0.int(in: 0...Int.max)) } ?? 0 } ?? 0
        let clock = errors.attempt { try map.optional("clock")?.choice(Scenario.Clock.self) ?? .virtual } ?? .virtual
        let description = errors.attempt { try map.optional("description")?.string() } ?? nil
        var steps: [StepEntry] = []
        if let list = errors.attempt({ try map.required("steps").sequence() }) {
            if list.isEmpty, let node = map.optional("steps") { errors.add(node.error("a scenario needs at least one step")) }
            for (i, node) in list.enumerated() {
                if let entry = errors.attempt({ try readStep(node, index: i + 1) }) { steps.append(entry) }
            }
        }
        try errors.throwIfAny()
        let base = URL(fileURLWithPath: file).lastPathComponent
        let name = base.hasSuffix(".scenario.yaml") ? String(base.dropLast(".scenario.yaml".count))
            : URL(fileURLWithPath: base).deletingPathExtension().lastPathComponent
        return Scenario(
            file: file, name: name, description: description, device: device, scene: scene, seed: seed,
            clock: clock, steps: steps)
    }

    private static func readDevice(_ map: YAMLMapping) throws -> String {
        guard let node = map.optional("device") else { return DeviceCatalog.defaultDeviceID }
        let id = try node.string()
        do {
            _ = try DeviceCatalog().profile(id)
        } catch let error as LocatedError where !(id.hasSuffix(".yaml") || id.contains("/")) {
            // The catalogue locates its error in the catalogue; the user needs it at their key.
            throw node.error(error.message)
        }
        return id
    }

    /// The scene as a path: a name is looked up next to the scenario first, then in `Scenes/`.
    private static func readScene(_ map: YAMLMapping, file: String) throws -> String {
        let node = map.optional("scene")
        let name = try node?.string() ?? SceneLoader.defaultSceneName
        let here = URL(fileURLWithPath: file).deletingLastPathComponent().path
        let candidates = name.hasSuffix(".yaml") || name.contains("/")
            ? [URL(fileURLWithPath: name, relativeTo: URL(fileURLWithPath: here, isDirectory: true)).path]
            : [(here as NSString).appendingPathComponent(name + ".yaml")]
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            _ = try SceneLoader.load(path: path)
            return path
        }
        do {
            let loader = try SceneLoader()
            _ = try loader.scene(name)
            return name.hasSuffix(".yaml") || name.contains("/") ? name : (loader.directory as NSString)
                .appendingPathComponent(name + ".yaml")
        } catch let error as LocatedError {
            throw (node ?? map.node).error(error.message)
        }
    }

    private static func readStep(_ node: YAMLNode, index: Int) throws -> StepEntry {
        let key: String
        let keyNode: YAMLNode
        var value: YAMLNode?
        var map: YAMLMapping?
        switch node.node {
        case .scalar:
            key = try node.string()
            keyNode = node
        case let .mapping(raw):
            let allowed = StepRegistry.allKeys + stepExtraKeys
            // An unknown key here is most likely a mistyped step: say so, before the generic check.
            for (k, _) in raw {
                guard case let .scalar(scalar) = k, !allowed.contains(scalar.string) else { continue }
                throw unknownStep(scalar.string, at: YAMLNode(k, file: node.file, path: node.path).location)
            }
            let m = try node.mapping(allowedKeys: allowed)
            let stepKeys = m.entries.filter { !stepExtraKeys.contains($0.key) }
            guard stepKeys.count == 1, let first = stepKeys.first else {
                throw node.error(stepKeys.isEmpty
                    ? "a step needs one of: \(StepRegistry.steps.map { $0.key }.joined(separator: ", "))"
                    : "a step holds one API step, found \(stepKeys.map(\.key).joined(separator: " and "))")
            }
            key = first.key
            keyNode = first.keyNode
            // `- start:` followed by `expect:` gives the step a null value: the bare step.
            value = first.value.kindDescription == "nothing (null)" ? nil : first.value
            map = m
        default:
            throw node.error("expected a step (a name or a mapping), found \(node.kindDescription)")
        }
        guard let type = StepRegistry.type(for: key) else { throw unknownStep(key, at: keyNode.location) }
        let step = try type.init(value: value, step: node.labelled("steps[\(index - 1)] (\(key))"))
        let expectations = try map?.optional("expect").map(readExpectations) ?? []
        let saves = try map?.optional("save").map(readSaves) ?? []
        for save in saves where save.kind.fromCapture != (step is CaptureStep) || !(step is CaptureStep || step is StreamStep) {
            throw LocatedError(
                save.location, save.kind.fromCapture ? "'\(save.kind.rawValue)' is saved from a capture step"
                    : "'\(save.kind.rawValue)' is saved from a stream step")
        }
        return StepEntry(
            index: index, key: key, location: keyNode.location, step: step, expectations: expectations, saves: saves)
    }

    private static func unknownStep(_ key: String, at location: SourceLocation) -> LocatedError {
        var message = "unknown step '\(key)'"
        if let guess = EditDistance.suggestion(for: key, among: StepRegistry.allKeys + stepExtraKeys) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += "; steps: \(StepRegistry.steps.map { $0.key }.joined(separator: ", "))"
        }
        return LocatedError(location, message)
    }

    private static func readExpectations(_ node: YAMLNode) throws -> [any Expectation] {
        let map = try node.mapping(allowedKeys: ExpectationRegistry.allKeys)
        var result: [any Expectation] = []
        for type in ExpectationRegistry.expectations where type.keys.contains(where: map.has) {
            result.append(try type.init(map))
        }
        if result.isEmpty { throw node.error("'expect' is empty") }
        return result
    }

    private static func readSaves(_ node: YAMLNode) throws -> [SaveRequest] {
        let kinds = Dictionary(uniqueKeysWithValues: SaveRequest.Kind.allCases.map { ($0.rawValue, $0) })
        return try node.sequence().map { item in
            if case .scalar = item.node {
                return SaveRequest(kind: try item.named(kinds, what: "output"), relativePath: nil, location: item.location)
            }
            let map = try item.mapping(allowedKeys: kinds.keys.sorted())
            guard map.entries.count == 1, let entry = map.entries.first else {
                throw item.error("each save entry names one output: {photo: photos/pot.png}")
            }
            let chosen = try entry.keyNode.named(kinds, what: "output")
            let path = try entry.value.string()
            try SaveRequest.validateRelative(path, node: entry.value)
            return SaveRequest(kind: chosen, relativePath: path, location: entry.value.location)
        }
    }
}
