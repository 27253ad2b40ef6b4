import Yams

/// A YAML node together with the file it came from and its path inside the document.
///
/// Every accessor either returns a well-typed value or throws a `LocatedError` that points at
/// the node and names its path (`cameras[2] (back-tele).optics.f_number: ...`). Paths are built
/// as the walk descends: `child(key:)`, `sequence()` and `labelled(_:)`.
public struct YAMLNode: @unchecked Sendable {
    // @unchecked: Yams' Node holds a weak anchor reference; Obscura never mutates a parsed tree.

    /// The underlying Yams node.
    public let node: Node
    /// The file, as given to `YAMLDocument.parse`.
    public let file: String
    /// The dotted path from the document root, empty for the root itself.
    public let path: String

    /// Wraps a node.
    public init(_ node: Node, file: String, path: String) {
        self.node = node
        self.file = file
        self.path = path
    }

    /// Where the node starts; line 1, column 1 when Yams has no mark.
    public var location: SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// An error at this node, prefixed with its path.
    public func error(_ message: String) -> LocatedError {
        LocatedError(location, path.isEmpty ? message : "\(path): \(message)")
    }

    /// The same node under a more readable path, e.g. `cameras[2]` → `cameras[2] (back-tele)`.
    public func labelled(_ path: String) -> YAMLNode { YAMLNode(node, file: file, path: path) }

    /// A short description of what the node is, for "expected X, found Y" messages.
    public var kindDescription: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case let .scalar(scalar):
            if scalar.style == .plain && (scalar.string.isEmpty || scalar.string == "~" || scalar.string == "null") {
                return "nothing (null)"
            }
            return TextExcerpt.quoted(scalar.string)
        }
    }

    // MARK: Containers

    /// This node as a mapping whose keys must all be in `allowedKeys`.
    ///
    /// An unknown key is reported at the key itself, with the nearest allowed key as a
    /// suggestion when it is a plausible typo.
    public func mapping(allowedKeys: [String]) throws -> YAMLMapping {
        guard case let .mapping(mapping) = node else { throw error("expected a mapping, found \(kindDescription)") }
        var entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        var seen = Set<String>()
        for (keyNode, valueNode) in mapping {
            let key = YAMLNode(keyNode, file: file, path: path)
            guard case let .scalar(scalar) = keyNode else { throw key.error("keys must be plain names") }
            let name = scalar.string
            guard allowedKeys.contains(name) else {
                let place = path.isEmpty ? "at the top level" : "in \(path)"
                var message = "unknown key \(TextExcerpt.quoted(name)) \(place)"
                if let guess = EditDistance.suggestion(for: name, among: allowedKeys) {
                    message += "; did you mean '\(guess)'?"
                } else {
                    message += "; allowed keys: \(allowedKeys.joined(separator: ", "))"
                }
                throw LocatedError(key.location, message)
            }
            guard seen.insert(name).inserted else {
                throw LocatedError(key.location, "duplicate key \(TextExcerpt.quoted(name))")
            }
            let childPath = path.isEmpty ? name : "\(path).\(name)"
            entries.append((name, key, YAMLNode(valueNode, file: file, path: childPath)))
        }
        return YAMLMapping(node: self, entries: entries)
    }

    /// This node as a list; each element's path is `path[i]`.
    public func sequence() throws -> [YAMLNode] {
        guard case let .sequence(sequence) = node else { throw error("expected a list, found \(kindDescription)") }
        return sequence.enumerated().map { YAMLNode($1, file: file, path: "\(path)[\($0)]") }
    }

    /// This node as a list of exactly `count` elements.
    public func sequence(count: Int) throws -> [YAMLNode] {
        let items = try sequence()
        guard items.count == count else { throw error("expected a list of \(count) values, found \(items.count)") }
        return items
    }

    // MARK: Scalars

    /// The plain scalar text; quoted strings are returned too.
    private func scalarText(expected: String) throws -> (String, Node.Scalar.Style) {
        guard case let .scalar(scalar) = node else { throw error("expected \(expected), found \(kindDescription)") }
        return (scalar.string, scalar.style)
    }

    /// A non-empty string.
    public func string() throws -> String {
        let (text, style) = try scalarText(expected: "a string")
        if style == .plain && (text.isEmpty || text == "~" || text == "null") {
            throw error("expected a string, found nothing (null)")
        }
        return text
    }

    /// A finite number. Quoted text is not a number.
    public func double() throws -> Double {
        let (text, style) = try scalarText(expected: "a number")
        guard style == .plain, let value = Double(text), value.isFinite else {
            throw error("expected a number, found \(kindDescription)")
        }
        return value
    }

    /// An integer.
    public func int() throws -> Int {
        let (text, style) = try scalarText(expected: "an integer")
        guard style == .plain, let value = Int(text) else {
            throw error("expected an integer, found \(kindDescription)")
        }
        return value
    }

    /// `true` or `false`.
    public func bool() throws -> Bool {
        let (text, style) = try scalarText(expected: "true or false")
        guard style == .plain, text == "true" || text == "false" else {
            throw error("expected true or false, found \(kindDescription)")
        }
        return text == "true"
    }

    /// A number greater than zero.
    public func positiveDouble() throws -> Double {
        let value = try double()
        guard value > 0 else { throw error("must be positive, found \(format(value))") }
        return value
    }

    /// A number of at least zero.
    public func nonNegativeDouble() throws -> Double {
        let value = try double()
        guard value >= 0 else { throw error("must not be negative, found \(format(value))") }
        return value
    }

    /// A number inside a closed range.
    public func double(in range: ClosedRange<Double>) throws -> Double {
        let value = try double()
        guard range.contains(value) else {
            throw error(
                "must be between \(format(range.lowerBound)) and \(format(range.upperBound)), found \(format(value))")
        }
        return value
    }

    /// An integer greater than zero.
    public func positiveInt() throws -> Int {
        let value = try int()
        guard value > 0 else { throw error("must be positive, found \(value)") }
        return value
    }

    /// An integer inside a closed range.
    public func int(in range: ClosedRange<Int>) throws -> Int {
        let value = try int()
        guard range.contains(value) else {
            throw error("must be between \(range.lowerBound) and \(range.upperBound), found \(value)")
        }
        return value
    }

    /// One of a string enum's raw values, with a suggestion for near misses.
    public func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) throws -> T where T.RawValue == String {
        let text = try string()
        if let value = T(rawValue: text) { return value }
        let names = T.allCases.map(\.rawValue)
        var message = "unknown value \(TextExcerpt.quoted(text))"
        if let guess = EditDistance.suggestion(for: text, among: names) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += "; expected one of: \(names.joined(separator: ", "))"
        }
        throw error(message)
    }

    /// A list of numbers.
    public func doubles() throws -> [Double] { try sequence().map { try $0.double() } }

    /// Formats a number without a trailing `.0` for integers.
    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// A mapping whose keys have been checked, with typed access to its values.
