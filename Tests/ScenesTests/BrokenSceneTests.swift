import Foundation
import ObscuraSupport
import Scenes
import Testing

/// Each broken scene gives its located error: the exact line and column (read off the file by
/// hand) and a fragment of the message.
@Suite struct BrokenSceneTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var line: Int
        var column: Int
        var fragment: String
        var testDescription: String { file }
    }

    static let cases: [Case] = [
        // The flow list opened on line 3 never closes; libyaml notices at the next ':' mapping
        // indicator on line 4, "look_at_m:" (column 12).
        Case(file: "syntax-error", line: 4, column: 12, fragment: "YAML syntax error"),
        Case(file: "wrong-type", line: 7, column: 8, fragment: "ambient.lux: expected a number, found 'bright'"),
        Case(
            file: "unknown-key", line: 17, column: 5,
            fragment: "unknown key 'positon_m' in objects[1] (pot); did you mean 'position_m'?"),
        Case(
            file: "negative-size", line: 16, column: 20,
            fragment: "objects[1] (pot).size_m[1]: must be positive, found -0.11"),
        Case(
            file: "unknown-material", line: 18, column: 15,
            fragment:
                "objects[1] (pot).material: no material named 'terracota' in this scene; did you mean 'terracotta'?"),
        Case(
            file: "bad-reflectance", line: 11, column: 63,
            fragment: "materials[1] (leaf).samples.values[1]: must be between 0 and 1, found 1.4"),
        Case(
            file: "duv-too-large", line: 6, column: 32,
            fragment: "ambient.spectrum.duv: must be between -0.05 and 0.05, found 0.08"),
        Case(file: "duplicate-object", line: 14, column: 11, fragment: "duplicate object name 'table'"),
        // A code's value must fit its symbology; codes are printed on planes only.
        Case(
            file: "bad-code-value", line: 18, column: 32,
            fragment: "objects[1] (label).code.value: ean13 codes hold 12 or 13 digits, not '40063813339X1'"),
        // More than a QR code holds (3,000 bytes; version 40 takes 2,953): the encoder says so at the value.
        Case(
            file: "code-value-too-long", line: 18, column: 29,
            fragment: "objects[1] (label).code.value: a QR code holds at most 2953 bytes of text"),
        Case(
            file: "code-on-sphere", line: 18, column: 11,
            fragment: "objects[1] (ball).code: codes are printed on planes only"),
        Case(file: "unknown-code-type", line: 18, column: 18, fragment: "unknown value 'qrcode'"),
        // A person part is one of the five the mattes know.
        Case(
            file: "unknown-person-part", line: 19, column: 13,
            fragment: "objects[1] (pot).person: unknown value 'face'"),
        // Cards cover planes and spheres; parts by material name the image card's palette, each material once.
        Case(
            file: "card-on-box", line: 18, column: 11,
            fragment: "objects[1] (pot).card: cards map onto planes and spheres only"),
        Case(
            file: "person-part-not-in-palette", line: 19, column: 21,
            fragment: "objects[1] (pot).person.skin[0]: 'terracota' is not in the card's palette; expected one of: "
                + "terracotta, leaf"),
        Case(
            file: "person-parts-without-image", line: 19, column: 13,
            fragment: "objects[1] (pot).person: parts by material need an image card"),
        Case(
            file: "person-material-twice", line: 19, column: 35,
            fragment: "objects[1] (pot).person.hair[0]: 'leaf' is already given a part"),
    ]

    /// The problems a file gives, flattened; an empty list when it loads.
    static func problems(_ path: String) -> [LocatedError] {
        do {
            _ = try SceneLoader.load(path: path)
            return []
        } catch let error as LocatedError {
            return [error]
        } catch let errors as LocatedErrors {
            return errors.errors
        } catch {
            return [LocatedError(SourceLocation(file: path, line: 0, column: 0), "unlocated: \(error)")]
        }
    }

    @Test(arguments: cases)
    func brokenSceneGivesLocatedError(_ c: Case) {
        let path = TestPaths.broken + "/\(c.file).yaml"
        let problems = Self.problems(path)
        let match = problems.first { $0.message.contains(c.fragment) }
        #expect(match != nil, "no problem containing \"\(c.fragment)\" in: \(problems.map(\.description))")
        #expect(match?.location == SourceLocation(file: path, line: c.line, column: c.column))
        #expect(match?.description.hasPrefix("\(path):\(c.line):\(c.column): ") == true)
    }

    /// The file every broken one derives from loads, so each broken file fails for its one change.
    @Test func cleanTemplateLoads() throws {
        let scene = try SceneLoader.load(path: TestPaths.broken + "/clean.yaml")
        #expect(scene.objects.map(\.name) == ["table", "pot"])
    }

    /// Three independent mistakes are all reported in one pass, in file order.
    @Test func everyProblemIsReportedAtOnce() {
        let path = TestPaths.broken + "/several-problems.yaml"
        let problems = Self.problems(path)
        #expect(problems.map { [$0.location.line, $0.location.column] } == [[7, 8], [13, 91], [15, 12]])
        #expect(problems.count == 3)
        #expect(problems.contains { $0.message.contains("must not be negative, found -5") })
        #expect(problems.contains { $0.message.contains("did you mean 'leaf'?") })
        #expect(problems.contains { $0.message.contains("unknown value 'cube'") })
    }

    @Test func unknownSceneNameSuggestsTheNearestOne() throws {
        let loader = try SceneLoader(directory: TestPaths.scenes)
        #expect(throws: LocatedError.self) { try loader.scene("violets-warm-rom") }
        do {
            _ = try loader.scene("violets-warm-rom")
        } catch let error as LocatedError {
            #expect(error.message.contains("did you mean 'violets-warm-room'?"))
        }
    }

    /// Display P3 red lies beyond every smooth reflectance; the loader says so at the value
    /// instead of quietly showing another colour.
    @Test func unreachableColourIsRefusedAtItsLocation() {
        let text = """
            device: {position_m: [0, 0, 1], look_at_m: [0, 0, 0]}
            materials:
              - {name: laser red, display_p3: [1.0, 0.0, 0.0]}
            objects:
              - {name: card, shape: plane, size_m: [0.1, 0.1], material: laser red}
            """
        #expect {
            try SceneLoader.load(text: text, file: "inline.yaml")
        } throws: { error in
            guard let list = error as? LocatedErrors, let first = list.errors.first else { return false }
            return list.errors.count == 1 && first.location == SourceLocation(file: "inline.yaml", line: 3, column: 35)
                && first.message.contains("materials[0] (laser red).display_p3: no smooth reflectance reaches")
        }
    }
}

