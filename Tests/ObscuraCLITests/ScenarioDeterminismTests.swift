import Foundation
import Testing

/// The same scenario and seed give the same bytes, in every process. Swift seeds its hashing per
/// process, so an output that follows a dictionary's order would differ between two runs while every
/// test inside one process agrees; only two processes show it.
struct ScenarioDeterminismTests {
    /// Every file a run writes, but the reports and run.json, which record times.
    private func outputs(of scenario: String) throws -> [String: Data] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-same-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLIRunner.run(["run", scenario, "--out", out.path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let names = (FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? [])
            .filter { !$0.hasPrefix("report.") && $0 != "run.json" }
        var files: [String: Data] = [:]
        for name in names {
            var isDirectory: ObjCBool = false
            let url = out.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            files[name] = try Data(contentsOf: url)
        }
        return files
    }

    // A depth photo carries its depth as a property list inside the PNG: the case that once differed.
    @Test func aDepthPhotoScenarioWritesTheSameBytesInTwoProcesses() throws {
        let first = try outputs(of: "Scenes/truedepth-depth-photo.scenario.yaml")
        let second = try outputs(of: "Scenes/truedepth-depth-photo.scenario.yaml")
        #expect(!first.isEmpty)
        #expect(first.keys.sorted() == second.keys.sorted())
        for (name, bytes) in first { #expect(second[name] == bytes, "\(name) differs between runs") }
    }
}
