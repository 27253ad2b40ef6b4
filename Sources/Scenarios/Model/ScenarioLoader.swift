import Devices
import Foundation
import ObscuraSupport
import Scenes

/// Reads scenario files (`Scenes/*.scenario.yaml`) into validated `Scenario` values.
///
/// Every problem is a `LocatedError` (`file:line:column: message`), with the nearest key
/// suggested for a typo. Several errors in one file are reported together.
public enum ScenarioLoader {
    static let topKeys = ["description", "device", "scene", "seed", "clock", "faults", "steps"]

    /// A scene file given where a scenario belongs (`obscura run Scenes/spoon.yaml`) is told so, instead of
    /// its first scene key being reported as an unknown scenario key: a mapping without `steps` that has a
    /// scene's `objects`, `ambient` or `materials`.
    static func refuseScene(_ root: YAMLNode, file: String) throws {
        guard case let .mapping(pairs) = root.node else { return }
        let keys = Set(pairs.compactMap { pair -> String? in
            if case let .scalar(scalar) = pair.0 { return scalar.string }
            return nil
        })
        guard !keys.contains("steps"), !keys.isDisjoint(with: ["objects", "ambient", "materials"]) else { return }
        throw LocatedError(
            root.location,
            "this is a scene, not a scenario (it has \(keys.contains("objects") ? "objects" : "scene keys") and no "
                + "steps): render it with 'obscura render \(file)', or name it in a scenario's 'scene:'")
    }
    static let stepExtraKeys = ["expect", "save"]

    /// Loads a scenario file.
    ///
    /// The files it names must lie in its own folder, the device catalogue, the scene folder or one
    /// of `allowedDirectories` (see `FileReferences`).
    public static func load(path: String, allowedDirectories: [String] = []) throws -> Scenario {
        let root = try YAMLDocument.load(path: path)
        return try read(root, file: path, allowedDirectories: allowedDirectories)
    }

    /// Parses scenario text; `file` names it in errors and is the folder where relative
    /// references start.
    public static func load(text: String, file: String, allowedDirectories: [String] = []) throws -> Scenario {
        try read(try YAMLDocument.parse(text, file: file), file: file, allowedDirectories: allowedDirectories)
    }

    private static func read(_ root: YAMLNode, file: String, allowedDirectories: [String]) throws -> Scenario {
        try refuseScene(root, file: file)
        let map = try root.mapping(allowedKeys: topKeys)
        let references = FileReferences(scenarioFile: file, allowedDirectories: allowedDirectories)
        var errors = ErrorCollector()
        let deviceName = (try? map.optional("device")?.string()) ?? DeviceCatalog.defaultDeviceID
        let device = errors.attempt { try readDevice(map, references) } ?? DeviceCatalog.defaultDeviceID
        var sceneName = (try? map.optional("scene")?.string()) ?? SceneLoader.defaultSceneName
        let scene = errors.attempt { () throws -> (path: String, scene: Scene) in
            // `scene: {footage: PATH, mode: direct, depth: PATH}` chooses how footage is shown.
            if let node = map.optional("scene"), (try? node.string()) == nil {
                let footage = try references.footage(node)
                sceneName = footage.reference
                return (footage.path, footage.scene)
            }
            return try references.scene(sceneName, at: map.optional("scene") ?? map.node)
        }
        let seed = errors.attempt { try map.optional("seed").map { UInt64(try $0.int(in: 0...Int.max)) } ?? 0 } ?? 0
        let clock = errors.attempt { try map.optional("clock")?.choice(Scenario.Clock.self) ?? .virtual } ?? .virtual
        let description = errors.attempt { try map.optional("description")?.string() } ?? nil
        var faults: [ScenarioFault] = []
        if let list = errors.attempt({ try map.optional("faults")?.sequence() }) ?? nil {
            for node in list {
                if let fault = errors.attempt({ try ScenarioFault(node) }) { faults.append(fault) }
            }
        }
        var steps: [StepEntry] = []
        if let list = errors.attempt({ try map.required("steps").sequence() }) {
            if list.isEmpty, let node = map.optional("steps") { errors.add(node.error("a scenario needs at least one step")) }
            for (i, node) in list.enumerated() {
                if let entry = errors.attempt({ try readStep(node, index: i + 1, references: references) }) {
                    steps.append(entry)
                }
            }
        }
        try errors.throwIfAny()
        guard let scene else { throw LocatedErrors(errors.errors) }
        let name = folderName(forScenarioFile: file)
        return Scenario(
            file: file, name: name, description: description, device: device, deviceReference: deviceName,
            scene: scene.path, sceneReference: sceneName, sceneValue: scene.scene, seed: seed, clock: clock,
            faults: faults, steps: steps)
    }

    /// The scenario's name, from its file name without `.scenario.yaml`; it names the output folder,
    /// so it is made a plain folder name: characters other than letters, digits, `-`, `_` and `.`
    /// become `-`, and leading dots are dropped (`...scenario.yaml` must not name `..`). Our choice.
    public static func folderName(forScenarioFile file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        var stem = base
        if base.hasSuffix(".scenario.yaml") {
            stem = String(base.dropLast(".scenario.yaml".count))
        } else if let dot = base.lastIndex(of: "."), dot != base.startIndex {
            stem = String(base[..<dot])
        }
        let safe = String(stem.unicodeScalars.map { scalar -> Character in
            let allowed = scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            return allowed ? Character(scalar) : "-"
        })
        let trimmed = String(safe.drop { $0 == "." })
        return trimmed.isEmpty ? "scenario" : trimmed
    }

    /// The device id, or the profile's path resolved against the scenario's folder.
    private static func readDevice(_ map: YAMLMapping, _ references: FileReferences) throws -> String {
        guard let node = map.optional("device") else { return DeviceCatalog.defaultDeviceID }
        return try references.device(try node.string(), at: node)
    }

    private static func readStep(_ node: YAMLNode, index: Int, references: FileReferences) throws -> StepEntry {
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
        var step = try type.init(value: value, step: node.labelled("steps[\(index - 1)] (\(key))"))
        if let referencing = step as? any FileReferencingStep { step = try referencing.resolvingFiles(references) }
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
            let map = try item.mapping(allowedKeys: kinds.keys.sorted() + ["format"])
            let outputs = map.entries.filter { $0.key != "format" }
            guard outputs.count == 1, let entry = outputs.first else {
                throw item.error("each save entry names one output: {photo: photos/pot.png}, optionally with a format")
            }
            let chosen = try entry.keyNode.named(kinds, what: "output")
            let path = try entry.value.string()
            let formatNode = map.optional("format")
            if let formatNode, chosen != .photo && chosen != .fallback {
                throw formatNode.error("'format' chooses how a photo or fallback is saved, not a \(chosen.rawValue)")
            }
            // The format asked for, else the one the path's extension names; PNG when neither says.
            let format = try formatNode?.choice(SaveRequest.PhotoFormat.self)
                ?? (chosen == .photo || chosen == .fallback ? SaveRequest.PhotoFormat.named(by: path) : nil) ?? .png
            try SaveRequest.validateRelative(path, node: entry.value, extensions: format.extensions)
            var request = SaveRequest(kind: chosen, relativePath: path, location: entry.value.location)
            request.format = format
            return request
        }
    }
}
