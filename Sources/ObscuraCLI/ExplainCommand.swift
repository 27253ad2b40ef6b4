import ArgumentParser
import Foundation
import Scenarios

/// `obscura explain FILE`: runs a scenario and narrates it for a learner.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Run a scenario and narrate each step: calls, state changes, rules, exceptions and deliveries.",
        discussion: """
            --json prints the same story with stable keys: scenario, device, scene, seed, clock, passed and steps; \
            each step has index, key, location, api_calls, state_changes (key, before, after), exception, failure, \
            rules (section, rule, outcome, sentence), notes, deliveries (kind, count) and expectations (key, passed, \
            expected, actual, location). \
            explain tells what happened and exits 0 even when an expectation failed (passed is false); \
            obscura run is the check, exiting 1 then. It exits 2 for a file it cannot run.
            """)

    @Argument(help: "A scenario file (*.scenario.yaml).", completion: .file(extensions: ["yaml"]))
    var file: String

    @Option(
        name: .customLong("allow-path"),
        help: "A folder the scenario may read files from, besides its own, DeviceProfiles/ and Scenes/ (repeatable).")
    var allowPath: [String] = []

    @Flag(help: "Print JSON with stable keys instead of the narration.")
    var json = false

    func run() throws {
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(path: file, allowedDirectories: allowPath)
        } catch {
            throw CommandFailure.badInput("\(error)")
        }
        let result: ScenarioResult
        do {
            result = try ScenarioRunner.run(scenario)
        } catch {
            throw CommandFailure.badInput("\(file): \(error)")
        }
        if json {
            try printJSON(Explanation(result))
        } else {
            print(Narration.narrate(scenario, result), terminator: "")
        }
    }
}

/// The JSON of `obscura explain --json`. Its keys are part of the tool's interface: they are added
/// to, never renamed.
struct Explanation: Encodable {
    struct Change: Encodable {
        let key: String
        let before: String?
        let after: String?

        // A key absent before or after is null, not left out: every change has all three keys.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(key, forKey: .key)
            try c.encode(before, forKey: .before)
            try c.encode(after, forKey: .after)
        }

        enum CodingKeys: String, CodingKey { case key, before, after }
    }

    struct Delivered: Encodable {
        let kind: String
        let count: Int
    }

    struct Step: Encodable {
        let index: Int
        let key: String
        let location: String
        let apiCalls: [String]
        let stateChanges: [Change]
        let exception: StepOutcome.RaisedException?
        let failure: String?
        let rules: [ScenarioResult.Rule]
        let notes: [String]
        let deliveries: [Delivered]
        let expectations: [ExpectationResult]

        enum CodingKeys: String, CodingKey {
            case index, key, location, exception, failure, rules, notes, deliveries, expectations
            case apiCalls = "api_calls"
            case stateChanges = "state_changes"
        }

        // No exception or failure is written as null, so every step has every key.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(index, forKey: .index)
            try c.encode(key, forKey: .key)
            try c.encode(location, forKey: .location)
            try c.encode(apiCalls, forKey: .apiCalls)
            try c.encode(stateChanges, forKey: .stateChanges)
            try c.encode(exception, forKey: .exception)
            try c.encode(failure, forKey: .failure)
            try c.encode(rules, forKey: .rules)
            try c.encode(notes, forKey: .notes)
            try c.encode(deliveries, forKey: .deliveries)
            try c.encode(expectations, forKey: .expectations)
        }
    }

    let scenario: String
    let file: String
    let device: String
    let scene: String
    let seed: UInt64
    let clock: String
    let passed: Bool
    let steps: [Step]

    init(_ result: ScenarioResult) {
        scenario = result.name
        file = result.file
        device = result.device
        scene = result.scene
        seed = result.seed
        clock = result.clock
        passed = result.passed
        steps = result.steps.map { step in
            let keys = Set(step.before.keys).union(step.after.keys).sorted()
            let changes = keys.filter { step.before[$0] != step.after[$0] }
                .map { Change(key: $0, before: step.before[$0], after: step.after[$0]) }
            let counts = Dictionary(grouping: step.deliveryKinds, by: { $0 }).mapValues(\.count)
            return Step(
                index: step.index, key: step.key, location: step.location, apiCalls: step.apiCalls,
                stateChanges: changes, exception: step.exception, failure: step.failure, rules: step.rules,
                notes: step.notes, deliveries: counts.keys.sorted().map { Delivered(kind: $0, count: counts[$0] ?? 0) },
                expectations: step.expectations)
        }
    }
}
