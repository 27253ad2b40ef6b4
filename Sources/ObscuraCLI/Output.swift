import Foundation

/// Prints a value as JSON with sorted keys, so scripts can rely on a stable layout.
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let data = try encoder.encode(value)
    print(String(decoding: data, as: UTF8.self))
}

/// A number with a fixed count of decimals, without locale surprises.
func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// A number with an explicit sign.
func signed(_ value: Double, _ decimals: Int) -> String {
    String(format: "%+.\(decimals)f", value)
}