/// A QR value is held to the largest symbol's capacity, ISO/IEC 18004's version 40 at level L, in the densest mode
/// its characters allow, whether or not an encoder is installed.
struct QRCapacityTests {
    @Test func theLargestSymbolsCapacityIsTheLimit() {
        let cases: [(fits: String, over: String)] = [
            (String(repeating: "7", count: 7089), String(repeating: "7", count: 7090)),
            (String(repeating: "A1 ", count: 1432), String(repeating: "A1 ", count: 1432) + "Z"),
            (String(repeating: "a", count: 2953), String(repeating: "a", count: 2954)),
        ]
        for c in cases {
            #expect(CodeAnnotation.problem(symbology: .qr, value: c.fits) == nil)
            #expect(CodeAnnotation.problem(symbology: .qr, value: c.over)?.hasPrefix("a QR code holds at most") == true)
        }
        // Bytes, not characters: 1477 two-byte letters are 2954 bytes.
        #expect(CodeAnnotation.problem(symbology: .qr, value: String(repeating: "é", count: 1477)) != nil)
        #expect(CodeAnnotation.problem(symbology: .qr, value: String(repeating: "é", count: 1476)) == nil)
        // Other symbologies keep their own rules.
        #expect(CodeAnnotation.problem(symbology: .code128, value: String(repeating: "a", count: 3000)) == nil)
    }
}
