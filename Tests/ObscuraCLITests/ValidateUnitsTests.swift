import Foundation
import Testing

/// `obscura validate constant-color --units N`: several units of the device take the white-light protocol, and the
/// figures pool their photos.
struct ValidateUnitsTests {
    @Test func theSummarySaysHowManyUnitsItPooled() throws {
        let result = try CLIRunner.run(
            ["validate", "constant-color", "--quick", "--size", "112x84", "--units", "2", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["units"] as? Int == 2)
        #expect(json["variance_reduction"] is Double)
        let text = try CLIRunner.run(["validate", "constant-color", "--quick", "--size", "112x84", "--units", "2"])
        #expect(text.stdout.contains("× 2 units, pooled"), "\(text.stdout)")
    }

    /// A count outside 1…100, or units asked of the protocols that do not pool them, is refused rather than ignored.
    @Test func unitsItCannotTakeAreRefused() throws {
        for extra in [["--units", "0"], ["--units", "101"]] {
            let result = try CLIRunner.run(["validate", "constant-color", "--quick"] + extra)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--units: expected 1 to 100 units"), "\(result.stderr)")
        }
        for extra in [["--field", "full"], ["--ambient", "narrow-band"]] {
            let result = try CLIRunner.run(["validate", "constant-color", "--quick", "--units", "2"] + extra)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--units pools the white-light protocol"), "\(result.stderr)")
        }
    }
}
