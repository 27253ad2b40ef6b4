import Foundation

/// `run.json`: what one run of a scenario was on this machine and never the same twice, kept beside
/// report.json so that report.json stays byte-for-byte reproducible: the wall-clock times and the
/// scenario file as the user named it. `obscura report merge` reads it back, so a merged JUnit report
/// keeps the test cases' times and locations. A folder without one (an older run) merges with no
/// times, as before.
public struct RunRecord: Codable, Sendable, Equatable {
    /// The file name beside report.json.
    public static let fileName = "run.json"

    /// The scenario file as given on the command line.
    public var givenFile: String?
    /// Wall-clock seconds of the whole run.
    public var wallSeconds: Double?
    /// Wall-clock seconds of each step, in order.
    public var stepWallSeconds: [Double?]

    enum CodingKeys: String, CodingKey {
        case givenFile = "given_file", wallSeconds = "wall_seconds", stepWallSeconds = "step_wall_seconds"
    }

    /// The record of `result`.
    public init(_ result: ScenarioResult) {
        givenFile = result.givenFile
        wallSeconds = result.wallSeconds
        stepWallSeconds = result.steps.map(\.wallSeconds)
    }

    /// The JSON bytes, keys sorted.
    public func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [0x0A]
    }

    /// The record in `bytes`; nil for anything that is not one.
    public static func decode(_ bytes: [UInt8]) -> RunRecord? {
        try? JSONDecoder().decode(RunRecord.self, from: Data(bytes))
    }

    /// `result` with this record's times and given file put back.
    public func applied(to result: ScenarioResult) -> ScenarioResult {
        var result = result
        result.givenFile = givenFile
        result.wallSeconds = wallSeconds
        result.restoreTimes(stepWallSeconds)
        return result
    }
}
