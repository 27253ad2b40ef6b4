import Foundation

/// `report.json`: the run's full record with sorted keys, so scripts can rely on the layout.
public enum JSONReport {
    /// The JSON bytes of one or more results.
    public static func encode(_ results: [ScenarioResult]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(results.count == 1 ? AnyResults.one(results[0]) : .many(results)))
    }

    private enum AnyResults: Encodable {
        case one(ScenarioResult)
        case many([ScenarioResult])

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case let .one(result): try container.encode(Report(result))
            case let .many(results): try container.encode(results.map(Report.init))
            }
        }
    }

    /// The result plus its verdict, which is computed rather than stored.
    private struct Report: Encodable {
        let result: ScenarioResult
        init(_ result: ScenarioResult) { self.result = result }

        enum Keys: String, CodingKey { case scenario, passed, failed_expectations, expectation_count }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(result, forKey: .scenario)
            try c.encode(result.passed, forKey: .passed)
            try c.encode(result.failures.count, forKey: .failed_expectations)
            try c.encode(result.expectations.count, forKey: .expectation_count)
        }
    }
}
