import ExternalTools
import Foundation
import Testing

/// `obscura validate constant-color --html`: the page a person reads.
struct ValidateReportTests {
    static func page(_ dir: URL) throws -> URL {
        let page = dir.appendingPathComponent("validation.html")
        let result = try CLIRunner.run(["validate", "constant-color", "--quick", "--size", "112x84", "--html", page.path])
        try #require(result.status == 0, "\(result.stderr)")
        return page
    }

    @Test func thePageStatesTheRunTimeAndScalesItsChart() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let html = try String(contentsOf: try Self.page(dir), encoding: .utf8)
        // "nan" as a figure, not as letters inside the page's base64-encoded pictures.
        let nan = html.range(of: #"(?<![A-Za-z0-9+/=])nan(?![A-Za-z0-9+/=])"#, options: [.regularExpression, .caseInsensitive])
        #expect(nan == nil, "a figure reads nan")
        #expect(html.range(of: #"\([0-9]+\.[0-9] s\)"#, options: .regularExpression) != nil, "no run time")
        #expect(html.contains("<meta name=\"viewport\""))
        // The chart scales to the page: a view box, no fixed width wider than the window.
        #expect(html.contains("<svg class='chart' viewBox="))
    }

    @Test(.needs(.chromium)) func thePageFitsA1280PixelWindow() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let findings = try BrowserCheck.check(try Self.page(dir))
        #expect(findings.problems == "none", "\(findings.problems)")
    }

    /// `--baseline` and `--warmth` choose what Constant Color is compared with, in the centre crop as in the full
    /// field, and the summary says which.
    @Test func theBaselineIsChosenAndNamed() throws {
        let json = try CLIRunner.run([
            "validate", "constant-color", "--quick", "--size", "112x84", "--baseline", "known-light", "--warmth", "0",
            "--json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["baseline"] as? String == "known-light")
        #expect(object["baseline_warmth"] as? Double == 0)
        #expect((object["baseline_description"] as? String)?.contains("balanced for the true light") == true)
        let text = try CLIRunner.run(["validate", "constant-color", "--quick", "--size", "112x84", "--warmth", "0.5"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("auto white balance), keeping 50 % of its cast"), "\(text.stdout)")
        #expect(text.stdout.contains("Baseline: a normal photo by the room light"), "\(text.stdout)")
        let bad = try CLIRunner.run(["validate", "constant-color", "--quick", "--warmth", "1.5"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--warmth: expected a value from 0 to 1"), "\(bad.stderr)")
    }
}
