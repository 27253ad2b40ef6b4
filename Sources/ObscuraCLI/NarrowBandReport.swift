import Foundation
import ISP

/// The text and JSON forms of the narrow-band Constant Color validation.
enum NarrowBandReport {
    struct Row: Encodable {
        var peakNm: Double, fullWidthNm: Double, lux: Double
        var meanDeltaE00: Double, centerWeightedConfidence: Double
        var confidentPatches: Int, worstConfidentDeltaE00: Double, meetsTargets: Bool
        enum CodingKeys: String, CodingKey {
            case lux
            case peakNm = "peak_nm", fullWidthNm = "fwhm_nm", meanDeltaE00 = "mean_delta_e00"
            case centerWeightedConfidence = "center_weighted_confidence", confidentPatches = "confident_patches"
            case worstConfidentDeltaE00 = "worst_confident_delta_e00", meetsTargets = "meets_targets"
        }
    }

    struct Summary: Encodable {
        var device: String, ambient = "narrow-band"
        var confidentDeltaE00Limit: Double, meanDeltaE00Limit: Double, confidenceThreshold: Double
        var confidentOutliers: Int, meetsTargets: Bool, seconds: Double
        var conditions: [Row]
        enum CodingKeys: String, CodingKey {
            case device, ambient, seconds, conditions
            case confidentDeltaE00Limit = "confident_delta_e00_limit", meanDeltaE00Limit = "mean_delta_e00_limit"
            case confidenceThreshold = "confidence_threshold", confidentOutliers = "confident_outliers"
            case meetsTargets = "meets_targets"
        }

        init(_ r: ConstantColorNarrowBandValidation, device: String, seconds: Double) {
            self.device = device
            confidentDeltaE00Limit = ConstantColorNarrowBandValidation.confidentDeltaELimit
            meanDeltaE00Limit = ConstantColorNarrowBandValidation.meanDeltaELimit
            confidenceThreshold = ConstantColorValidation.highConfidence
            confidentOutliers = r.confidentOutliers
            meetsTargets = r.meetsTargets
            self.seconds = seconds
            conditions = r.conditions.map {
                Row(
                    peakNm: $0.led.peak, fullWidthNm: $0.led.fullWidth, lux: $0.lux, meanDeltaE00: $0.meanDeltaE,
                    centerWeightedConfidence: $0.centerWeightedConfidence, confidentPatches: $0.confidentPatches,
                    worstConfidentDeltaE00: $0.worstConfidentDeltaE, meetsTargets: $0.meetsTargets)
            }
        }
    }

    static func text(_ r: ConstantColorNarrowBandValidation, device: String, seconds: Double) -> String {
        var lines = [
            "Constant Color under single-colour LEDs, \(device): \(r.patchNames.count) patches × "
                + "\(r.conditions.count) lights (\(format(seconds, 1)) s)",
            "targets: no patch at confidence ≥ \(format(ConstantColorValidation.highConfidence, 1)) off by more than "
                + "ΔE00 \(format(ConstantColorNarrowBandValidation.confidentDeltaELimit, 0)); centre-weighted "
                + "confidence < 0.8 whenever the mean ΔE00 exceeds "
                + "\(format(ConstantColorNarrowBandValidation.meanDeltaELimit, 0))",
            "  LED (FWHM)      lux   mean ΔE00  centre conf.  confident  worst confident ΔE00",
        ]
        for c in r.conditions {
            let led = "\(format(c.led.peak, 0)) nm (\(format(c.led.fullWidth, 0)))"
            lines.append(
                "  " + led.padding(toLength: 14, withPad: " ", startingAt: 0)
                    + String(repeating: " ", count: max(0, 5 - format(c.lux, 0).count)) + format(c.lux, 0)
                    + "   " + format(c.meanDeltaE, 2).padding(toLength: 11, withPad: " ", startingAt: 0)
                    + format(c.centerWeightedConfidence, 3).padding(toLength: 14, withPad: " ", startingAt: 0)
                    + "\(c.confidentPatches)".padding(toLength: 11, withPad: " ", startingAt: 0)
                    + format(c.worstConfidentDeltaE, 2) + (c.meetsTargets ? "" : "  ✗"))
        }
        lines.append(
            "confident patches off by more than ΔE00 5: \(r.confidentOutliers); "
                + (r.meetsTargets ? "targets met" : "targets missed"))
        return lines.joined(separator: "\n")
    }
}
