import ArgumentParser
import Foundation
import ObscuraSupport
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
            With several files and --out, the folder also holds report.json (every scenario), an index \
            report.html and, with --junit, a JUnit XML file for CI. --shard i/n runs the i-th of n shares of the \
            files (sorted by path, every n-th from the i-th), so CI jobs can split a suite; `obscura report merge` \
            joins their folders into one report. \
            A scenario file that cannot be read or run is reported (an <error> test case in the JUnit report; with \
            several files, a row of the index and an entry of errors.json in --out) and the others still run. \
            Exits 1 if any expectation failed, 2 if a scenario file could not be run, 3 for an output that cannot \
            be written.
            """)

    @Argument(help: "Scenario files (*.scenario.yaml).", completion: .file(extensions: ["yaml"]))
    var files: [String]

    @Option(help: "Output directory (default: obscura-out/<scenario-name>).")
    var out: String?

    @Option(
        name: .customLong("allow-path"),
        help: ArgumentHelp(
            "A folder the scenarios may read files from, besides their own, DeviceProfiles/ and Scenes/ "
                + "(repeatable)."))
    var allowPath: [String] = []

    @Flag(help: "Replace what an earlier run wrote in the output directory (listed in its manifest); other files stay.")
    var force = false

    @Flag(help: "Print the reports as JSON instead of a summary.")
    var json = false

    @Option(help: "Also write a JUnit XML report of every expectation to this file (- for standard output).")
    var junit: String?

    @Option(
        help: "Run only share i of n (1 ≤ i ≤ n) of the files, sorted by path: the files at i-1, i-1+n, …",
        completion: Shard.defaultCompletionKind, transform: Shard.parse)
    var shard: Shard?

    func run() throws {
        if junit == OutputFiles.standardOutput && json {
            throw CommandFailure.badInput("--junit - and --json both print to standard output; give --junit a file")
        }
        if let junit { try OutputFiles.checkNotAnInput((junit, "--junit"), inputs: files.map { ($0, "a scenario") }) }
        // The JUnit XML alone on standard output: the summary moves to standard error.
        if junit == OutputFiles.standardOutput { OutputFiles.standardOutputTaken.raise() }
        let chosen = shard.map { $0.select(files) } ?? files
        if let shard, chosen.isEmpty {
            Self.status("shard \(shard): no scenarios (\(files.count) files over \(shard.count) shards)")
        }
        // A file that cannot be read or run is reported (on standard error now, in the JUnit report as an
        // error) and the others still run: one bad file must not hide the rest of a suite's results.
        var problems: [JUnitReport.Problem] = []
        var scenarios: [Scenario] = []
        for file in chosen {
            do {
                scenarios.append(try ScenarioLoader.load(path: file, allowedDirectories: allowPath))
            } catch {
                problems.append(Self.problem(file: file, error: error))
            }
        }
        // Each folder is written as a set and swapped in when complete: `--out` holds every scenario
        // (one subfolder each when there are several); without it each scenario has its own folder.
        var groups: [(directory: String, nested: Bool, scenarios: [Scenario])] = []
        if let out {
            // A shard keeps the several-scenario layout even with one file, so shards merge alike.
            groups = [(out, chosen.count > 1 || shard != nil, scenarios)]
        } else {
            groups = scenarios.map { ("obscura-out/\($0.name)", false, [$0]) }
        }
        try Self.refuseSharedFolders(groups.flatMap { group in
            group.scenarios.map { (group.nested ? group.directory + "/" + $0.name : group.directory, $0.file) }
        })
        var results: [ScenarioResult] = []
        let total = scenarios.count
        for group in groups where !group.scenarios.isEmpty || group.nested {
            let output: OutputDirectory
            do {
                output = try OutputDirectory(path: group.directory, force: force)
            } catch {
                throw CommandFailure.outputFailed("\(error)")
            }
            var finished: [ScenarioResult] = []
            do {
                for scenario in group.scenarios {
                    let target = group.nested ? try output.nested(scenario.name) : output
                    let number = results.count + finished.count + 1
                    if total > 1 { Terminal.progress("[\(number)/\(total)] \(scenario.name)") }
                    do {
                        let result = try run(scenario, into: target)
                        finished.append(result)
                        // As each scenario finishes: a CI log shows the result while the rest still run.
                        if !json {
                            Self.summarise(result, directory: target.destination)
                        }
                        Terminal.milestone(
                            "[\(number)/\(total)] \(scenario.file): \(result.passed ? "passed" : "failed") "
                                + "(\(format(result.wallSeconds ?? 0, 1)) s)")
                    } catch let failure as CommandFailure where failure.code == 2 {
                        problems.append(Self.problem(file: scenario.file, error: failure))
                        Terminal.milestone("[\(number)/\(total)] \(scenario.file): error")
                    }
                }
                if group.nested {
                    // The folder's own report: every scenario in it, an index page that lists the files
                    // that could not be run too, and those files in errors.json, so that a merge of
                    // shards reports them as this run does.
                    try output.write(try JSONReport.encode(finished, alwaysList: true), to: "report.json")
                    let index = HTMLReport.renderIndex(
                        finished.map { ($0, $0.name + "/report.html") }, problems: problems)
                    try output.write(Array(index.utf8), to: "report.html")
                    if !problems.isEmpty {
                        try output.write(try JUnitReport.encodeProblems(problems), to: JUnitReport.problemsFileName)
                    }
                }
                try output.commit()
            } catch let refusal as OutputDirectory.Refusal {
                output.discard()
                throw CommandFailure.outputFailed(refusal.message)
            } catch {
                output.discard()
                throw error
            }
            results += finished
        }
        if json {
            print(String(decoding: try JSONReport.encode(results), as: UTF8.self))
        }
        if let junit {
            try OutputFiles.write(Array(JUnitReport.render(results, problems: problems).utf8), to: junit)
            if junit != OutputFiles.standardOutput && !json { say("junit: \(junit)") }
        }
        let failed = results.filter { !$0.passed }
        var verdicts: [String] = []
        if !problems.isEmpty {
            verdicts.append(
                "\(problems.count) of \(chosen.count) scenario files could not be run: "
                    + problems.map(\.file).joined(separator: ", "))
        }
        if !failed.isEmpty {
            verdicts.append(
                "\(failed.count) of \(results.count) scenarios failed: \(failed.map(\.name).joined(separator: ", "))")
        }
        guard verdicts.isEmpty else {
            let message = verdicts.joined(separator: "\n")
            throw problems.isEmpty ? CommandFailure.checkFailed(message) : CommandFailure.badInput(message)
        }
    }

    /// A file that could not be loaded or run, reported on standard error at once and kept for the
    /// JUnit report.
    static func problem(file: String, error: Error) -> JUnitReport.Problem {
        let message: String
        let location: String
        switch error {
        case let located as LocatedError:
            (message, location) = (located.description, located.location.description)
        case let list as LocatedErrors:
            (message, location) = (list.description, list.errors.first?.location.description ?? file)
        default:
            message = "\(error)"
            location = file
        }
        ErrorReporting.writeError(message)
        return JUnitReport.Problem(
            name: ScenarioLoader.folderName(forScenarioFile: file), file: file, location: location, message: message)
    }

    /// Runs one scenario into `output`; the report is written last, so a folder holding a report.json
    /// holds everything the run made.
    private func run(_ scenario: Scenario, into output: OutputDirectory) throws -> ScenarioResult {
        Terminal.progress("running \(scenario.name) (\(scenario.file))")
        do {
            var result = try ScenarioRunner.run(scenario, output: output) { line in
                Terminal.progress("  " + line)
            }
            result.givenFile = scenario.file
            try output.write(Array(HTMLReport.render(result).utf8), to: "report.html")
            try output.write(try RunRecord(result).encoded(), to: RunRecord.fileName)
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
        let verdict = result.passed ? Terminal.paint("PASS", .green) : Terminal.paint("FAIL", .red)
        say("\(result.name): \(verdict) — \(total - failures.count)/\(total) expectations held")
        // Texts that come from the scenario file are printed with control characters escaped, so a shared
        // file cannot drive the terminal or forge lines of a CI log.
        func shown(_ text: String) -> String { TextExcerpt.make(text, limit: 2000) }
        for failure in failures {
            say("  \(shown(result.locatedAsGiven(failure.location))): \(Terminal.paint(failure.key + " failed", .red))")
            say("    expected: \(shown(failure.expected))")
            say("    actual:   \(shown(failure.actual))")
        }
        say("  report: \(directory)/report.html")
    }
}

/// `--shard i/n`: the i-th of n shares of a list of files.
struct Shard: CustomStringConvertible {
    /// 1-based, as CI matrices number their jobs.
    let index: Int
    let count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else {
            return nil
        }
        index = i
        count = n
    }

    var description: String { "\(index)/\(count)" }

    /// The files of this share: sorted by path (byte order, the same on every machine), then every
    /// `count`-th from position `index - 1`. Each file lands in exactly one share, whatever order the
    /// shell expanded the list in.
    func select(_ files: [String]) -> [String] {
        let sorted = Array(Set(files)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        return sorted.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    static var defaultCompletionKind: CompletionKind { .list(["1/2", "2/2"]) }

    /// `--shard`'s value, or an error saying what is wrong with it (ArgumentParser prints it after
    /// "The value '0/2' is invalid for '--shard <shard>'").
    static func parse(_ argument: String) throws -> Shard {
        if let shard = Shard(argument: argument) { return shard }
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw ValidationError("expected i/n with whole numbers, as in 1/4")
        }
        if n < 1 { throw ValidationError("there must be at least one shard (n ≥ 1)") }
        throw ValidationError("shards are numbered from 1 to \(n), so \(i) is not one of them")
    }
}
