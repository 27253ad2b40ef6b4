import Devices
import Foundation
import Scenarios
import Testing

/// Numbers from a scenario are range-checked where they are written, before any API call can trap
/// on them or any work can run away.
struct ScenarioLimitsTests {
    static func error(_ text: String) -> String {
        do {
            _ = try ScenarioLoader.load(text: text, file: "t.scenario.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func frameRateBeyondACMTimeTimescaleIsLocated() {
        // `  - device: {fps: 2147483648}`: the value starts at column 19 of line 3.
        let fps = Self.error("steps:\n  - lock\n  - device: {fps: 2147483648}\n")
        #expect(fps.hasPrefix("t.scenario.yaml:3:19: "), "\(fps)")
        #expect(fps.contains("between 1 and 2147483647"))
        // `  - device: {depth_fps: 4294967296}`: column 25.
        let depth = Self.error("steps:\n  - lock\n  - device: {depth_fps: 4294967296}\n")
        #expect(depth.hasPrefix("t.scenario.yaml:3:25: "), "\(depth)")
        #expect(depth.contains("between 1 and 2147483647"))
    }

    @Test func largestTimescaleStillLoads() throws {
        // The bound is the type's, not a guess at devices: the device's own rules judge the rate.
        _ = try ScenarioLoader.load(text: "steps:\n  - lock\n  - device: {fps: 2147483647}\n", file: "t.scenario.yaml")
    }

    @Test func bracketBiasBeyondAFloatIsLocated() {
        // `  - capture: {bracket: [0, 1e300]}`: the second value starts at column 28.
        let bias = Self.error("steps:\n  - capture: {bracket: [0, 1e300]}\n")
        #expect(bias.hasPrefix("t.scenario.yaml:2:28: "), "\(bias)")
        #expect(bias.contains("between -1000 and 1000"))
    }

    @Test func streamSecondsAreBounded() {
        // `  - stream: {seconds: 1e17}`: the value starts at column 23.
        let huge = Self.error("steps:\n  - start\n  - stream: {seconds: 1e17}\n")
        #expect(huge.hasPrefix("t.scenario.yaml:3:23: "), "\(huge)")
        #expect(huge.contains("at most 3600 s"))
        let hour = Self.error("steps:\n  - start\n  - stream: {seconds: 3600}\n")
        #expect(hour == "no error")
        let frames = Self.error("steps:\n  - start\n  - stream: {frames: 100001}\n")
        #expect(frames.contains("between 1 and 100000"))
    }
}

/// A stream given in seconds is held to the frame limit at the device's active rate.
struct StreamBudgetTests {
    @Test func anHourAtThirtyFramesASecondIsTooManyFrames() throws {
        let text = """
            steps:
              - begin
              - session: {preset: photo}
              - input: {type: builtInWideAngleCamera, position: back}
              - output: video_data
              - commit
              - lock
              - device: {fps: 30}
              - unlock
              - start
              - stream: {seconds: 3600}

            """
        let scenario = try ScenarioLoader.load(text: text, file: "t.scenario.yaml")
        let started = Date()
        let result = try ScenarioRunner.run(scenario)
        let failure = try #require(result.steps.last?.failure)
        // 3600 s × 30 fps = 108,000 frames, over the 100,000 a stream may render.
        #expect(failure.contains("108000 frames"), "\(failure)")
        #expect(failure.contains("at most 100000"))
        #expect(Date().timeIntervalSince(started) < 60)
    }
}

/// The output folder: nothing is created or written through a link inside it.
struct OutputDirectoryTests {
    @Test func linkPlantedInTheRunFolderIsNotFollowed() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-outdir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let output = try OutputDirectory(path: base.appendingPathComponent("out").path, force: false)
        defer { output.discard() }
        try FileManager.default.createSymbolicLink(
            atPath: output.root + "/photos", withDestinationPath: outside.path)
        #expect(throws: OutputDirectory.Refusal.self) { try output.write([1], to: "photos/deeper/pot.png") }
        #expect(throws: OutputDirectory.Refusal.self) { try output.write([1], to: "photos/pot.png") }
        // Not even the intermediate folder appeared on the far side of the link.
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    @Test func nothingAppearsUntilCommitted() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-outdir-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let destination = base.appendingPathComponent("out").path
        let output = try OutputDirectory(path: destination, force: false)
        try output.write([1, 2], to: "a/b.png")
        #expect(!FileManager.default.fileExists(atPath: destination))
        try output.commit()
        #expect(FileManager.default.contents(atPath: destination + "/a/b.png") == Data([1, 2]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: base.path) == ["out"])
    }
}
