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
            // Every picture is shown, except a 16-bit depth map (millimetres look black in a browser), which
            // is linked, its colour view shown instead.
            for png in written {
                let companion = String(png.dropLast(".png".count)) + "-view.png"
                if written.contains(companion) {
                    #expect(!html.contains("<img src=\"\(png)\""), "\(file): the raw depth \(png) is inlined")
                    #expect(html.contains("<a href=\"\(png)\""), "\(file): the raw depth \(png) is not linked")
                } else {
                    #expect(html.contains("<img src=\"\(png)\""), "\(file): \(png) is not shown in the report")
                }
            }
            // A confidence map has its legend: 0 to 1 and the 0.8 threshold.
            if written.contains(where: { $0.contains("confidence_map") }) {
                #expect(html.contains("confidence 0") && html.contains(">0.8</span>"), "\(file): no confidence legend")
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
            // On a 390-pixel phone the rows become cards: verdicts and photos on screen.
            let phone = try BrowserCheck.check(page, width: 390)
            #expect(phone.problems == "none", "\(file) at 390 px: \(phone.problems)")
        }
    }
}
