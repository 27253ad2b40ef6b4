import Foundation
import ObscuraSupport

/// Turns a device-profile YAML file into a validated `DeviceProfile`.
///
/// The schema is documented in `DeviceProfiles/README.md`. Validation runs camera by camera:
/// every camera is checked even when an earlier one failed, and each message names the camera
/// (`cameras[2] (back-tele).optics.focal_length_mm: must be positive, found -6.6`). All problems
/// are thrown together as `LocatedErrors`. Cross-checks between sections (is the baseline what the
/// extrinsics say? is the inverse distortion table the inverse?) are `DeviceProfileLint`'s job.
public enum DeviceProfileLoader {
    /// Loads and validates a profile file.
    public static func load(path: String) throws -> DeviceProfile {
        try load(root: try YAMLDocument.load(path: path), file: path)
    }

    /// Loads and validates profile text; `file` is used in error locations.
    public static func load(text: String, file: String) throws -> DeviceProfile {
        try load(root: try YAMLDocument.parse(text, file: file), file: file)
    }

    static let topKeys = ["id", "name", "family", "multicam", "cameras", "flash", "capture_errors"]

    static func load(root: YAMLNode, file: String) throws -> DeviceProfile {
        var errors = ErrorCollector()
        let top = try root.mapping(allowedKeys: topKeys)
        let id = errors.attempt { try top.required("id").string() }
        let name = errors.attempt { try top.required("name").string() }
        let family = errors.attempt { try top.required("family").string() }
        let multicam = errors.attempt { try top.optional("multicam")?.bool() ?? false }
        let cameraNodes = try top.required("cameras").sequence()
        if cameraNodes.isEmpty { errors.add(try top.required("cameras").error("a device needs at least one camera")) }

        // First pass: the ids, so that cross-references can be checked while each camera loads.
        let labelled: [YAMLNode] = cameraNodes.map { node in
            guard let idNode = node.node.mapping?["id"], let cameraID = idNode.scalar?.string else { return node }
            return node.labelled("\(node.path) (\(TextExcerpt.make(cameraID, limit: 40)))")
        }
        let cameraIDs = cameraNodes.compactMap { $0.node.mapping?["id"]?.scalar?.string }
        var seen = Set<String>()
        for node in labelled {
            if let idNode = node.node.mapping?["id"], let cameraID = idNode.scalar?.string,
                !seen.insert(cameraID).inserted
            {
                errors.add(
                    YAMLNode(idNode, file: file, path: node.path + ".id").error("duplicate camera id '\(cameraID)'"))
            }
        }

        var cameras: [CameraProfile] = []
        for node in labelled {
            if let camera = errors.attempt({ try CameraReader.read(node, cameraIDs: cameraIDs) }) {
                cameras.append(camera)
            }
        }
        var flash: FlashHardware?
        if let flashNode = top.optional("flash") {
            flash = errors.attempt { try FlashReader.read(flashNode) }
        }
        var captureErrors: CaptureErrors?
        if let node = top.optional("capture_errors") {
            captureErrors = errors.attempt { try CaptureErrorsReader.read(node) }
        }
        try errors.throwIfAny()
        guard let id, let name, let family else { throw LocatedErrors(errors.errors) }
        return DeviceProfile(
            id: id, name: name, family: family, cameras: cameras, flash: flash,
            supportsMultiCam: multicam ?? false, sourceFile: file,
            sourceLocations: root.locationsByPath(), captureErrors: captureErrors ?? .none)
    }
}

/// Reads `[width, height]` pairs.
extension YAMLNode {
    func dimensions() throws -> Dimensions {
        let items = try sequence(count: 2)
        return Dimensions(width: try items[0].positiveInt(), height: try items[1].positiveInt())
    }

    /// A list of at least `minimum` numbers.
    func doubles(minimum: Int) throws -> [Double] {
        let values = try doubles()
        guard values.count >= minimum else {
            throw error("needs at least \(minimum) entries, found \(values.count)")
        }
        return values
    }

    /// A non-empty list of choices without repeats.
    func choices<T: RawRepresentable & CaseIterable & Hashable>(_ type: T.Type) throws -> [T]
    where T.RawValue == String {
        let items = try sequence()
        guard !items.isEmpty else { throw error("must list at least one value") }
        var out: [T] = []
        for item in items {
            let value = try item.choice(type)
            guard !out.contains(value) else { throw item.error("'\(value.rawValue)' is listed twice") }
            out.append(value)
        }
        return out
    }
}