public struct YAMLMapping: Sendable {
    /// The mapping node itself.
    public let node: YAMLNode
    /// The entries in file order.
    public let entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)]

    /// A mapping from entries already checked, such as a subset of another mapping's.
    public init(node: YAMLNode, entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)]) {
        self.node = node
        self.entries = entries
    }

    /// The value for `key`, or nil when absent.
    public func optional(_ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.value
    }

    /// The value for `key`; a missing key is reported at the mapping.
    public func required(_ key: String) throws -> YAMLNode {
        guard let value = optional(key) else { throw node.error("missing key '\(key)'") }
        return value
    }

    /// Whether the key is present.
    public func has(_ key: String) -> Bool { optional(key) != nil }

    /// The node of the key itself (for errors about the key rather than its value).
    public func keyNode(_ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.keyNode
    }

    /// The keys present, in file order.
    public var keys: [String] { entries.map(\.key) }
}

extension YAMLNode {
    /// The location of every node below this one, keyed by raw path (`a.b[2].c`, no labels),
    /// including this node under its own path. Lets later checks point at a value they question.
    public func locationsByPath(root: String = "") -> [String: SourceLocation] {
        var out: [String: SourceLocation] = [:]
        func walk(_ node: Node, _ path: String) {
            if let mark = node.mark { out[path] = SourceLocation(file: file, line: mark.line, column: mark.column) }
            switch node {
            case let .mapping(mapping):
                for (key, value) in mapping {
                    guard let name = key.scalar?.string else { continue }
                    walk(value, path.isEmpty ? name : "\(path).\(name)")
                }
            case let .sequence(sequence):
                for (i, item) in sequence.enumerated() { walk(item, "\(path)[\(i)]") }
            default:
                break
            }
        }
        walk(node, root)
        return out
    }
}
