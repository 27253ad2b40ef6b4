import Foundation
import ObscuraSupport

/// `report.json`: the run's full record with sorted keys, so scripts can rely on the layout.
public enum JSONReport {
    /// The JSON bytes of one or more results: one result is an object, several a list; with
    /// `alwaysList`, a list whatever the count (a folder's report, which may hold one or none).
    public static func encode(_ results: [ScenarioResult], alwaysList: Bool = false) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let value = results.count == 1 && !alwaysList ? AnyResults.one(results[0]) : .many(results)
        return JSONText.escapingInvisibleControls([UInt8](try encoder.encode(value)))
    }

    /// The results held by `report.json` bytes (one scenario's object, or a list of them), for
    /// joining the reports of several runs.
    public static func decode(_ bytes: [UInt8]) throws -> [ScenarioResult] {
        let decoder = JSONDecoder()
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if first == UInt8(ascii: "[") { return try decoder.decode([Stored].self, from: Data(bytes)).map(\.scenario) }
        return [try decoder.decode(Stored.self, from: Data(bytes)).scenario]
    }

    /// What `decode` reads back; the verdict keys are recomputed, so they are not read.
    private struct Stored: Decodable {
        let scenario: ScenarioResult
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
