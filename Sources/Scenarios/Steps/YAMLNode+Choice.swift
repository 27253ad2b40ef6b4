import ObscuraSupport

extension YAMLNode {
    /// A string that must be one of a table's names; a typo gets a "did you mean".
    func named<T>(_ table: [String: T], what: String) throws -> T {
        let text = try string()
        if let value = table[text] { return value }
        let names = table.keys.sorted()
        var message = "unknown \(what) '\(text)'"
        if let guess = EditDistance.suggestion(for: text, among: names) {
            message += "; did you mean '\(guess)'?"
        } else {
            message += "; expected one of: \(names.joined(separator: ", "))"
        }
        throw error(message)
    }

    /// The scalar text of any scalar, for values compared as written.
    func scalarString() throws -> String {
        guard case let .scalar(scalar) = node else { throw error("expected a single value, found \(kindDescription)") }
        return scalar.string
    }
}

extension YAMLNode {
    /// A mapping whose keys are names the scenario chose (output names), so any plain key goes.
    func freeMapping() throws -> YAMLMapping {
        guard case let .mapping(raw) = node else { throw error("expected a mapping, found \(kindDescription)") }
        let keys = raw.compactMap { key, _ -> String? in
            if case let .scalar(scalar) = key { return scalar.string }
            return nil
        }
        return try mapping(allowedKeys: keys)
    }
}
