/// Where a value comes from.
///
/// In a profile a section's `provenance` is either one string for every value in it
/// (`"documented: Apple tech specs"`), or a mapping with a `default` and per-key overrides
/// (`{default: modelled, f_number: "documented: Apple tech specs"}`). Each string starts with
/// the kind, optionally followed by `: ` and a short source note.
public struct Provenance: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How a value is known.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Published by Apple (tech specs, SDK headers, WWDC) and restated in the API spec.
        case documented
        /// Measured on a real unit (or the unit's own factory calibration).
        case measured
        /// Our plausible model, chosen to behave like the real device.
        case modelled
    }

    /// The kind.
    public var kind: Kind
    /// A short source note; may be empty.
    public var note: String

    /// A provenance from its parts.
    public init(_ kind: Kind, _ note: String = "") {
        self.kind = kind
        self.note = note
    }

    /// `kind: note`, the profile spelling.
    public var description: String { note.isEmpty ? kind.rawValue : "\(kind.rawValue): \(note)" }
}

/// The provenance of every value in one profile section.
public struct ProvenanceMap: Sendable, Hashable, Codable {
    /// The provenance of keys not listed in `overrides`.
    public var defaultProvenance: Provenance
    /// Per-key provenance, by the key's name in the profile.
    public var overrides: [String: Provenance]

    /// A map with one default and optional overrides.
    public init(_ defaultProvenance: Provenance, overrides: [String: Provenance] = [:]) {
        self.defaultProvenance = defaultProvenance
        self.overrides = overrides
    }

    /// The provenance of a key of the section.
    public func of(_ key: String) -> Provenance { overrides[key] ?? defaultProvenance }
}
