import Foundation
import Testing

/// `obscura run` and `obscura explain`, run as a user runs them.
struct RunCommandTests {
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-run-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, in dir: URL, name: String = "t.scenario.yaml") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let small = """
        steps:
          - begin
          - session: {preset: photo}
          - input: {type: builtInWideAngleCamera, position: back}
          - output: photo
          - commit
          - start:
            expect:
              properties: {session.isRunning: true}

        """

    @Test func passingScenarioWritesReportsAndExitsZero() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(Self.small, in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try CLIRunner.run(["run", file, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("t: PASS — 1/1 expectations held"))
        let json = try String(contentsOfFile: out + "/report.json", encoding: .utf8)
        #expect(json.contains("\"passed\" : true"))
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("<svg"))
        #expect(html.contains("session.isRunning"))
    }

    @Test func wrongExpectationFailsWithADiff() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.small.replacingOccurrences(of: "session.isRunning: true", with: "session.isRunning: false")
        let file = try Self.write(text, in: dir)
        let result = try CLIRunner.run(["run", file, "--out", dir.appendingPathComponent("out").path])
        #expect(result.status == 1)
        // Line 9, column 19: the `{` of the properties mapping.
        #expect(result.stdout.contains("t.scenario.yaml:9:19: properties failed"))
        #expect(result.stdout.contains("expected: session.isRunning=false"))
        #expect(result.stdout.contains("actual:   session.isRunning=true ✗"))
    }

    @Test func existingOutputDirectoryNeedsForce() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.write(Self.small, in: dir)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "keep".write(to: out.appendingPathComponent("old.txt"), atomically: true, encoding: .utf8)
        let refused = try CLIRunner.run(["run", file, "--out", out.path])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("already exists; pass --force"))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
        let forced = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.json").path))
    }

    @Test func savePathThroughASymlinkIsRefused() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outside = dir.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("link"), withDestinationURL: outside)
        let text = Self.small + "  - capture: {flashMode: off}\n    save: [{photo: link/escape.png}]\n"
        let file = try Self.write(text, in: dir)
        let result = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("resolves outside the output directory"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test func parentPathInSaveIsALocatedError() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.small + "  - capture: {flashMode: off}\n    save: [{photo: ../escape.png}]\n"
        let file = try Self.write(text, in: dir)
        let result = try CLIRunner.run(["run", file, "--out", dir.appendingPathComponent("out").path])
        #expect(result.status == 2)
        // Line 11, column 20: the path after `    save: [{photo: `.
        #expect(result.stderr.contains("t.scenario.yaml:11:20: "))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
    }

    @Test func explainNarratesStateAndRules() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.small + "  - begin\n  - start:\n    expect: {exception: NSGenericException}\n"
        let file = try Self.write(text, in: dir)
        let result = try CLIRunner.run(["explain", file])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("State: session.isRunning false → true"))
        #expect(result.stdout.contains("Raised NSGenericException"))
        #expect(result.stdout.contains("Why: spec §1.3"))
    }

    @Test func explainNarratesTheDepthRateAndEveryRule() throws {
        let depth = try CLIRunner.run(["explain", "Scenes/dual-depth-streaming.scenario.yaml"])
        #expect(depth.status == 0, "\(depth.stderr)")
        #expect(depth.stdout.contains("Depth runs at 15 fps: video at 30 fps, depth capped at 24 fps"))
        #expect(depth.stdout.contains("ceil(30 / 24) = 2, so 30 / 2 = 15 fps (spec §2.5)"))
        let color = try CLIRunner.run(["explain", "Scenes/constant-color.scenario.yaml"])
        #expect(color.status == 0, "\(color.stderr)")
        #expect(color.stdout.contains("§3.2 rule 24 RAISED"))
        #expect(color.stdout.contains("§3.2 rule 11 passed: Checked that the flash mode is one of supportedFlashModes."))
        #expect(color.stdout.contains("§6 decided: Constant Color always fires the flash"))
        #expect(color.stdout.contains("Pixels: mean signal (8-bit, all channels)"))
    }
}

/// `obscura run` reads only what the scenario's folder, the catalogue and the scene folder hold,
/// unless `--allow-path` names more.
struct RunCommandConfinementTests {
    @Test func sceneOutsideNeedsAllowPath() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenarios = dir.appendingPathComponent("scenarios")
        let shared = dir.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("Scenes/violets-warm-room.yaml"),
            to: shared.appendingPathComponent("room.yaml"))
        let file = try RunCommandTests.write(
            "scene: ../shared/room.yaml\n" + RunCommandTests.small, in: scenarios)
        let out = dir.appendingPathComponent("out").path
        let refused = try CLIRunner.run(["run", file, "--out", out])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("error: \(file):1:8: scene: '../shared/room.yaml' lies outside"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("--allow-path"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let allowed = try CLIRunner.run(["run", file, "--out", out, "--allow-path", shared.path])
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}
