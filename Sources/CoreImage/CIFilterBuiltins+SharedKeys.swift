import Foundation

// Parameters of the typed filters that several filter families share, each reading and writing its key (the pattern
// of `CIFilterBuiltins+More.swift`).

extension BuiltinFilter {
}
