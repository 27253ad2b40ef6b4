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

    // A scene file run as a scenario is named for what it is, with the command that takes it; a scenario that
    // merely lacks steps is not taken for a scene.
    @Test func aSceneFileGivenAsAScenarioIsToldSo() {
        let scene = Self.error("description: a cup\nambient: {illuminant: D65, lux: 300}\nobjects: []\n")
        #expect(scene.hasPrefix("t.scenario.yaml:1:1: this is a scene, not a scenario"), "\(scene)")
        #expect(scene.contains("obscura render t.scenario.yaml"))
        let noSteps = Self.error("device: iphone-15-pro\nsed: 7\n")
        #expect(noSteps.contains("unknown key 'sed'"), "\(noSteps)")
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

    @Test func streamStepErrorsAreLocated() {
        // Line 3, column 7: the mapping `{seconds: 1, frames: 3}` holds both amounts.
        let both = Self.error("steps:\n  - start\n  - stream: {seconds: 1, frames: 3}\n")
        #expect(both.hasPrefix("t.scenario.yaml:3:13: "))
        #expect(both.contains("exactly one of 'seconds' or 'frames'"))
        let typo = Self.error("steps:\n  - stream: {frame: 3}\n")
        #expect(typo.hasPrefix("t.scenario.yaml:2:14: unknown key 'frame'"))
        #expect(typo.contains("did you mean 'frames'?"))
    }

    @Test func synchronizerAndDepthOutputErrorsAreLocated() {
        let sync = Self.error("steps:\n  - synchronizer: video_data\n")
        #expect(sync.hasPrefix("t.scenario.yaml:2:19: "))
        let depth = Self.error("steps:\n  - depth_output: {isFilteringEnable: false}\n")
        #expect(depth.hasPrefix("t.scenario.yaml:2:20: unknown key 'isFilteringEnable'"))
        #expect(depth.contains("did you mean 'isFilteringEnabled'?"))
    }

    @Test func depthFormatErrorsAreLocated() {
        // Line 2: `  - device: {depth_format: {type: DepthFloat61}}`; the value starts at column 35.
        let message = Self.error("steps:\n  - device: {depth_format: {type: DepthFloat61}}\n")
        #expect(message.hasPrefix("t.scenario.yaml:2:35: "))
        #expect(message.contains("unknown depth data type 'DepthFloat61'"))
        #expect(message.contains("did you mean 'DepthFloat16'?"))
    }

    @Test func sceneStepErrorsAreLocated() {
        let light = Self.error("steps:\n  - scene_light: {name: red spot, remove: true, scale: 2}\n")
        #expect(light.hasPrefix("t.scenario.yaml:2:18: "))
        #expect(light.contains("exactly one of remove, scale, from_scene"))
        let object = Self.error("steps:\n  - scene_object: {name: pot, position_m: [1, 2]}\n")
        #expect(object.hasPrefix("t.scenario.yaml:2:43: "))
    }

    @Test func streamingExpectationErrorsAreLocated() {
        let frames = Self.error("steps:\n  - stream: {frames: 2}\n    expect:\n      frames: {video_data: {cout: 2}}\n")
        // `      frames: {video_data: {cout: 2}}`: `cout` starts at column 29.
        #expect(frames.hasPrefix("t.scenario.yaml:4:29: unknown key 'cout'"))
        #expect(frames.contains("did you mean 'count'?"))
        let rate = Self.error("steps:\n  - stream: {frames: 2}\n    expect:\n      depth_rate: {video_fps: 30}\n")
        #expect(rate.hasPrefix("t.scenario.yaml:4:19: "))
        #expect(rate.contains("depth_fps"))
        let sync = Self.error(
            "steps:\n  - stream: {frames: 2}\n    expect:\n      synchronized: {cycle: [{video_data: presnt}]}\n")
        // `      synchronized: {cycle: [{video_data: presnt}]}`: `presnt` starts at column 43.
        #expect(sync.hasPrefix("t.scenario.yaml:4:43: "))
        #expect(sync.contains("unknown collection entry state 'presnt'"))
        #expect(sync.contains("did you mean 'present'?"))
    }

    @Test func depthConvertErrorsAreLocated() {
        // Line 2: `  - depth_convert: DisparityFloat61`; the value starts at column 20
        // (two spaces, the dash and a space, the 14 characters of `depth_convert:`, a space).
        let name = Self.error("steps:\n  - depth_convert: DisparityFloat61\n")
        #expect(name.hasPrefix("t.scenario.yaml:2:20: "))
        #expect(name.contains("unknown depth data type (or a four-character code) 'DisparityFloat61'"))
        #expect(name.contains("did you mean 'DisparityFloat16'?"))
        // Line 3, column 20 again: five characters are not a four-character code.
        let code = Self.error("steps:\n  - begin\n  - depth_convert: hdiss\n")
        #expect(code.hasPrefix("t.scenario.yaml:3:20: "))
        #expect(code.contains("did you mean 'hdis'?"))
        // A bare step has no target; the error points at the step, column 5.
        let bare = Self.error("steps:\n  - depth_convert\n")
        #expect(bare.hasPrefix("t.scenario.yaml:2:5: "))
        #expect(bare.contains("'depth_convert' needs a value"))
        // `      properties: {converted_depth.depthDataTyp: fdis}`: the key starts at column 20.
        let property = Self.error(
            "steps:\n  - depth_convert: fdis\n    expect:\n      properties: {converted_depth.depthDataTyp: fdis}\n")
        #expect(property.hasPrefix("t.scenario.yaml:4:20: unknown key 'converted_depth.depthDataTyp'"))
        #expect(property.contains("did you mean 'converted_depth.depthDataType'?"))
        // Any four-character code parses: refusing a non-depth type such as '420v' is the API's job (N14).
        #expect(Self.error("steps:\n  - depth_convert: 420v\n") == "no error")
    }

    @Test func depthSavesBelongOnStreamSteps() {
        let message = Self.error("steps:\n  - capture:\n    save: [depth]\n")
        #expect(message.hasPrefix("t.scenario.yaml:3:12: 'depth' is saved from a stream step"))
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

    // spec §21: a bad `faults:` entry names the file, the line and column, and the key.
    @Test func badFaultEntriesAreLocated() {
        // Line 2, column 32: the misspelt error code, at the value of `runtime_error`.
        let code = Self.error("faults:\n  - {frame: 10, runtime_error: mediaServicesWereRest}\nsteps: [commit]\n")
        #expect(code.hasPrefix("t.scenario.yaml:2:32: faults[0].runtime_error: unknown runtime error"))
        #expect(code.contains("did you mean 'mediaServicesWereReset'?"))
        // Line 2, column 18: a misspelt fault key.
        let key = Self.error("faults:\n  - {seconds: 1, interuption: videoDeviceInUseByAnotherClient}\nsteps: [commit]\n")
        #expect(key.hasPrefix("t.scenario.yaml:2:18: unknown key 'interuption' in faults[0]"))
        #expect(key.contains("did you mean 'interruption'?"))
        // Line 3, column 5: the second entry says what but not when.
        let when = Self.error("faults:\n  - {frame: 1, disk_full: true}\n  - {disk_full: true}\nsteps: [commit]\n")
        #expect(when.hasPrefix("t.scenario.yaml:3:5: faults[1]: a fault takes exactly one of 'seconds' or 'frame'"))
        // Two faults in one entry, and a frame count out of range.
        let two = Self.error("faults:\n  - {frame: 1, disk_full: true, end_interruption: true}\nsteps: [commit]\n")
        #expect(two.contains("holds one fault, found disk_full and end_interruption"))
        let drops = Self.error("faults:\n  - {frame: 1, dropped_frames: {count: 0, reason: OutOfBuffers}}\nsteps: [commit]\n")
        #expect(drops.hasPrefix("t.scenario.yaml:2:40: faults[0].dropped_frames.count: "))
    }

    @Test func goodFaultEntriesLoad() throws {
        let text = """
            faults:
              - {frame: 10, runtime_error: mediaServicesWereReset}
              - {seconds: 0.5, system_pressure: {level: serious, factors: [systemTemperature]}}
              - {frame: 20, dropped_frames: {count: 2, reason: FrameWasLate}}
            steps: [commit]
            """
        let scenario = try ScenarioLoader.load(text: text, file: "t.scenario.yaml")
        #expect(scenario.faults.map(\.summary) == [
            "at frame 10: runtime error mediaServicesWereReset (-11819)",
            "at 0.5 s: system pressure serious (systemTemperature)",
            "at frame 20: 2 dropped frames (FrameWasLate)",
        ])
        #expect(scenario.faults.map(\.location.line) == [2, 3, 4])
    }
}
