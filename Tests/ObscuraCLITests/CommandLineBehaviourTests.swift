import Foundation
import Testing

/// What users expect of a command-line tool: a version, help for typos, completions, colour only on
/// a terminal, and a word for every file written.
struct CommandLineBehaviourTests {
    @Test func versionIsPrinted() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.3.0")
    }

    /// A catalogue folder given as a path that is not a folder is named in the error, whether it came as an
    /// option or through the environment, instead of "cannot find".
    @Test func aCatalogueFolderThatIsAFileIsNamed() throws {
        let file = CLIRunner.repositoryRoot.appendingPathComponent("README.md").path
        let variable = try CLIRunner.run(["devices", "list"], environment: ["OBSCURA_PROFILES": file])
        #expect(variable.status != 0)
        #expect(variable.stderr.contains("OBSCURA_PROFILES=\(file) is not a folder"), "\(variable.stderr)")
        let option = try CLIRunner.run(["devices", "list", "--profiles", file])
        #expect(option.status != 0)
        #expect(option.stderr.contains("\(file) is not a folder"), "\(option.stderr)")
    }

    @Test func mistypedCommandGetsASuggestionAndAPointerToHelp() throws {
        let result = try CLIRunner.run(["rnu", "Scenes/constant-color.scenario.yaml"])
        #expect(result.status == 64)
        #expect(result.stderr == "error: unknown command 'rnu'. Did you mean 'run'?\nSee 'obscura --help'.\n")
        #expect(result.stdout.isEmpty)
        // A word far from every command gets no guess, still the pointer.
        let far = try CLIRunner.run(["photograph"])
        #expect(far.status == 64)
        #expect(far.stderr == "error: unknown command 'photograph'.\nSee 'obscura --help'.\n")
        // Real commands and options are untouched.
        #expect(try CLIRunner.run(["devices"]).status == 0)
        #expect(try CLIRunner.run(["--help"]).status == 0)
    }

    @Test func completionsKnowDevicesAndScenes() throws {
        let script = try CLIRunner.run(["--generate-completion-script", "bash"])
        #expect(script.status == 0)
        #expect(script.stdout.contains("report"))
        #expect(script.stdout.contains("---completion render -- positional@0"))
        // The script asks the tool for names at completion time; ask as the script does.
        for shell in ["bash", "zsh", "fish"] {
            #expect(try CLIRunner.run(["--generate-completion-script", shell]).status == 0)
        }
        let scenes = try Self.customCompletion(["render"], argument: "positional@0")
        #expect(scenes.contains("violets-warm-room"))
        #expect(scenes.contains("chart-d65"))
        #expect(!scenes.contains("constant-color"), "scenario files are not scenes")
        let options = try Self.customCompletion(["render"], argument: "--device")
        #expect(options.contains("iphone-7-plus"))
        let device = try Self.customCompletion(["devices", "show"], argument: "positional@0")
        #expect(device.contains("iphone-7-plus"))
        #expect(device.contains("ipad-pro-m4"))
    }

    /// Asks the tool for the completions of an argument, as the generated scripts do
    /// (`obscura ---completion SUBCOMMAND… -- ARGUMENT WORD-INDEX CURSOR WORDS…`).
    static func customCompletion(_ subcommands: [String], argument: String) throws -> [String] {
        let words = ["obscura"] + subcommands + [""]
        let result = try CLIRunner.run(
            ["---completion"] + subcommands + ["--", argument, "\(words.count - 1)", "0"] + words)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// Runs the tool under a pseudo-terminal (util-linux `script`), as a person at a terminal would.
    static func runOnTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String? {
        let scriptTool = "/usr/bin/script"
        guard FileManager.default.isExecutableFile(atPath: scriptTool) else { return nil }
        let quoted = ([CLIRunner.executable.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: scriptTool)
        process.arguments = ["-qec", quoted, "/dev/null"]
        process.currentDirectoryURL = CLIRunner.repositoryRoot
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
        let escape = "\u{1B}["
        // Piped: no colour.
        let piped = try CLIRunner.run(["rnu"])
        #expect(!piped.stderr.contains(escape))
        guard let terminal = try Self.runOnTerminal(["rnu"]) else {
            print("util-linux script is missing: the terminal half of this test was skipped")
            return
        }
        #expect(terminal.contains(escape + "31merror:"), "\(terminal)")
        let noColor = try #require(try Self.runOnTerminal(["rnu"], environment: ["NO_COLOR": "1"]))
        #expect(!noColor.contains(escape), "\(noColor)")
        #expect(noColor.contains("error: unknown command 'rnu'"))
    }

    /// Step-by-step progress only on a terminal; piped, one line per scenario as it finishes.
    @Test func progressOnlyOnATerminal() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try RunCommandTests.write(RunCommandTests.small, in: dir, name: "a.scenario.yaml")
        let b = try RunCommandTests.write(RunCommandTests.small, in: dir, name: "b.scenario.yaml")
        let piped = try CLIRunner.run(["run", a, b, "--out", dir.appendingPathComponent("piped").path])
        #expect(piped.status == 0, "\(piped.stderr)")
        let lines = piped.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(piped.stderr)")
        #expect(lines.first?.hasPrefix("[1/2] \(a): passed (") == true, "\(piped.stderr)")
        #expect(lines.last?.hasPrefix("[2/2] \(b): passed (") == true, "\(piped.stderr)")
        guard let terminal = try Self.runOnTerminal(
            ["run", a, b, "--out", dir.appendingPathComponent("terminal").path])
        else { return }
        #expect(terminal.contains("[1/2] a"))
        #expect(terminal.contains("running b"))
    }

    @Test func explainJSONHasStableKeys() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(RunCommandTests.small, in: dir)
        let result = try CLIRunner.run(["explain", file, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(json.keys) == ["scenario", "file", "device", "scene", "seed", "clock", "passed", "steps"])
        #expect(json["scenario"] as? String == "t")
        #expect(json["passed"] as? Bool == true)
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.count == 6)
        for step in steps {
            #expect(Set(step.keys) == ["index", "key", "location", "api_calls", "state_changes", "exception", "failure",
                                       "rules", "notes", "deliveries", "expectations"])
        }
        let start = try #require(steps.last)
        #expect(start["key"] as? String == "start")
        #expect((start["api_calls"] as? [String])?.contains { $0.contains("startRunning") } == true)
        let changes = try #require(start["state_changes"] as? [[String: Any]])
        #expect(changes.contains { $0["key"] as? String == "session.isRunning" && $0["after"] as? String == "true" })
        let expectations = try #require(start["expectations"] as? [[String: Any]])
        #expect(expectations.first?["passed"] as? Bool == true)
        #expect(expectations.first?["location"] as? String == "t.scenario.yaml:9:19")
    }

    @Test func triangleSaysWhatItWrote() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.png").path
        let result = try CLIRunner.run(["image", "triangle", path, "--size", "32"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("wrote \(path): 64x32"))
    }

    @Test func readmeExampleProfileLintsClean() throws {
        let result = try CLIRunner.run(["devices", "lint", "Examples/my-phone.yaml"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let shown = try CLIRunner.run(["devices", "show", "Examples/my-phone.yaml"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("My Phone"))
        let readme = try String(contentsOf: CLIRunner.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("obscura devices lint Examples/my-phone.yaml"))
    }
}
