import ExternalTools
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `obscura run --junit FILE`: the JUnit XML that CI services read.
struct JUnitReportTests {
    /// Two expectations: the first holds, the second (line 12, column 19) does not.
    static let scenario = """
        steps:
          - begin
          - session: {preset: photo}
          - input: {type: builtInWideAngleCamera, position: back}
          - output: photo
          - commit:
            expect:
              properties: {session.isRunning: false}
          - start:
            expect:
              properties: {session.isRunning: false}

        """

    static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    @Test func failingScenarioGivesOneTestCasePerExpectationAndALocatedFailure() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(Self.scenario, in: dir)
        let junit = dir.appendingPathComponent("reports/junit.xml").path
        let result = try CLIRunner.run(["run", file, "--out", dir.appendingPathComponent("out").path, "--junit", junit])
        try #require(result.status == 1, "\(result.stderr)")

        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(Self.attribute(root, "tests") == "2")
        #expect(Self.attribute(root, "failures") == "1")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 1)
        let suite = try #require(suites.first)
        #expect(Self.attribute(suite, "name") == "t")
        #expect(Self.attribute(suite, "tests") == "2")
        #expect(Self.attribute(suite, "failures") == "1")
        #expect(Self.attribute(suite, "errors") == "0")
        let time = try #require(Self.attribute(suite, "time").flatMap(Double.init))
        #expect(time >= 0 && time < 600)

        let cases = suite.elements(forName: "testcase")
        #expect(cases.count == 2)
        #expect(cases.allSatisfy { Self.attribute($0, "classname") == "t" })
        #expect(cases.map { Self.attribute($0, "name") ?? "" }
            == ["step 5 commit: properties", "step 6 start: properties"])
        #expect(cases[0].elements(forName: "failure").isEmpty)
        let failure = try #require(cases[1].elements(forName: "failure").first)
        let message = try #require(Self.attribute(failure, "message"))
        // The scenario's path as it was given (here absolute), so an annotation opens the file.
        #expect(message.hasPrefix(file + ":11:19: properties failed"), "\(message)")
        #expect(message.contains("session.isRunning=false"))
        #expect(Self.attribute(cases[1], "file") == file)
        #expect(Self.attribute(cases[1], "line") == "11")
        #expect(failure.stringValue?.contains("actual:") == true)

        try Self.validateWithXmllint(junit)
    }

    @Test func junitToStandardOutputIsTheOnlyThingThere() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(RunCommandTests.small, in: dir)
        let result = try CLIRunner.run(["run", file, "--out", dir.appendingPathComponent("out").path, "--junit", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        // Parsed only when it is XML at all: FoundationXML traps on empty input.
        try #require(result.stdout.hasPrefix("<?xml"))
        let document = try XMLDocument(data: Data(result.stdoutBytes), options: [])
        #expect(document.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "testcase").count == 1)
    }

    /// Checks `path` against `JUnitSchema` with libxml2's `xmllint`; without it the test ends here,
    /// skipped (see `ExternalTool`), so callers check everything else first.
    static func validateWithXmllint(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xmllint = try ExternalTool.xmllint.require(sourceLocation: sourceLocation)
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("junit-\(UUID().uuidString).xsd")
        try JUnitSchema.text.write(to: schema, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: schema) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: xmllint)
        process.arguments = ["--noout", "--schema", schema.path, path]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let output = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
    }
}
