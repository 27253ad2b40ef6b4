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

    @Test(arguments: seeds)
    func seedScenarioPasses(_ file: String) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-seed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLIRunner.run(["run", file, "--out", out.path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(": PASS"))
    }
}
