import Foundation
import ObscuraSupport

/// `synchronized: {count: 6, cycle: [{video_data: present, depth_data: present},
/// {video_data: present, depth_data: absent}]}`: the synchronizer's collections during the step.
/// Collection i is checked against `cycle[i mod cycle.count]`; each named output must be
/// `present`, `dropped` or `absent`, and outputs not named must be absent.
struct SynchronizedExpectation: Expectation {
    static let keys = ["synchronized"]
    static let states = ["present": "present", "dropped": "dropped", "absent": "absent"]

    let count: Int?
    let cycle: [[String: String]]
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("synchronized")
        let map = try node.mapping(allowedKeys: ["count", "cycle"])
        count = try map.optional("count")?.int(in: 0...10_000_000)
        cycle = try map.optional("cycle")?.sequence().map { item in
            var shape: [String: String] = [:]
            for entry in try item.freeMapping().entries {
                shape[entry.key] = try entry.value.named(Self.states, what: "collection entry state")
            }
            return shape
        } ?? []
        if count == nil && cycle.isEmpty { throw node.error("'synchronized' needs 'count' or 'cycle'") }
        location = node.location
    }

    static func text(_ shape: [String: String]) -> String {
        "{" + shape.keys.sorted().map { "\($0): \(shape[$0] ?? "")" }.joined(separator: ", ") + "}"
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        let collections = outcome.deliveries.compactMap(\.collection)
        var passed = count.map { collections.count == $0 } ?? true
        var actual = ["\(collections.count) collections"]
        if !cycle.isEmpty {
            for (i, shape) in collections.enumerated() {
                let want = cycle[i % cycle.count]
                let names = Set(want.keys).union(shape.keys)
                let ok = names.allSatisfy { (shape[$0] ?? "absent") == (want[$0] ?? "absent") }
                if !ok {
                    passed = false
                    actual.append("collection \(i + 1) is \(Self.text(shape)), expected \(Self.text(want))")
                    break
                }
            }
            if collections.isEmpty { passed = false }
            if passed, let first = collections.first { actual.append("first \(Self.text(first))") }
        }
        var expected: [String] = []
        if let count { expected.append("\(count) collections") }
        if !cycle.isEmpty { expected.append("cycling " + cycle.map(Self.text).joined(separator: ", ")) }
        return ExpectationResult(
            key: "synchronized", passed: passed, expected: expected.joined(separator: "; "),
            actual: actual.joined(separator: "; "), location: location)
    }
}
