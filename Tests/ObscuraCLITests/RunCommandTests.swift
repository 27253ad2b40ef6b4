import Foundation
import Imaging
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

    /// `save: [depth]` writes the exact map (16-bit millimetres and `.pfm`) and, beside it, a
    /// colour picture to look at: `<name>-view.png`, 8-bit sRGB, wider than the map for its legend.
    @Test func savedDepthComesWithAViewablePicture() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out").path
        let result = try CLIRunner.run(["run", "Scenes/dual-depth-streaming.scenario.yaml", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out)
        let views = files.filter { $0.hasSuffix("-depth-view.png") }
        #expect(!views.isEmpty, "\(files)")
        for view in views {
            let exact = try PNG.read(contentsOf: out + "/" + view.dropLast("-view.png".count) + ".png")
            let picture = try PNG.read(contentsOf: out + "/" + view)
            #expect(exact.channels == 1 && exact.bitDepth == 16)
            #expect(picture.channels == 3 && picture.bitDepth == 8 && picture.colorSpace == .sRGB)
            #expect(picture.width > exact.width && picture.height >= exact.height)
        }
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
        // A folder Obscura did not write is not replaced even with --force: it has no manifest.
        let forced = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(forced.status == 3)
        #expect(forced.stderr.contains("holds files Obscura did not write (it has no"), "\(forced.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["old.txt"])
        // A damaged manifest vouches for nothing either, and the message says it is there but unreadable.
        let manifest = out.appendingPathComponent(".obscura-manifest.json")
        try "garbage{".write(to: manifest, atomically: true, encoding: .utf8)
        let damaged = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(damaged.status == 3)
        #expect(damaged.stderr.contains("is not one an Obscura run writes"), "\(damaged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [".obscura-manifest.json", "old.txt"])
        try FileManager.default.removeItem(at: manifest)
        // A folder an earlier run wrote is replaced.
        try FileManager.default.removeItem(at: out.appendingPathComponent("old.txt"))
        #expect(try CLIRunner.run(["run", file, "--out", out.path, "--force"]).status == 0)
        let again = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(again.status == 0, "\(again.stderr)")
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
        // The run is written into a fresh folder, where no link was planted, so nothing goes through the
        // old link; the link is not the run's, so it is neither replaced nor followed when the run is put
        // in place: the run is refused.
        let result = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        let type = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("link").path)[.type]
        #expect(type as? FileAttributeType == .typeSymbolicLink)
        // Even where an earlier run's manifest vouches for the folder, the link it does not list stays a
        // link, and the photo meant to go through it is refused rather than written outside.
        let manifest = #"{"entries": [], "obscura_output_manifest": 1}"#
        try manifest.write(to: out.appendingPathComponent(".obscura-manifest.json"), atomically: true, encoding: .utf8)
        let merged = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(merged.status == 3, "\(merged.stderr)")
        #expect(merged.stderr.contains("cannot replace link"), "\(merged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        let kept = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("link").path)[.type]
        #expect(kept as? FileAttributeType == .typeSymbolicLink)
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

    // A shared scenario's text cannot add lines to explain's output, drive the terminal with escapes,
    // or issue workflow commands to a CI log: every piece of it is escaped, in every form of output.
    @Test func explainEscapesTheScenariosText() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hostile = #"::error::forged\n::add-mask::x\u001B]0;title\u0007\u001B[31mred\u009B2J"#
        let text = "description: \"\(hostile)\"\n" + Self.small
            + "  - output: {type: photo, name: \"\(hostile)\"}\n"
        let file = try Self.write(text, in: dir, name: "::warning::x.scenario.yaml")
        for arguments in [["explain", file], ["explain", file, "--json"]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            for output in [result.stdout, result.stderr] {
                #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B })
                for line in output.split(separator: "\n") {
                    #expect(!line.drop(while: { $0 == " " }).hasPrefix("::"), "\(arguments): \(line)")
                }
            }
            if arguments.count == 2 { #expect(result.stdout.contains("forged")) }
        }
        let out = dir.appendingPathComponent("out").path
        let run = try CLIRunner.run(["run", file, "--out", out, "--junit", dir.appendingPathComponent("j.xml").path])
        for line in run.stdout.split(separator: "\n") + run.stderr.split(separator: "\n") {
            #expect(!line.drop(while: { $0 == " " }).hasPrefix("::"), "\(line)")
        }
        #expect(!run.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
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
        // The tags are explained before their first use, and the fallback photo is not said to have
        // had the flash: it is the ambient frame.
        let legend = try #require(color.stdout.range(of: "[D] documented by Apple"))
        let firstTag = try #require(color.stdout.range(of: " [D]: "))
        #expect(legend.lowerBound < firstTag.lowerBound)
        #expect(color.stdout.contains("taken without the flash: the Constant Color fallback (ambient) photo"))
        for line in color.stdout.split(separator: "\n") where line.contains("fallback (ambient) photo") {
            #expect(!line.contains("flash fired"), "\(line)")
        }
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

/// `obscura run` writes each output folder as a set, swapped in when complete, under a safe name.
struct RunCommandOutputSetTests {
    static let capture = RunCommandTests.small + "  - capture: {flashMode: off}\n    save: [photo]\n"

    @Test func forceReplacesTheEarlierRunsFiles() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(Self.capture, in: dir)
        let out = dir.appendingPathComponent("out")
        #expect(try CLIRunner.run(["run", file, "--out", out.path]).status == 0)
        // A file of an earlier run that this one does not write again.
        let manifestURL = out.appendingPathComponent(".obscura-manifest.json")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        try manifest.replacingOccurrences(of: "\"report.html\"", with: "\"report.html\", \"step99-photo1.png\"")
            .write(to: manifestURL, atomically: true, encoding: .utf8)
        try Data([1]).write(to: out.appendingPathComponent("step99-photo1.png"))
        let result = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(!names.contains("step99-photo1.png"), "\(names)")
        #expect(names.contains("report.json"))
        // Nothing but the output folder and the scenario is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["out", "t.scenario.yaml"])
    }

    // `--force` replaces only what Obscura wrote: a project folder given as --out keeps its .git/, its
    // sources and the scenario, whether it never held a run (refused) or holds one (kept around it).
    @Test func forceKeepsWhatObscuraDidNotWrite() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let project = dir.appendingPathComponent("proj")
        for folder in [".git/objects", "src"] {
            try fm.createDirectory(at: project.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data("ref: refs/heads/main\n".utf8).write(to: project.appendingPathComponent(".git/HEAD"))
        try Data("let x = 1\n".utf8).write(to: project.appendingPathComponent("src/main.swift"))
        let file = try RunCommandTests.write(Self.capture, in: project, name: "x.scenario.yaml")
        let before = try fm.subpathsOfDirectory(atPath: project.path).sorted()

        let refused = try CLIRunner.run(["run", file, "--out", project.path, "--force"])
        #expect(refused.status == 3)
        #expect(refused.stderr.hasPrefix("error: \(project.path) holds files Obscura did not write"), "\(refused.stderr)")
        #expect(try fm.subpathsOfDirectory(atPath: project.path).sorted() == before)
        #expect(try fm.contentsOfDirectory(atPath: dir.path) == ["proj"])

        // A run's folder that the user then added to: the run's entries are exchanged, the rest stays.
        let out = dir.appendingPathComponent("out")
        #expect(try CLIRunner.run(["run", file, "--out", out.path]).status == 0)
        try fm.createDirectory(at: out.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let forced = try CLIRunner.run(["run", file, "--out", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        let names = try fm.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names.contains(".git") && names.contains("notes.txt") && names.contains("report.json"), "\(names)")
        #expect(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8) == "mine")
        let manifest = try String(contentsOf: out.appendingPathComponent(".obscura-manifest.json"), encoding: .utf8)
        #expect(!manifest.contains("notes.txt") && manifest.contains("report.json"))
        #expect(try fm.contentsOfDirectory(atPath: dir.path).sorted() == ["out", "proj"])
    }

    @Test func failedRunLeavesNoFolder() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The second save needs a folder where the first put a file: the run fails after writing a photo.
        let text = RunCommandTests.small + "  - capture: {flashMode: off}\n    save: [{photo: a.png}]\n"
            + "  - capture: {flashMode: off}\n    save: [{photo: a.png/b.png}]\n"
        let file = try RunCommandTests.write(text, in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try CLIRunner.run(["run", file, "--out", out])
        #expect(result.status == 3, "\(result.stderr)")
        // Progress lines come first on standard error; the error is the one last line.
        let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("error: output path 'a.png/b.png': \(out)/a.png: ") ?? false, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.scenario.yaml"])
    }

    @Test func dotsInTheFileNameCannotNameTheParent() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dots = try RunCommandTests.write(RunCommandTests.small, in: dir, name: "...scenario.yaml")
        let plain = try RunCommandTests.write(RunCommandTests.small, in: dir)
        let out = dir.appendingPathComponent("out")
        let result = try CLIRunner.run(["run", dots, plain, "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            == ["...scenario.yaml", "out", "t.scenario.yaml"])
        // One folder per scenario, beside the folder's own report of both and the run's manifest.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            == [".obscura-manifest.json", "report.html", "report.json", "scenario", "t"])
    }

    @Test func twoScenariosOfOneNameAreRefused() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(
                at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let first = try RunCommandTests.write(RunCommandTests.small, in: dir.appendingPathComponent("a"))
        let second = try RunCommandTests.write(RunCommandTests.small, in: dir.appendingPathComponent("b"))
        let out = dir.appendingPathComponent("out").path
        let result = try CLIRunner.run(["run", first, second, "--out", out])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: \(first) and \(second) would both write \(out)/t"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func staleTemporariesBesideTheOutputAreSwept() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(RunCommandTests.small, in: dir)
        let fm = FileManager.default
        let old = Date(timeIntervalSinceNow: -7200)
        let token = StaleTemporaries.installationToken
        let staleFolder = dir.appendingPathComponent(".obscura-tmp-\(token)-out-a1b2c3")
        let freshFolder = dir.appendingPathComponent(".obscura-tmp-\(token)-out-d4e5f6")
        let staleFile = dir.appendingPathComponent(".report.json.tmp-\(token)-Ab12Cd")
        // Names like ours without this installation's token are the user's, however old.
        let usersFolder = dir.appendingPathComponent(".obscura-tmp-mine")
        let usersFile = dir.appendingPathComponent(".notes.txt.tmp-abc123")
        let otherOld = dir.appendingPathComponent(".keep-me")
        for folder in [staleFolder, freshFolder, usersFolder] {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        for path in [staleFile, otherOld, usersFile] { try Data([1]).write(to: path) }
        for url in [staleFolder, staleFile, otherOld, usersFolder, usersFile] {
            try fm.setAttributes([.modificationDate: old], ofItemAtPath: url.path)
        }
        let result = try CLIRunner.run(["run", file, "--out", dir.appendingPathComponent("out").path])
        #expect(result.status == 0, "\(result.stderr)")
        let names = Set(try fm.contentsOfDirectory(atPath: dir.path))
        let kept: Set = [
            freshFolder.lastPathComponent, ".obscura-tmp-mine", ".notes.txt.tmp-abc123", ".keep-me", "out",
            "t.scenario.yaml",
        ]
        #expect(names == kept, "\(names)")
    }
}

/// Reports hold no addresses and no folders of the machine, so two runs write the same report.
struct RunCommandReportPrivacyTests {
    static let misuse = """
        steps:
          - begin
          - session: {preset: photo}
          - input: {type: builtInWideAngleCamera, position: back}
          - output: photo
          - output: {type: photo, name: second}
            expect: {exception: NSInvalidArgumentException, reason_contains: "more than one output of the same type"}
          - commit

        """

    @Test func reportsAreReproducibleAndPrivate() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(Self.misuse, in: dir)
        var reports: [String] = []
        for name in ["first", "second"] {
            let out = dir.appendingPathComponent(name).path
            let result = try CLIRunner.run(["run", file, "--out", out])
            #expect(result.status == 0, "\(result.stderr)")
            reports.append(try String(contentsOfFile: out + "/report.json", encoding: .utf8))
            let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
            #expect(!html.contains(dir.path))
            #expect(!html.contains(CLIRunner.repositoryRoot.path))
        }
        #expect(reports[0] == reports[1])
        let report = reports[0]
        #expect(report.contains("<AVCapturePhotoOutput: #1>"), "\(report.prefix(400))")
        #expect(report.range(of: "0x[0-9a-fA-F]{9,}", options: .regularExpression) == nil)
        #expect(!report.contains(dir.path))
        #expect(!report.contains(CLIRunner.repositoryRoot.path))
        #expect(report.contains("\"file\" : \"t.scenario.yaml\""))
        #expect(report.contains("\"location\" : \"t.scenario.yaml:2:5\""))
    }

    @Test func photoMetadataNamesTheSceneAsWritten() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(RunCommandOutputSetTests.capture, in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try CLIRunner.run(["run", file, "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }
        try #require(names.count == 1)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + names[0]))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("violets-warm-room"))
        #expect(!text.contains(CLIRunner.repositoryRoot.path))
    }
}
