import ExternalTools
import Foundation
import Scenarios
import Testing

/// Every example in the documentation runs, as a reader would run it after copying it.
///
/// - A YAML example is a scenario: it is loaded as if saved in `Scenes/` and run, and every
///   expectation must hold.
/// - A Swift example is compiled as written: `Tests/DocumentationExamples/` holds each one verbatim,
///   built as a user's test target is against the products a user names, and its `@Test` functions run
///   with the suite. The copies are checked here against the documents, so an edited example that is
///   not copied fails this suite, and a copied one that does not compile fails the build. An example
///   marked `program` is wrapped in a test function, so its top-level code runs. This needs no
///   toolchain at test time and adds no build of its own: the examples build with the tests.
/// - A package manifest (`import PackageDescription`) is handed to SwiftPM (`swift package
///   dump-package`), which compiles manifests; without the toolchain that test is skipped.
/// - An example marked `partial` (a fragment of a scene or a profile) is skipped by name.
///
/// Figures quoted in prose are checked against the run that produces them (`SeedScenarioFigures`).
struct DocumentationExampleTests {
    static let examplesFolder = "Tests/DocumentationExamples"

    @Test func thereAreExamplesOfEachKind() {
        #expect(FencedExample.scenarios.count >= 2)
        #expect(FencedExample.compiledSwift.count >= 3)
        #expect(FencedExample.everyExample.contains { $0.isManifest && !$0.isPartial })
    }

    /// Every YAML or Swift example is run or compiled, or marked partial; the partial ones are listed.
    @Test func everyExampleIsRunOrMarkedPartial() {
        var unrunnable: [String] = []
        for example in FencedExample.everyExample where ["yaml", "swift"].contains(example.language) {
            if example.isPartial { continue }
            if example.language == "yaml" && !Self.isScenario(example) {
                unrunnable.append(
                    "\(example): a YAML example that is not a whole scenario (a top-level 'steps:') must be "
                        + "marked ```yaml partial")
            }
        }
        #expect(unrunnable.isEmpty, "\(unrunnable.joined(separator: "\n"))")
        let skipped = FencedExample.everyExample.filter(\.isPartial).map(\.description)
        #expect(!skipped.isEmpty, "partial examples, skipped by name: \(skipped.joined(separator: ", "))")
    }

    static func isScenario(_ example: FencedExample) -> Bool {
        example.text.split(separator: "\n").contains { $0.hasPrefix("steps:") }
    }

    /// A scenario example passes when copied into a file beside the seed scenarios and run.
    @Test(arguments: FencedExample.scenarios.filter(isScenario))
    func scenarioExamplePasses(_ example: FencedExample) throws {
        let result = try Self.run(example)
        let failures = result.failures.map { failure in
            "\(Self.documentLocation(failure.location, of: example)): \(failure.key) failed: expected "
                + "\(failure.expected); got \(failure.actual)"
        }
        #expect(failures.isEmpty, "\(example):\n\(failures.joined(separator: "\n"))")
    }

    /// Runs a scenario example, named after its document and line, from the seed scenarios' folder.
    static func run(_ example: FencedExample) throws -> ScenarioResult {
        let name = example.document.replacingOccurrences(of: "/", with: "-") + "-\(example.line)"
        let file = FencedExample.root.appendingPathComponent("Scenes/\(name).scenario.yaml").path
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(text: example.text, file: file)
        } catch {
            throw ExampleProblem(description: "\(example): the scenario does not load: \(error)")
        }
        return try ScenarioRunner.run(scenario)
    }

    /// A location in the example's text as the document's `file:line:column`.
    static func documentLocation(_ location: String, of example: FencedExample) -> String {
        let parts = location.split(separator: ":")
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]) else { return "\(example)" }
        return "\(example.document):\(example.documentLine(line)):\(parts[parts.count - 1])"
    }

    struct ExampleProblem: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Swift examples

    /// The copy of each Swift example that `DocumentationExamples` compiles, by file name.
    static func expectedCopies() -> [String: String] {
        var copies: [String: String] = [:]
        var ordinal: [String: Int] = [:]
        for example in FencedExample.compiledSwift {
            let article = URL(fileURLWithPath: example.document).deletingPathExtension().lastPathComponent
            let stem = example.document.hasPrefix("Sources/") ? article : example.document
                .replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: ".md", with: "")
            ordinal[stem, default: 0] += 1
            let name = "\(stem)-\(ordinal[stem]!).swift"
            let header = """
                // Swift example \(ordinal[stem]!) of \(example.document), copied verbatim by DocumentationTests (no
                // line number, so prose edits above it leave the copy as it is). Edit the document, then copy it
                // again: OBSCURA_UPDATE_DOC_EXAMPLES=1 swift test --filter DocumentationExampleTests

                """
            copies[name] = header + "\n" + (example.flags.contains("program") ? program(example, name: name) : example.text)
        }
        return copies
    }

    /// A `program` example: its imports, then its statements in a test function that runs them.
    static func program(_ example: FencedExample, name: String) -> String {
        let lines = example.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let imports = lines.filter { $0.hasPrefix("import ") }
        let body = lines.filter { !$0.hasPrefix("import ") }
        let function = "program_" + name.dropLast(".swift".count).map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return (["import Testing"] + imports.filter { $0 != "import Testing" }).joined(separator: "\n")
            + "\n\n@Test func \(String(function))() async throws {\n"
            + body.map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n").trimmingCharacters(in: .newlines)
            + "\n}\n"
    }

    /// The compiled copies are the documents' examples as they stand. With
    /// `OBSCURA_UPDATE_DOC_EXAMPLES=1` the copies are written instead (and stale ones removed).
    @Test func swiftExamplesAreCompiledAsWritten() throws {
        let folder = FencedExample.root.appendingPathComponent(Self.examplesFolder)
        let expected = Self.expectedCopies()
        let present = Set(
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter { $0.hasSuffix(".swift") } ?? [])
        if ProcessInfo.processInfo.environment["OBSCURA_UPDATE_DOC_EXAMPLES"] == "1" {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for stale in present.subtracting(expected.keys) {
                try FileManager.default.removeItem(at: folder.appendingPathComponent(stale))
            }
            for (name, text) in expected {
                try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            return
        }
        var problems: [String] = []
        for (name, text) in expected.sorted(by: { $0.key < $1.key }) {
            let copy = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            if copy != text { problems.append("\(Self.examplesFolder)/\(name) is not the document's example") }
        }
        for stale in present.subtracting(expected.keys).sorted() {
            problems.append("\(Self.examplesFolder)/\(stale) copies no example")
        }
        #expect(
            problems.isEmpty,
            """
            \(problems.joined(separator: "\n"))
            Copy the examples again: OBSCURA_UPDATE_DOC_EXAMPLES=1 swift test --filter DocumentationExampleTests
            """)
    }

    /// A package manifest in the documentation is one SwiftPM reads: `swift package dump-package`
    /// compiles it without fetching its dependencies.
    @Test(.needs(.swiftToolchain))
    func manifestExamplesAreValidManifests() throws {
        let swift = try ExternalTool.swiftToolchain.require()
        for example in FencedExample.everyExample where example.language == "swift" && example.isManifest {
            guard !example.isPartial else { continue }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try example.text.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: swift)
            process.arguments = ["package", "--package-path", folder.path, "dump-package"]
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(example): not a manifest SwiftPM reads:\n\(message)")
        }
    }
}

extension ExternalTool {
    /// The Swift toolchain's `swift`, which reads package manifests.
    static let swiftToolchain = program(
        "swift", packages: "swiftlang", versionArgument: "--version")
}
