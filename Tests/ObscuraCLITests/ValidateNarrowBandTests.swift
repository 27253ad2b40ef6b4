import Foundation
import Testing

/// `obscura validate constant-color --ambient narrow-band`: the single-colour LED mode.
struct ValidateNarrowBandTests {
    /// The JSON carries one row per LED and illuminance, the targets and whether they were met.
    @Test func jsonCarriesEveryLightAndTheTargets() throws {
        let result = try CLIRunner.run(
            ["validate", "constant-color", "--ambient", "narrow-band", "--quick", "--size", "112x84", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let summary = try #require(object)
        #expect(summary["ambient"] as? String == "narrow-band")
        #expect(summary["confident_delta_e00_limit"] as? Double == 5)
        #expect(summary["mean_delta_e00_limit"] as? Double == 3)
        #expect(summary["meets_targets"] is Bool)
        let rows = try #require(summary["conditions"] as? [[String: Any]])
        #expect(rows.count == 8)
        let peaks = Set(rows.compactMap { $0["peak_nm"] as? Double })
        #expect(peaks == [460, 530, 590, 630])
        #expect(Set(rows.compactMap { $0["lux"] as? Double }) == [100, 800])
        for row in rows {
            for key in ["fwhm_nm", "mean_delta_e00", "center_weighted_confidence", "worst_confident_delta_e00"] {
                #expect(row[key] is Double, "\(key) missing")
            }
        }
    }

    /// The device's errors are on by default and the targets hold; `--uncalibrated-sensor` takes the factory's
    /// white-balance calibration away, and the unit's cast then reaches trusted patches.
    @Test func theSensorsCalibrationCanBeTakenAway() throws {
        func outliers(_ extra: [String]) throws -> (count: Int, met: Bool) {
            let result = try CLIRunner.run(
                ["validate", "constant-color", "--ambient", "narrow-band", "--quick", "--json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let summary = try #require(object)
            let count = try #require(summary["confident_outliers"] as? Int)
            return (count, try #require(summary["meets_targets"] as? Bool))
        }
        let calibrated = try outliers([]), uncalibrated = try outliers(["--uncalibrated-sensor"])
        #expect(calibrated.count == 0 && calibrated.met)
        #expect(uncalibrated.count > 0 && !uncalibrated.met)
    }

    /// The HTML report belongs to the white-light protocol; asking for it here is refused.
    @Test func htmlIsRefused() throws {
        let result = try CLIRunner.run(
            ["validate", "constant-color", "--ambient", "narrow-band", "--quick", "--html", "/dev/null"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("white-light protocol only"), "\(result.stderr)")
    }

    /// The narrow-band check compares with no baseline: a baseline asked for is refused, not ignored.
    @Test func aBaselineIsRefused() throws {
        for extra in [["--baseline", "known-light"], ["--warmth", "0"]] {
            let result = try CLIRunner.run(["validate", "constant-color", "--ambient", "narrow-band", "--quick"] + extra)
            #expect(result.status == 2)
            #expect(result.stderr.contains("compares with no baseline"), "\(result.stderr)")
        }
    }
}
