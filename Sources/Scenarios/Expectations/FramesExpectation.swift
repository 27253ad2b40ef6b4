import Foundation
import ObscuraSupport

/// `frames: {video_data: {count: 30, fps: 30, intrinsic_matrix: true}, depth_data: {count: 15,
/// fps: 15, filtered: false, dimensions: 320x240}, audio_data: {count: 42}}`: what each named
/// output delivered during the step. `fps` is measured from the delivered timestamps,
/// (n − 1) / (t_last − t_first), and must match within 0.5 %. `dropped` counts drops.
struct FramesExpectation: Expectation {
    static let keys = ["frames"]
    static let fields = ["count", "fps", "dropped", "intrinsic_matrix", "filtered", "dimensions"]

    let checks: [(output: String, field: String, expected: String)]
    let location: SourceLocation

    init(_ expect: YAMLMapping) throws {
        let node = try expect.required("frames")
        var checks: [(String, String, String)] = []
        for entry in try node.freeMapping().entries {
            let fields = try entry.value.mapping(allowedKeys: Self.fields)
            if fields.entries.isEmpty { throw entry.value.error("say what to check: \(Self.fields.joined(separator: ", "))") }
            for field in fields.entries {
                switch field.key {
                case "count", "dropped": _ = try field.value.int(in: 0...10_000_000)
                case "fps": _ = try field.value.positiveDouble()
                case "intrinsic_matrix", "filtered": _ = try field.value.bool()
                default: break
                }
                checks.append((entry.key, field.key, try field.value.scalarString()))
            }
        }
        self.checks = checks
        location = node.location
    }

    static func measured(_ field: String, _ deliveries: [StreamRecord.Delivery]) -> String {
        let delivered = deliveries.filter { !$0.dropped }
        switch field {
        case "count": return String(delivered.count)
        case "dropped": return String(deliveries.count - delivered.count)
        case "fps":
            let times = delivered.map(\.seconds).filter(\.isFinite).sorted()
            guard times.count > 1, let first = times.first, let last = times.last, last > first else { return "n/a" }
            return DepthRate.fmt((Double(times.count - 1) / (last - first) * 1000).rounded() / 1000)
        case "intrinsic_matrix": return String(!delivered.isEmpty && delivered.allSatisfy(\.hasIntrinsicMatrix))
        case "filtered": return String(!delivered.isEmpty && delivered.allSatisfy(\.isFiltered))
        case "dimensions": return Set(delivered.compactMap(\.dimensions)).sorted().joined(separator: ",")
        default: return "?"
        }
    }

    func evaluate(_ outcome: StepOutcome, _ context: RunContext) -> ExpectationResult {
        var passed = true
        var actual: [String] = []
        for (output, field, expected) in checks {
            let mine = outcome.deliveries.filter { $0.output == output && $0.kind != "synchronizer" }
            let value = Self.measured(field, mine)
            let ok: Bool
            if field == "fps", let v = Double(value), let e = Double(expected) {
                ok = abs(v - e) <= 0.005 * e
            } else {
                ok = value == expected
            }
            passed = passed && ok
            actual.append("\(output).\(field)=\(value)\(ok ? "" : " ✗")")
        }
        return ExpectationResult(
            key: "frames", passed: passed,
            expected: checks.map { "\($0.output).\($0.field)=\($0.expected)" }.joined(separator: ", "),
            actual: actual.joined(separator: ", "), location: location)
    }
}
