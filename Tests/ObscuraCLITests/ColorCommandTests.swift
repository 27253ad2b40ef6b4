import Foundation
import Testing

/// `obscura color …`, run as a user runs it. Expected numbers come from Sharma, Wu & Dalal (2005)
/// and from colour-science 0.4.7 (see the colour-science spec §1.2, §1.7, §2.3).
@Suite struct ColorCommandTests {
    @Test func deltaEPrintsCIEDE2000OfSharmaPairOne() throws {
        let result = try CLIRunner.run(["color", "delta-e", "50,2.6772,-79.7751", "50,0,-82.7485"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ΔE00 = 2.0425")
    }

    @Test func deltaECIE76IsEuclidean() throws {
        // √(3² + 4²) = 5 exactly.
        let result = try CLIRunner.run(["color", "delta-e", "50,0,0", "50,3,4", "--method", "cie76"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("ΔE*ab = 5.0000"))
    }

    @Test func deltaEJSONHasStableKeys() throws {
        let result = try CLIRunner.run(["color", "delta-e", "50,2.5,0", "73,25,-18", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["method", "lab1", "lab2", "delta_e"])
        let value = try #require(object["delta_e"] as? Double)
        #expect(abs(value - 27.1492) < 1e-4)  // Sharma pair 17
    }

    @Test func badLabArgumentGivesOneLineErrorAndNonZeroExit() throws {
        let result = try CLIRunner.run(["color", "delta-e", "50,0", "50,0,0"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("50,0"))
        #expect(result.stdout.isEmpty)
    }

    /// A colour no surface has (a component so large the formulas overflow, a lightness past 100) is refused,
    /// not answered with NaN.
    @Test func labOutsideEveryColourIsRefused() throws {
        for pair in [["50,1e300,0", "50,0,0"], ["500,0,0", "50,0,0"]] {
            let result = try CLIRunner.run(["color", "delta-e"] + pair + ["--json"])
            #expect(result.status != 0, "\(pair)")
            #expect(result.stdout.isEmpty && !result.stderr.contains("nan"), "\(result.stdout)")
        }
    }

    @Test func illuminantDaylight6504IsD65Chromaticity() throws {
        let result = try CLIRunner.run(["color", "illuminant", "--cct", "6504", "--model", "daylight", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let x = try #require(object["x"] as? Double), y = try #require(object["y"] as? Double)
        // D65: x = 0.3127, y = 0.3290; CCT 6504 K, Duv +0.0032 (Ohno 2013).
        #expect(abs(x - 0.3127) < 2e-4)
        #expect(abs(y - 0.3290) < 2e-4)
        let duv = try #require(object["duv"] as? Double)
        #expect(abs(duv - 0.0032) < 3e-4)
        #expect(Set(object.keys) == ["model", "requested", "x", "y", "cct", "duv", "xyz"])
    }

    @Test func illuminantWithMagentaTintLandsBelowTheLocus() throws {
        let result = try CLIRunner.run(["color", "illuminant", "--cct", "3000", "--duv", "-0.02", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        // colour-science: CCT_to_xy via Ohno 2013 for (3000 K, −0.02) is (0.41031, 0.34912).
        let x = try #require(object["x"] as? Double), y = try #require(object["y"] as? Double)
        #expect(abs(x - 0.41031) < 5e-4)
        #expect(abs(y - 0.34912) < 5e-4)
    }

    @Test func illuminantRejectsImpossibleDuv() throws {
        let result = try CLIRunner.run(["color", "illuminant", "--cct", "3000", "--duv", "0.2"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--duv"))
    }

    @Test func patchBlueUnderD65MatchesColourScience() throws {
        let result = try CLIRunner.run(["color", "patch", "--chart", "colorchecker", "--patch", "13",
                                        "--illuminant", "D65", "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let lab = try #require(object["lab"] as? [Double])
        // colour-science 0.4.7 on the Ohta (ISO 17321-1) spectra, plain integration: (29.986, 24.609, −50.865).
        #expect(abs(lab[0] - 29.986) < 0.01)
        #expect(abs(lab[1] - 24.609) < 0.01)
        #expect(abs(lab[2] - -50.865) < 0.01)
    }

    @Test func patchTextOutputNamesThePatch() throws {
        let result = try CLIRunner.run(["color", "patch", "--patch", "19", "--illuminant", "D65"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("#19"))
        #expect(result.stdout.contains("Lab"))
    }

    @Test func patchOutOfRangeIsAnError() throws {
        let result = try CLIRunner.run(["color", "patch", "--patch", "99"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no patch '99'"))
    }

    @Test func everySubcommandHasHelp() throws {
        for command in [["color"], ["color", "delta-e"], ["color", "illuminant"], ["color", "patch"], ["devices"]] {
            let result = try CLIRunner.run(command + ["--help"])
            #expect(result.status == 0, "\(command) --help")
            #expect(result.stdout.contains("USAGE"), "\(command) --help")
        }
    }
}
