/// Reads a section's `provenance` value (see `Provenance` for the two spellings).
enum ProvenanceReader {
    /// Parses one `kind[: note]` string.
    static func provenance(_ node: YAMLNode) throws -> Provenance {
        let text = try node.string()
        let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let kindText = parts.first ?? ""
        guard let kind = Provenance.Kind(rawValue: kindText) else {
            var message =
                "provenance must start with documented, measured or modelled, found \(TextExcerpt.quoted(kindText))"
            if let guess = EditDistance.suggestion(for: kindText, among: Provenance.Kind.allCases.map(\.rawValue)) {
                message += "; did you mean '\(guess)'?"
            }
            throw node.error(message)
        }
        return Provenance(kind, parts.count > 1 ? parts[1] : "")
    }

    /// The `provenance` entry of a section whose other keys are `sectionKeys`.
    static func read(_ section: YAMLMapping, sectionKeys: [String]) throws -> ProvenanceMap {
        let node = try section.required("provenance")
        if case .scalar = node.node { return ProvenanceMap(try provenance(node)) }
        let keys = ["default"] + sectionKeys.filter { $0 != "provenance" }
        let map = try node.mapping(allowedKeys: keys)
        let fallback = try provenance(try map.required("default"))
        var overrides: [String: Provenance] = [:]
        for entry in map.entries where entry.key != "default" {
            overrides[entry.key] = try provenance(entry.value)
        }
        return ProvenanceMap(fallback, overrides: overrides)
    }
}

import Foundation
import ObscuraSupport
