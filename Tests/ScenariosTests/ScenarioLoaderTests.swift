import Devices
import Foundation
import Scenarios
import Testing

/// Scenario files: errors point at the exact line and column of the bad text.
struct ScenarioLoaderTests {
    static func error(_ text: String) -> String {
        do {
            _ = try ScenarioLoader.load(text: text, file: "t.scenario.yaml")
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func unknownTopLevelKeyIsLocatedWithSuggestion() {
        // Line 2, column 1: `sed` is a typo for `seed`.
        let message = Self.error("device: iphone-15-pro\nsed: 7\nsteps: [commit]\n")
        #expect(message.hasPrefix("t.scenario.yaml:2:1: unknown key 'sed'"))
        #expect(message.contains("did you mean 'seed'?"))
    }

    @Test func unknownStepIsLocatedWithSuggestion() {
        // Line 4, column 5: `captur` in `  - captur: {}` starts after two spaces, the dash and a space.
        let message = Self.error("steps:\n  - session: {preset: photo}\n  - commit\n  - captur: {flashMode: on}\n")
        #expect(message.hasPrefix("t.scenario.yaml:4:5: unknown step 'captur'"))
        #expect(message.contains("did you mean 'capture'?"))
    }

    @Test func badEnumValueIsLocatedAtTheValue() {
        // Line 2: `  - session: {preset: fotos}`; the value `fotos` starts at column 23.
        let message = Self.error("steps:\n  - session: {preset: fotos}\n")
        #expect(message.hasPrefix("t.scenario.yaml:2:23: "))
        #expect(message.contains("unknown session preset 'fotos'"))
    }

    @Test func badExpectationKeyIsLocated() {
        // Line 4, column 7: `exeption` under `expect:`.
        let text = "steps:\n  - capture: {flashMode: off}\n    expect:\n      exeption: NSInvalidArgumentException\n"
        let message = Self.error(text)
        #expect(message.hasPrefix("t.scenario.yaml:4:7: unknown key 'exeption'"))
        #expect(message.contains("did you mean 'exception'?"))
    }

    @Test func stepOfAMissingFeatureSaysSo() {
        // Line 3, column 5: `stream` needs the streaming API.
        let message = Self.error("steps:\n  - start\n  - stream: {seconds: 1}\n")
        #expect(message.hasPrefix("t.scenario.yaml:3:5: step 'stream' is not available in this build"))
    }

    @Test func saveOutsideTheOutputDirectoryIsRefused() {
        // Line 3, column 20: the path value after `{photo: `.
        let message = Self.error("steps:\n  - capture:\n    save: [{photo: ../escape.png}]\n")
        #expect(message.hasPrefix("t.scenario.yaml:3:20: "))
        #expect(message.contains("may not contain '..'"))
        let absolute = Self.error("steps:\n  - capture:\n    save: [{photo: /tmp/escape.png}]\n")
        #expect(absolute.contains("must be relative to the output directory"))
    }

    @Test func unknownDeviceIsLocatedAtTheKey() {
        let message = Self.error("device: iphone-15-pr\nsteps: [commit]\n")
        #expect(message.hasPrefix("t.scenario.yaml:1:9: "))
        #expect(message.contains("iphone-15-pro"))
    }

    @Test func defaultsAreTheDefaultDeviceAndScene() throws {
        let scenario = try ScenarioLoader.load(text: "steps: [commit]\n", file: "x.scenario.yaml")
        #expect(scenario.device == DeviceCatalog.defaultDeviceID)
        #expect(scenario.scene.hasSuffix("violets-warm-room.yaml"))
        #expect(scenario.name == "x")
        #expect(scenario.seed == 0)
    }
}
