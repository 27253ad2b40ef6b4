import Foundation
import Scenarios
import Testing

/// Figures that prose quotes from a run are the run's: the seed-scenario table of `Scenes/README.md`
/// quotes what `constant-color.scenario.yaml` measures and the bounds it sets, and the figures are
/// checked against a fresh run of that file, so a change to the pipeline that moves them fails here
/// until the table says what the run says.
struct SeedScenarioFigureTests {
    /// The table's row for a seed scenario.
    static func row(_ file: String = "constant-color.scenario.yaml") throws -> String {
        let readme = try String(
            contentsOf: FencedExample.root.appendingPathComponent("Scenes/README.md"), encoding: .utf8)
        return try #require(readme.split(separator: "\n").first { $0.hasPrefix("| `\(file)`") }.map(String.init))
    }

    /// The numbers `pattern`'s groups capture in `text`, in order.
    static func figures(_ pattern: String, in text: String) throws -> [Double] {
        let regex = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        let match = try #require(regex.firstMatch(in: text, range: range), "no '\(pattern)' in: \(text)")
        return try (1..<match.numberOfRanges).map { i in
            try #require(Range(match.range(at: i), in: text).flatMap { Double(text[$0]) })
        }
    }

    /// Whether `measured`, printed with as many decimals as `quoted` has, reads `quoted`.
    static func reads(_ measured: Double, as quoted: Double) -> Bool {
        let printed = String(quoted)
        let decimals = printed.split(separator: ".").dropFirst().first.map { $0 == "0" ? 0 : $0.count } ?? 0
        return abs(measured - quoted) <= 0.5 * pow(10, -Double(decimals)) + 1e-9
    }

    /// The share of pixels outside sRGB that the wide-gamut row quotes is the run's.
    @Test func wideGamutRowQuotesTheRun() throws {
        let quoted = try Self.figures(#"\(about ([0-9.]+) % of them\)"#, in: try Self.row("wide-gamut-highlight.scenario.yaml"))
        let file = FencedExample.root.appendingPathComponent("Scenes/wide-gamut-highlight.scenario.yaml").path
        let result = try ScenarioRunner.run(try ScenarioLoader.load(path: file))
        let verdict = try #require(result.expectations.first { $0.key == "outside_srgb" })
        let fraction = try Self.figures(#"fraction ([0-9.]+)"#, in: verdict.actual)[0]
        #expect(Self.reads(fraction * 100, as: quoted[0]), "the run has \(fraction * 100) % outside sRGB")
    }

    @Test func constantColorRowQuotesTheRun() throws {
        let row = try Self.row()
        let first = try Self.figures(
            #"confidence at least ([0-9.]+) \(measured ([0-9.]+)\), the pot within ΔE00 ([0-9.]+) of terracotta under D65 \(measured ([0-9.]+)\)"#,
            in: row)
        let spot = try Self.figures(
            #"\(confidence ([0-9.]+), bounds ([0-9.]+)–([0-9.]+); ΔE00 ([0-9.]+), bound ([0-9.]+)\)"#, in: row)

        let file = FencedExample.root.appendingPathComponent("Scenes/constant-color.scenario.yaml").path
        let result = try ScenarioRunner.run(try ScenarioLoader.load(path: file))
        #expect(result.passed)
        // The two Constant Color captures with fallback delivery, in order.
        let captures = result.steps.filter { step in step.photos.contains { $0.constantColorConfidenceLevel > 0 } }
        try #require(captures.count == 2)
        func confidence(_ step: ScenarioResult.StepResult) -> Double {
            Double(step.photos.first { !$0.isConstantColorFallbackPhoto }?.constantColorConfidenceLevel ?? -1)
        }
        func region(_ step: ScenarioResult.StepResult) throws -> (measured: Double, bound: Double) {
            let verdict = try #require(step.expectations.first { $0.key == "region" })
            let measured = try Self.figures(#"ΔE00 ([0-9.]+) to "#, in: verdict.actual)[0]
            let bound = try Self.figures(#"ΔE00 ≤ ([0-9.]+)"#, in: verdict.expected)[0]
            return (measured, bound)
        }
        func lowerBound(_ step: ScenarioResult.StepResult) throws -> [Double] {
            let verdict = try #require(step.expectations.first { $0.key == "photos" })
            return try Self.figures(#"confidence_level=([0-9.]+)…([0-9.]+)"#, in: verdict.expected)
        }

        let (measured1, bound1) = try region(captures[0])
        #expect(try lowerBound(captures[0])[0] == first[0], "the table's confidence bound is not the scenario's")
        #expect(Self.reads(confidence(captures[0]), as: first[1]), "confidence \(confidence(captures[0]))")
        #expect(bound1 == first[2], "the table's ΔE00 bound is not the scenario's (\(bound1))")
        #expect(Self.reads(measured1, as: first[3]), "ΔE00 \(measured1)")

        let (measured2, bound2) = try region(captures[1])
        #expect(Self.reads(confidence(captures[1]), as: spot[0]), "confidence \(confidence(captures[1]))")
        #expect(try lowerBound(captures[1]) == [spot[1], spot[2]], "the table's confidence bounds are not the scenario's")
        #expect(Self.reads(measured2, as: spot[3]), "ΔE00 \(measured2)")
        #expect(bound2 == spot[4], "the table's ΔE00 bound is not the scenario's (\(bound2))")
    }
}
