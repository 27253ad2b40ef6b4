import Foundation
import ObscuraSupport

/// `properties: {session.isRunning: true, device.activeColorSpace: P3_D65}`: values read through
/// the public API after the step. Numbers compare within 1e-9 relative.
struct PropertiesExpectation: Expectation {
    static let keys = ["properties"]
    let values: [(name: String, expected: String)]
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("properties")
        let map = try node.mapping(allowedKeys: PropertyTable.names)
        values = try map.entries.map { ($0.key, try $0.value.scalarString()) }
        location = node.location
    }

    static func matches(_ actual: String, _ expected: String) -> Bool {
        if actual == expected { return true }
        guard let a = Double(actual), let e = Double(expected) else { return false }
        return abs(a - e) <= 1e-9 * max(1, abs(e))
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        var passed = true
        var actual: [String] = []
        for (name, expected) in values {
            let value = PropertyTable.read(name, context) ?? "(no such object yet)"
            let ok = Self.matches(value, expected)
            passed = passed && ok
            actual.append("\(name)=\(value)\(ok ? "" : " ✗")")
        }
        return ExpectationResult(
            key: "properties", passed: passed,
            expected: values.map { "\($0.name)=\($0.expected)" }.joined(separator: ", "),
            actual: actual.joined(separator: ", "), location: location)
    }
}
