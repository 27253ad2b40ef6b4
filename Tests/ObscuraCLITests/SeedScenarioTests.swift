import ExternalTools
import Foundation
import Testing

/// Every seed scenario in `Scenes/` passes.
struct SeedScenarioTests {
    static let seeds: [String] = {
        let dir = CLIRunner.repositoryRoot.appendingPathComponent("Scenes").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".scenario.yaml") }.sorted().map { "Scenes/" + $0 }
    }()

    @Test func thereAreSeedScenarios() {
        #expect(Self.seeds.contains("Scenes/constant-color.scenario.yaml"))
    }

    /// Runs `file` into a fresh folder, which `body` gets; the folder goes afterwards.
    static func run(_ file: String, _ body: (URL) throws -> Void) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLIRunner.run(["run", file, "--out", out.path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(": PASS"))
        try body(out)
    }

    @Test(arguments: seeds)
    func seedScenarioPasses(_ file: String) throws {
        try Self.run(file) { out in
            // The report's files: every picture present, decodable and shown.
            let page = out.appendingPathComponent("report.html")
            _ = try BrowserCheck.referencedPicturesDecode(page)
            let html = try String(contentsOf: page, encoding: .utf8)
            let written = (FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".png") }
            for png in written {
                #expect(html.contains("<img src=\"\(png)\""), "\(file): \(png) is not shown in the report")
            }
            // A 16-bit depth map has a colour companion with a legend.
            for png in written where png.hasSuffix("-view.png") {
                #expect(html.contains("class=\"legend\""), "\(file): no legend for \(png)")
            }
            if file.contains("constant-color") {
                #expect(html.contains("Constant Color, confidence"))
                #expect(html.contains("Constant Color fallback"))
            }
        }
    }

    // The report as a reader sees it in a browser: every picture loads, nothing is cut off.
    @Test(.needs(.chromium), arguments: seeds)
    func seedReportReadsWellInChromium(_ file: String) throws {
        try Self.run(file) { out in
            let page = out.appendingPathComponent("report.html")
            let pictures = try BrowserCheck.referencedPicturesDecode(page)
            let findings = try BrowserCheck.check(page)
            #expect(findings.problems == "none", "\(file): \(findings.problems)")
            #expect(findings.images == pictures)
        }
    }
}
