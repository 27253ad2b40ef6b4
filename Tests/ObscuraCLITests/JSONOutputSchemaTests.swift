import ExternalTools
import Foundation
import Imaging
import Testing

/// Every `--json` output has a published schema (`Schemas/<command>.schema.json`) and keeps to it, and
/// every key is snake_case.
///
/// The schemas are the contract scripts rely on: each object lists its keys (`required`, with
/// `additionalProperties: false`), so a renamed, added or dropped key fails here. They are checked
/// with python3's `jsonschema` (Draft 2020-12); without it those tests are skipped naming the
/// package. The key style is checked without any tool.
struct JSONOutputSchemaTests {
    /// A command whose JSON is checked: its schema's name, and how to make its output.
    struct Output: Sendable, CustomTestStringConvertible {
        let schema: String
        let arguments: @Sendable (URL) throws -> [String]
        var testDescription: String { schema }
    }

    // The fault never comes (nothing streams), but the report lists it, so its schema is checked too.
    static let scenario = """
        faults:
          - {frame: 100, disk_full: true}
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

    static let outputs: [Output] = [
        Output(schema: "run") { dir in
            let file = dir.appendingPathComponent("t.scenario.yaml")
            try scenario.write(to: file, atomically: true, encoding: .utf8)
            return ["run", file.path, "--out", dir.appendingPathComponent("out").path, "--json"]
        },
        Output(schema: "explain") { dir in
            let file = dir.appendingPathComponent("t.scenario.yaml")
            try scenario.write(to: file, atomically: true, encoding: .utf8)
            return ["explain", file.path, "--json"]
        },
        Output(schema: "color-delta-e") { _ in ["color", "delta-e", "50,2.6772,-79.7751", "50,0,-82.7485", "--json"] },
        Output(schema: "color-illuminant") { _ in ["color", "illuminant", "--cct", "4000", "--json"] },
        Output(schema: "color-patch") { _ in ["color", "patch", "--patch", "13", "--json"] },
        Output(schema: "devices-list") { _ in ["devices", "list", "--json"] },
        Output(schema: "devices-show") { _ in ["devices", "show", "iphone-7-plus", "--json"] },
        Output(schema: "devices-lint") { _ in ["devices", "lint", "--json"] },
        Output(schema: "render") { dir in
            ["render", "violets-warm-room", "--size", "64x48", "--out", dir.appendingPathComponent("v.png").path,
             "--depth", dir.appendingPathComponent("d.png").path, "--json"]
        },
        Output(schema: "image-wide-gamut") { dir in
            let triangle = dir.appendingPathComponent("t.png").path
            _ = try CLIRunner.run(["image", "triangle", triangle, "--size", "64"])
            return ["image", "wide-gamut", triangle, dir.appendingPathComponent("h.png").path, "--json"]
        },
        Output(schema: "image-scan") { dir in
            let photo = UInt8Image(width: 160, height: 120, channels: 3) { x, y, c in
                (30..<130).contains(x) && (20..<100).contains(y) ? [230, 225, 210][c] : [110, 60, 30][c]
            }
            let input = dir.appendingPathComponent("p.png").path
            try PNG.write(PNGImage(pixels: photo, colorSpace: .sRGB), to: input)
            return ["image", "scan", input, dir.appendingPathComponent("s.png").path, "--json"]
        },
        Output(schema: "validate-constant-color") { _ in
            ["validate", "constant-color", "--quick", "--size", "112x84", "--json"]
        },
        Output(schema: "validate-constant-color-narrow-band") { _ in
            ["validate", "constant-color", "--ambient", "narrow-band", "--quick", "--size", "112x84", "--json"]
        },
        Output(schema: "validate-constant-color-full-field") { _ in
            ["validate", "constant-color", "--field", "full", "--quick", "--size", "112x84", "--json"]
        },
    ]

    /// Runs `output`'s command in a fresh folder; its standard output, parsed.
    static func json(_ output: Output) throws -> (text: String, value: Any) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-json-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLIRunner.run(try output.arguments(dir))
        try #require(result.status == 0, "\(output.schema): \(result.stderr)")
        let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
        return (result.stdout, value)
    }

    static let schemaFolder = CLIRunner.repositoryRoot.appendingPathComponent("Schemas")

    /// Every command with `--json` has a schema, and every schema belongs to a command checked here.
    @Test func everyJSONOutputHasASchema() throws {
        let published = try FileManager.default.contentsOfDirectory(atPath: Self.schemaFolder.path)
            .filter { $0.hasSuffix(".schema.json") }.map { String($0.dropLast(".schema.json".count)) }
        #expect(Set(published) == Set(Self.outputs.map(\.schema)))
        // Each is valid JSON naming the draft it follows.
        for name in published {
            let data = try Data(contentsOf: Self.schemaFolder.appendingPathComponent(name + ".schema.json"))
            let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema", "\(name)")
        }
    }

    /// Keys whose values are maps of data (property names, preset names, file roles), not fields.
    static let dataMaps: Set<String> = ["before", "after", "presets", "collection", "outputs"]

    /// snake_case keys everywhere, as `render` and `validate` have always written them.
    @Test(arguments: outputs)
    func keysAreSnakeCase(_ output: Output) throws {
        var bad: Set<String> = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    if key.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) == nil { bad.insert(key) }
                    if !Self.dataMaps.contains(key) { walk(child) }
                }
            } else if let list = value as? [Any] {
                list.forEach(walk)
            }
        }
        walk(try Self.json(output).value)
        #expect(bad.isEmpty, "\(output.schema): keys not in snake_case: \(bad.sorted())")
    }

    @Test(.needs(.pythonJSONSchema), arguments: outputs)
    func outputValidatesAgainstItsSchema(_ output: Output) throws {
        let (text, _) = try Self.json(output)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-\(UUID().uuidString).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let schema = Self.schemaFolder.appendingPathComponent(output.schema + ".schema.json").path
        let problems = try Self.validate(file.path, schema: schema)
        #expect(problems.isEmpty, "\(output.schema): \(problems)")
    }

    /// The schema check must be able to fail: a report with a camelCase key is refused.
    @Test(.needs(.pythonJSONSchema)) func aRenamedKeyFailsTheSchema() throws {
        let (text, _) = try Self.json(Self.outputs[0])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-\(UUID().uuidString).json")
        try text.replacingOccurrences(of: "\"api_calls\"", with: "\"apiCalls\"")
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let problems = try Self.validate(file.path, schema: Self.schemaFolder.appendingPathComponent("run.schema.json").path)
        #expect(problems.contains("apiCalls"), "\(problems)")
    }

    /// What python3's jsonschema says of `file` against `schema`: empty when it validates.
    static func validate(_ file: String, schema: String) throws -> String {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
            print("\\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:20]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.pythonJSONSchema.require())
        process.arguments = ["-c", script, schema, file]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text + error).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
