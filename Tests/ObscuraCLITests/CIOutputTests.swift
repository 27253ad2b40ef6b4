import ExternalTools
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What CI systems read from `obscura run`: paths as the user gave them, one bad file reported without
/// sinking the batch, a JUnit file that validates, and merged reports that keep times and verdicts.
struct CIOutputTests {
    /// A folder `mine/` (inside a fresh working directory) with a malformed scenario, a failing one and a
    /// passing one; `body` runs in the working directory.
    static func batch(_ body: (URL) throws -> Void) throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mine = dir.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
        _ = try RunCommandTests.write(JUnitReportTests.scenario, in: mine, name: "failing.scenario.yaml")
        _ = try RunCommandTests.write(RunCommandTests.small, in: mine, name: "passing.scenario.yaml")
        // Line 3, column 5: a step that does not exist.
        _ = try RunCommandTests.write("steps:\n  - begin\n  - sesion: {preset: photo}\n", in: mine, name: "bad.scenario.yaml")
        try body(dir)
    }

    static let files = ["mine/bad.scenario.yaml", "mine/failing.scenario.yaml", "mine/passing.scenario.yaml"]

    @Test func aMalformedScenarioIsAnErrorCaseAndTheRestStillRun() throws {
        try Self.batch { dir in
            let result = try CLIRunner.run(["run"] + Self.files + ["--out", "out", "--junit", "junit.xml"], in: dir)
            // A file that could not be run is bad input (2), ahead of the failed expectation (1).
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("error: mine/bad.scenario.yaml:3:5: "), "\(result.stderr)")
            #expect(result.stdout.contains("failing: FAIL"), "\(result.stdout)")
            #expect(result.stdout.contains("passing: PASS"), "\(result.stdout)")
            // Terminal messages name the file as given, with line and column.
            #expect(result.stdout.contains("  mine/failing.scenario.yaml:11:19: properties failed"), "\(result.stdout)")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/passing/report.json").path))
            // The index page is readable on a phone.
            let index = try String(contentsOf: dir.appendingPathComponent("out/report.html"), encoding: .utf8)
            #expect(index.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))

            let junit = dir.appendingPathComponent("junit.xml")
            let document = try XMLDocument(contentsOf: junit, options: [])
            let root = try #require(document.rootElement())
            #expect(root.attribute(forName: "errors")?.stringValue == "1")
            #expect(root.attribute(forName: "failures")?.stringValue == "1")
            let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
            let error = try #require(cases.first { !$0.elements(forName: "error").isEmpty })
            #expect(error.attribute(forName: "file")?.stringValue == "mine/bad.scenario.yaml")
            #expect(error.attribute(forName: "line")?.stringValue == "3")
            let errorMessage = error.elements(forName: "error").first?.attribute(forName: "message")?.stringValue ?? ""
            #expect(errorMessage.hasPrefix("mine/bad.scenario.yaml:3:5: unknown step 'sesion'"), "\(errorMessage)")
            let failed = try #require(cases.first { !$0.elements(forName: "failure").isEmpty })
            #expect(failed.attribute(forName: "file")?.stringValue == "mine/failing.scenario.yaml")
            let failure = failed.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue ?? ""
            #expect(failure.hasPrefix("mine/failing.scenario.yaml:11:19: properties failed"), "\(failure)")
            try JUnitReportTests.validateWithXmllint(junit.path)
        }
    }

    @Test func reportMergeKeepsTimesAndFails() throws {
        try Self.batch { dir in
            _ = try CLIRunner.run(
                ["run", "mine/failing.scenario.yaml", "--shard", "1/1", "--out", "a", "--junit", "a.xml"], in: dir)
            _ = try CLIRunner.run(
                ["run", "mine/passing.scenario.yaml", "--shard", "1/1", "--out", "b", "--junit", "b.xml"], in: dir)
            let merged = try CLIRunner.run(["report", "merge", "m", "a", "b"], in: dir)
            #expect(merged.status == 1, "\(merged.stdout)\(merged.stderr)")
            #expect(merged.stderr.contains("1 of 2 merged scenarios failed: failing"), "\(merged.stderr)")
            // The merged report's times are the runs' own, case by case and suite by suite.
            func times(_ file: String) throws -> [String: String] {
                let document = try XMLDocument(contentsOf: dir.appendingPathComponent(file), options: [])
                var found: [String: String] = [:]
                for suite in document.rootElement()?.elements(forName: "testsuite") ?? [] {
                    let name = suite.attribute(forName: "name")?.stringValue ?? ""
                    found[name] = suite.attribute(forName: "time")?.stringValue
                    for test in suite.elements(forName: "testcase") {
                        found[name + "/" + (test.attribute(forName: "name")?.stringValue ?? "")] =
                            test.attribute(forName: "time")?.stringValue
                    }
                }
                return found
            }
            let before = try times("a.xml").merging(try times("b.xml")) { first, _ in first }
            let after = try times("m/junit.xml")
            #expect(after == before)
            #expect(after.values.contains { (Double($0) ?? 0) > 0 }, "\(after)")
            let document = try XMLDocument(contentsOf: dir.appendingPathComponent("m/junit.xml"), options: [])
            let cases = document.rootElement()?.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
            let failure = (cases ?? []).compactMap { $0.elements(forName: "failure").first }.first
            #expect(failure?.attribute(forName: "message")?.stringValue?.hasPrefix("mine/failing.scenario.yaml:11:19") == true)
        }
    }

    // A shard that could not run one of its files says so in its folder (errors.json and the index), and a
    // merge of the shards carries it over: the merged JUnit report has the error, the index its row, and the
    // merge exits 2 as the shard's run did, instead of a green report without the file.
    @Test func aFileAShardCouldNotRunStaysInTheMergedReport() throws {
        try Self.batch { dir in
            let shard = try CLIRunner.run(
                ["run", "mine/bad.scenario.yaml", "mine/passing.scenario.yaml", "--shard", "1/1", "--out", "a"], in: dir)
            #expect(shard.status == 2, "\(shard.stderr)")
            let listed = try String(contentsOf: dir.appendingPathComponent("a/errors.json"), encoding: .utf8)
            #expect(listed.contains("\"file\" : \"mine/bad.scenario.yaml\""), "\(listed)")
            #expect(listed.contains("\"location\" : \"mine/bad.scenario.yaml:3:5\""), "\(listed)")
            let shardIndex = try String(contentsOf: dir.appendingPathComponent("a/report.html"), encoding: .utf8)
            #expect(shardIndex.contains("1 could not be run"), "\(shardIndex)")
            let merged = try CLIRunner.run(["report", "merge", "m", "a"], in: dir)
            #expect(merged.status == 2, "\(merged.stdout)\(merged.stderr)")
            #expect(merged.stdout.contains("(0 failed, 1 could not be run)"), "\(merged.stdout)")
            #expect(merged.stderr.contains("1 scenario files could not be run: mine/bad.scenario.yaml"), "\(merged.stderr)")
            let document = try XMLDocument(contentsOf: dir.appendingPathComponent("m/junit.xml"), options: [])
            let root = try #require(document.rootElement())
            #expect(root.attribute(forName: "errors")?.stringValue == "1")
            let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
            let error = try #require(cases.first { !$0.elements(forName: "error").isEmpty })
            #expect(error.attribute(forName: "file")?.stringValue == "mine/bad.scenario.yaml")
            let index = try String(contentsOf: dir.appendingPathComponent("m/report.html"), encoding: .utf8)
            #expect(index.contains("<code>mine/bad.scenario.yaml</code>") && index.contains("could not be run"))
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("m/errors.json").path))
            // A run whose files all ran writes no errors.json.
            _ = try CLIRunner.run(["run", "mine/passing.scenario.yaml", "--shard", "1/1", "--out", "b"], in: dir)
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b/errors.json").path))
        }
    }

    // A merge whose output folder is, holds or lies inside a folder it reads is refused before anything is
    // written: with --force, replacing OUT would remove the run being merged.
    @Test func aMergeNeverWritesOverTheFoldersItReads() throws {
        try Self.batch { dir in
            let run = try CLIRunner.run(["run", "mine/passing.scenario.yaml", "--out", "a"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let before = try FileManager.default.subpathsOfDirectory(atPath: dir.appendingPathComponent("a").path)
            for (out, inputs) in [("a", ["a"]), ("a", ["./a/"]), (".", ["a"]), ("a/merged", ["a"])] {
                let merged = try CLIRunner.run(["report", "merge", "--force", out] + inputs, in: dir)
                #expect(merged.status == 2, "\(out): \(merged.stdout)\(merged.stderr)")
                #expect(merged.stderr.contains("which is read: name an output folder apart"), "\(merged.stderr)")
            }
            let after = try FileManager.default.subpathsOfDirectory(atPath: dir.appendingPathComponent("a").path)
            #expect(after.sorted() == before.sorted())
        }
    }

    @Test func aMissingOrUnreadableScenarioSaysWhy() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try CLIRunner.run(["run", "Scenes/nope.scenario.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error: cannot read Scenes/nope.scenario.yaml: no such file"), "\(missing.stderr)")
        #expect(!missing.stderr.contains(":1:1"), "\(missing.stderr)")
        let folder = try CLIRunner.run(["run", dir.path])
        #expect(folder.stderr.contains("it is a folder, not a file"), "\(folder.stderr)")
    }

    @Test func anUnknownDeviceInventsNoLocation() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["devices", "show", "iphone-99"],
                          ["render", "violets-warm-room", "--device", "iphone-99", "--out", dir.path + "/x.png"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("error: no device 'iphone-99'"), "\(result.stderr)")
            #expect(!result.stderr.contains(":1:1"), "\(result.stderr)")
        }
    }

    @Test func badArgumentsShowUsageAndTheHelpHint() throws {
        let bad = try CLIRunner.run(["render", "violets-warm-room"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("error: Missing expected argument '--out <out>'"), "\(bad.stderr)")
        #expect(bad.stderr.contains("Usage: obscura render"), "\(bad.stderr)")
        #expect(bad.stderr.contains("See 'obscura render --help' for more information."), "\(bad.stderr)")
        let shard = try CLIRunner.run(["run", "Scenes/constant-color.scenario.yaml", "--shard", "0/2"])
        #expect(shard.status == 64)
        #expect(shard.stderr.contains("shards are numbered from 1 to 2, so 0 is not one of them"), "\(shard.stderr)")
    }

    @Test(arguments: [(["devices", "shwo"], "obscura devices", "show"), (["image", "scna"], "obscura image", "scan"),
                      (["report", "merj"], "obscura report", "merge"), (["color", "delta"], "obscura color", "delta-e")])
    func mistypedSubcommandsGetASuggestion(_ arguments: [String], _ parent: String, _ guess: String) throws {
        let result = try CLIRunner.run(arguments)
        #expect(result.status == 64)
        #expect(
            result.stderr == "error: unknown command '\(arguments[1])' for '\(parent)'. Did you mean '\(guess)'?\n"
                + "See '\(parent) --help'.\n", "\(result.stderr)")
    }

    /// `obscura help` checks the command it is asked about as `obscura` itself would.
    @Test func helpForAnUnknownCommandIsAnError() throws {
        let result = try CLIRunner.run(["help", "rnu"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: unknown command 'rnu'. Did you mean 'run'?"), "\(result.stderr)")
        let known = try CLIRunner.run(["help", "devices", "show"])
        #expect(known.status == 0 && known.stdout.contains("USAGE: obscura devices show"), "\(known.stdout)")
    }
}
