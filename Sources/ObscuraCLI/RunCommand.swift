import ArgumentParser
import Devices
import Foundation
import Scenarios

/// `obscura run FILE…`: runs scenario files and writes their outputs and reports.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files: API steps on a virtual device, with expectations and reports.",
        discussion: """
            Each scenario writes its saved photos, report.json and report.html into its output directory \
            (default obscura-out/<scenario-name>; with several files, one subdirectory each under --out). \
            A folder appears only once its run is complete: it is written beside the destination and renamed \
            into place. Scenarios read files only from their own folder, DeviceProfiles/, Scenes/ and the \
            folders given with --allow-path. \
            Exits 1 if any expectation failed, 2 for a bad scenario file, 3 for an output that cannot be written.
            """)

    @Argument(help: "Scenario files (*.scenario.yaml).")
    var files: [String]

    @Option(help: "Output directory (default: obscura-out/<scenario-name>).")
    var out: String?

    @Option(
        name: .customLong("allow-path"),
        help: ArgumentHelp(
            "A folder the scenarios may read files from, besides their own, DeviceProfiles/ and Scenes/ "
                + "(repeatable)."))
    var allowPath: [String] = []

    @Flag(help: "Replace an existing output directory as a whole.")
    var force = false

    @Flag(help: "Print the reports as JSON instead of a summary.")
    var json = false

    func run() throws {
        // Parse everything first: a bad file stops the run before anything is written.
        var scenarios: [Scenario] = []
        for file in files {
            do {
                scenarios.append(try ScenarioLoader.load(path: file, allowedDirectories: allowPath))
            } catch {
                throw CommandFailure.badInput("\(error)")
            }
        }
        // Each folder is written as a set and swapped in when complete: `--out` holds every scenario
        // (one subfolder each when there are several); without it each scenario has its own folder.
        var groups: [(directory: String, nested: Bool, scenarios: [Scenario])] = []
        if let out {
            groups = [(out, scenarios.count > 1, scenarios)]
        } else {
            groups = scenarios.map { ("obscura-out/\($0.name)", false, [$0]) }
        }
        try Self.refuseSharedFolders(groups.flatMap { group in
            group.scenarios.map { (group.nested ? group.directory + "/" + $0.name : group.directory, $0.file) }
        })
        var results: [ScenarioResult] = []
        for group in groups {
            let output: OutputDirectory
            do {
                output = try OutputDirectory(path: group.directory, force: force)
            } catch {
                throw CommandFailure.outputFailed("\(error)")
            }
            var finished: [(ScenarioResult, String)] = []
            do {
                for scenario in group.scenarios {
                    let target = group.nested ? try output.nested(scenario.name) : output
                    finished.append((try run(scenario, into: target), target.destination))
                }
                try output.commit()
            } catch let refusal as OutputDirectory.Refusal {
                output.discard()
                throw CommandFailure.outputFailed(refusal.message)
            } catch {
                output.discard()
                throw error
            }
            for (result, directory) in finished {
                results.append(result)
                if !json { Self.summarise(result, directory: directory) }
            }
        }
        if json {
            print(String(decoding: try JSONReport.encode(results), as: UTF8.self))
        }
        let failed = results.filter { !$0.passed }
        if !failed.isEmpty {
            throw CommandFailure.checkFailed(
                "\(failed.count) of \(results.count) scenarios failed: \(failed.map(\.name).joined(separator: ", "))")
        }
    }

    /// Runs one scenario into `output`; the report is written last, so a folder holding a report.json
    /// holds everything the run made.
    private func run(_ scenario: Scenario, into output: OutputDirectory) throws -> ScenarioResult {
        if !json { Self.status("running \(scenario.name) (\(scenario.file))") }
        do {
            let result = try ScenarioRunner.run(scenario, output: output) { line in
                if !json { Self.status("  " + line) }
            }
            try output.write(Array(HTMLReport.render(result).utf8), to: "report.html")
            try output.write(try JSONReport.encode([result]), to: "report.json")
            return result
        } catch let refusal as OutputDirectory.Refusal {
            throw CommandFailure.outputFailed(refusal.message)
        } catch {
            throw CommandFailure.badInput("\(scenario.file): \(error)")
        }
    }

    /// Two scenarios with one name would write one folder, the second over the first.
    static func refuseSharedFolders(_ folders: [(directory: String, file: String)]) throws {
        var seen: [String: String] = [:]
        for (directory, file) in folders {
            if let first = seen[directory] {
                throw CommandFailure.badInput(
                    "\(first) and \(file) would both write \(directory); rename one, or run them separately")
            }
            seen[directory] = file
        }
    }

    /// Progress goes to standard error, so standard output stays the summary.
    static func status(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    static func summarise(_ result: ScenarioResult, directory: String) {
        let total = result.expectations.count
        let failures = result.failures
        print("\(result.name): \(result.passed ? "PASS" : "FAIL") — \(total - failures.count)/\(total) expectations held")
        // Texts that come from the scenario file are printed with control characters escaped, so a shared
        // file cannot drive the terminal or forge lines of a CI log.
        func shown(_ text: String) -> String { TextExcerpt.make(text, limit: 2000) }
        for failure in failures {
            print("  \(shown(failure.location)): \(failure.key) failed")
            print("    expected: \(shown(failure.expected))")
            print("    actual:   \(shown(failure.actual))")
        }
        print("  report: \(directory)/report.html")
    }
}
