import ArgumentParser
import Foundation
import Scenarios

/// `obscura explain FILE`: runs a scenario and narrates it for a learner.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Run a scenario and narrate each step: calls, state changes, rules, exceptions and deliveries.")

    @Argument(help: "A scenario file (*.scenario.yaml).")
    var file: String

    @Option(
        name: .customLong("allow-path"),
        help: "A folder the scenario may read files from, besides its own, DeviceProfiles/ and Scenes/ (repeatable).")
    var allowPath: [String] = []

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
        print(Narration.narrate(scenario, result), terminator: "")
    }
}
