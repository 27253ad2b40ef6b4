import Imaging
import ObscuraSupport

/// Typed readers shared by every part of a scene file.
extension YAMLNode {
    /// A list of three numbers.
    func vector3() throws -> Vector3 {
        let items = try sequence(count: 3)
        var errors = ErrorCollector()
        let values = items.map { item in errors.attempt { try item.double() } }
        try errors.throwIfAny()
        return Vector3(values[0] ?? 0, values[1] ?? 0, values[2] ?? 0)
    }

    /// A list of three numbers that is not the zero vector, normalised to unit length.
    func direction() throws -> Vector3 {
        let v = try vector3()
        guard v.length > 1e-12 else { throw error("a direction cannot be the zero vector") }
        return v.normalized
    }

    /// A list of `count` sizes, each greater than zero; every bad entry is reported.
    func positiveDoubles(count: Int) throws -> [Double] {
        let items = try sequence(count: count)
        var errors = ErrorCollector()
        let values = items.map { item in errors.attempt { try item.positiveDouble() } }
        try errors.throwIfAny()
        return values.map { $0 ?? 0 }
    }

    /// A list of three encoded colour components, each 0…1.
    func colourTriple() throws -> SIMD3<Double> {
        let items = try sequence(count: 3)
        var errors = ErrorCollector()
        let values = items.map { item in errors.attempt { try item.double(in: 0...1) } }
        try errors.throwIfAny()
        return SIMD3(values[0] ?? 0, values[1] ?? 0, values[2] ?? 0)
    }

    /// The value of the `name` key when this node is a mapping that has one, without validating
    /// anything; used to label a list entry (`objects[2] (pot)`) before it is read.
    var nameLabel: String? { node.mapping?["name"]?.scalar?.string }

    /// This node relabelled with its `name` entry, if it has one.
    var labelledByName: YAMLNode {
        guard let name = nameLabel else { return self }
        return labelled("\(path) (\(TextExcerpt.make(name, limit: 40)))")
    }
}

extension YAMLMapping {
    /// The one key of `keys` this mapping holds: an error at the mapping when none is present,
    /// at the second key when several are.
    func exactlyOne(of keys: [String], what: String) throws -> String {
        let present = keys.filter { has($0) }
        guard let first = present.first else {
            throw node.error("\(what) needs one of: \(keys.joined(separator: ", "))")
        }
        if present.count > 1, let second = keyNode(present[1]) {
            throw LocatedError(
                second.location, "\(node.path): give only one of \(present.joined(separator: ", ")) for \(what)")
        }
        return first
    }

    /// Rejects keys that are legal in the schema but not in this variant (`radius_m` on a plane).
    func reject(_ keys: [String], because reason: String) throws {
        for key in keys {
            if let keyNode = keyNode(key) {
                throw LocatedError(keyNode.location, "\(node.path): \(TextExcerpt.quoted(key)) \(reason)")
            }
        }
    }
}

/// A value reported missing by a collector; only reached when errors were already recorded.
func collected<T>(_ value: T?, at node: YAMLNode) throws -> T {
    guard let value else { throw node.error("incomplete entry") }
    return value
}
