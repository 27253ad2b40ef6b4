import Foundation
import ISP

/// The text, JSON and HTML forms of a full-field Constant Color validation. All three come from the
/// same figures; a distance with no patch trusted under two lights shows its variance reduction as not
/// meaningful, never as a percentage, and figures over no picture are null in the JSON.
enum ConstantColorFullFieldReport {
    /// The targets, our choices for the full field (the centre crop's are stricter on ΔE).
    static let targetMean = 2.5
    static let targetVarianceReduction = 0.9

    struct Cell: Encodable {
        var name: String
        var deltaEConstantColor: Double, deltaEBaseline: Double, confidence: Double
        var trustedLights: Int
        /// Null when the patch is trusted under no light.
        var trustedDeltaEConstantColor: OrNull<Double>, trustedDeltaEBaseline: OrNull<Double>
        enum CodingKeys: String, CodingKey {
            case name, confidence
            case deltaEConstantColor = "delta_e00_constant_color", deltaEBaseline = "delta_e00_baseline"
            case trustedLights = "trusted_lights"
            case trustedDeltaEConstantColor = "trusted_delta_e00_constant_color"
            case trustedDeltaEBaseline = "trusted_delta_e00_baseline"
        }
    }

    struct DistanceSummary: Encodable {
        var distance: Double
        var trustedPatchPictures: Int, varianceMeasuredPatches: Int
        var constantColor: ConstantColorReport.Stats, baseline: ConstantColorReport.Stats
        var chromaticConstantColor: ConstantColorReport.Stats, chromaticBaseline: ConstantColorReport.Stats
        /// Null when not meaningful (no patch trusted under two lights).
        var varianceReduction: OrNull<Double>
        var varianceReductionMeaningful: Bool
        var meanCenterWeightedConfidence: Double
        /// Null when no patch picture is trusted: the confidence map tells the user not to rely on the
        /// photo, and there is no trusted colour to hold to the targets.
        var meetsTargets: OrNull<Bool>
        /// Rows top to bottom, columns left to right; nil where the chart has no patch.
        var map: [[Cell?]]
        enum CodingKeys: String, CodingKey {
            case distance = "distance_m", map
            case trustedPatchPictures = "trusted_patch_pictures"
            case varianceMeasuredPatches = "variance_measured_patches"
            case constantColor = "delta_e00_constant_color_high_confidence"
            case baseline = "delta_e00_baseline_high_confidence"
            case chromaticConstantColor = "delta_e00_constant_color_high_confidence_matched_lightness"
            case chromaticBaseline = "delta_e00_baseline_high_confidence_matched_lightness"
            case varianceReduction = "variance_reduction"
            case varianceReductionMeaningful = "variance_reduction_meaningful"
            case meanCenterWeightedConfidence = "mean_center_weighted_confidence"
            case meetsTargets = "meets_targets"
        }
    }

    struct Summary: Encodable {
        var device: String
        var field = "full"
        var baseline: String, baselineDescription: String, baselineWarmth: Double
        var width: Int, height: Int
        var conditions: Int
        var seconds: Double
        var distances: [DistanceSummary]
        enum CodingKeys: String, CodingKey {
            case device, field, baseline, width, height, conditions, seconds, distances
            case baselineDescription = "baseline_description", baselineWarmth = "baseline_warmth"
        }

        init(_ r: FullFieldValidation, device: String, width: Int, height: Int, seconds: Double) {
            self.device = device
            baseline = r.baseline.rawValue
            baselineDescription = r.baseline.summary(warmth: r.baselineWarmth)
            baselineWarmth = r.baselineWarmth
            self.width = width
            self.height = height
            conditions = r.protocolRun.conditions.count
            self.seconds = seconds
            distances = r.distances.map { d in
                var map = [[Cell?]](repeating: [Cell?](repeating: nil, count: r.columns), count: r.rows)
                for c in d.cells {
                    map[c.row][c.column] = Cell(
                        name: c.name, deltaEConstantColor: c.deltaEConstantColor, deltaEBaseline: c.deltaEBaseline,
                        confidence: c.confidence, trustedLights: c.trustedLights,
                        trustedDeltaEConstantColor: OrNull(c.isTrusted ? c.trustedDeltaEConstantColor : nil),
                        trustedDeltaEBaseline: OrNull(c.isTrusted ? c.trustedDeltaEBaseline : nil))
                }
                return DistanceSummary(
                    distance: d.metres, trustedPatchPictures: d.trustedPictures,
                    varianceMeasuredPatches: d.varianceMeasuredPatches,
                    constantColor: .init(d.accuracyConstantColor), baseline: .init(d.accuracyBaseline),
                    chromaticConstantColor: .init(d.chromaticConstantColor),
                    chromaticBaseline: .init(d.chromaticBaseline),
                    varianceReduction: OrNull(d.isMeaningful ? d.varianceReduction : nil),
                    varianceReductionMeaningful: d.isMeaningful,
                    meanCenterWeightedConfidence: d.meanCenterWeightedConfidence,
                    meetsTargets: OrNull(d.trustedPictures > 0 ? meets(d) : nil), map: map)
            }
        }
    }

    /// Whether a distance meets the three targets: mean ΔE00 ≤ 2.5 over the trusted patch pictures,
    /// Constant Color no less accurate than the baseline on any patch over the pictures it is trusted
    /// in, variance reduction ≥ 90 % (and meaningful).
    static func meets(_ d: FullFieldValidation.Distance) -> Bool {
        d.isMeaningful && d.accuracyConstantColor.mean <= targetMean
            && worseThanBaseline(d).isEmpty
            && d.varianceReduction >= targetVarianceReduction
    }

    /// Trusted patches on which Constant Color is less accurate than the baseline, over the pictures
    /// they are trusted in.
    static func worseThanBaseline(_ d: FullFieldValidation.Distance) -> [FullFieldValidation.Cell] {
        d.cells.filter { $0.isTrusted && $0.trustedDeltaEConstantColor > $0.trustedDeltaEBaseline }
    }

    static func reduction(_ d: FullFieldValidation.Distance) -> String {
        d.isMeaningful
            ? format(d.varianceReduction * 100, 2) + " %"
            : "not meaningful (no patch trusted under two lights: the photo is the ambient fill)"
    }

    static func text(_ r: FullFieldValidation, device: String, width: Int, height: Int, seconds: Double) -> String {
        let patches = r.distances.first?.cells.count ?? 0
        var lines = [
            "Constant Color full-field validation, \(device): chart filling a \(width)x\(height) frame, "
                + "\(patches) patches × \(r.protocolRun.conditions.count) lights"
                + (seconds.isFinite ? " (\(format(seconds, 1)) s)" : ""),
            "Baseline: \(r.baseline.summary(warmth: r.baselineWarmth))",
            "Accuracy: ΔE00 against D65 over trusted patch pictures only (a patch under one light, its "
                + "confidence in that picture ≥ \(ConstantColorValidation.highConfidence)).",
            "Targets: Constant Color mean ≤ \(format(targetMean, 1)), no worse than the baseline on any trusted "
                + "patch; variance reduction ≥ \(Int(targetVarianceReduction * 100)) %.",
            "",
        ]
        for d in r.distances {
            let cc = d.accuracyConstantColor, base = d.accuracyBaseline
            let pictures = d.cells.count * r.protocolRun.conditions.count
            lines.append(
                "\(format(d.metres, 1)) m: \(d.trustedPictures)/\(pictures) trusted patch pictures, "
                    + "\(d.cells.filter(\.isTrusted).count)/\(d.cells.count) patches trusted under some "
                    + "light, mean centre-weighted confidence \(format(d.meanCenterWeightedConfidence, 3))")
            if d.trustedPictures > 0 {
                lines.append("  ΔE00 Constant Color: mean \(format(cc.mean, 2)), p95 \(format(cc.p95, 2))")
                lines.append("  ΔE00 baseline:       mean \(format(base.mean, 2)), p95 \(format(base.p95, 2))")
                let cm = d.chromaticConstantColor, bm = d.chromaticBaseline
                lines.append(
                    "  at matched lightness (chromatic error only): Constant Color mean \(format(cm.mean, 2)), "
                        + "p95 \(format(cm.p95, 2)); baseline mean \(format(bm.mean, 2)), p95 \(format(bm.p95, 2))")
            } else {
                lines.append("  ΔE00: no trusted patch picture to measure")
            }
            lines.append("  variance reduction: \(reduction(d))")
            let worse = worseThanBaseline(d)
            if !worse.isEmpty {
                lines.append("  less accurate than the baseline on: \(worse.map(\.name).joined(separator: ", "))")
            }
            lines.append(
                "  targets: "
                    + (d.trustedPictures == 0
                        ? "nothing to hold to them (the confidence map trusts no patch at this distance)"
                        : meets(d) ? "met" : "not met"))
        }
        for d in r.distances {
            lines.append("")
            lines.append(
                "Map at \(format(d.metres, 1)) m: ΔE00 Constant Color / baseline per patch as on the chart, over "
                    + "the lights the patch is trusted under (* trusted under none: over every light)")
            lines += map(r, d).map { row in
                row.map { c in
                    guard let c else { return String(repeating: " ", count: 10) }
                    let mark = c.isTrusted ? " " : "*"
                    let (cc, base) = shown(c)
                    return pad(format(cc, 1), 4) + "/" + pad(format(base, 1), 4) + mark
                }.joined(separator: " ")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func map(_ r: FullFieldValidation, _ d: FullFieldValidation.Distance) -> [[FullFieldValidation.Cell?]] {
        var map = [[FullFieldValidation.Cell?]](
            repeating: [FullFieldValidation.Cell?](repeating: nil, count: r.columns), count: r.rows)
        for c in d.cells { map[c.row][c.column] = c }
        return map
    }

    /// A map cell's two figures: over the lights the patch is trusted under, or every light if none.
    static func shown(_ c: FullFieldValidation.Cell) -> (Double, Double) {
        c.isTrusted
            ? (c.trustedDeltaEConstantColor, c.trustedDeltaEBaseline) : (c.deltaEConstantColor, c.deltaEBaseline)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - s.count)) + s
    }

    /// A background for a ΔE00: green under 2, amber under 4, red above (our bands for reading maps).
    static func shade(_ e: Double) -> String {
        e < 2 ? "#bfe6bf" : e < 4 ? "#f3dfa2" : "#f0b0a8"
    }

    static func html(_ r: FullFieldValidation, device: String, width: Int, height: Int) -> String {
        var body = ""
        for d in r.distances {
            body += "<h2>\(format(d.metres, 1)) m</h2>\n<table class=map>"
            for row in map(r, d) {
                body += "<tr>"
                for c in row {
                    guard let c else {
                        body += "<td></td>"
                        continue
                    }
                    let style = c.isTrusted ? "" : ";opacity:0.45"
                    let title = "\(ConstantColorReport.escape(c.name)), mean confidence \(format(c.confidence, 2)), "
                        + "trusted under \(c.trustedLights) of \(r.protocolRun.conditions.count) lights"
                    let (cc, base) = shown(c)
                    body += "<td title=\"\(title)\" "
                        + "style=\"background:\(shade(cc))\(style)\">"
                        + "\(format(cc, 1))<br><small>\(format(base, 1))</small></td>"
                }
                body += "</tr>\n"
            }
            body += "</table>\n"
        }
        let summary = text(r, device: device, width: width, height: height, seconds: .nan)
            .components(separatedBy: "\n\nMap at").first ?? ""
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Constant Color full-field validation: \
            \(ConstantColorReport.escape(device))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font-family:sans-serif;margin:2em}pre{white-space:pre-wrap}
            table.map td{width:44px;height:34px;text-align:center;font-size:12px;border:1px solid #fff}small{color:#555}</style></head><body>
            <h1>Constant Color full-field validation: \(ConstantColorReport.escape(device))</h1>
            <pre>\(ConstantColorReport.escape(summary))</pre>
            <p>Each cell: ΔE00 of Constant Color (large) and of the baseline (small) against the patch under D65,
            as laid out on the chart, over the lights under which the patch's confidence is at least
            \(ConstantColorValidation.highConfidence); faded cells are trusted under no light and show every light.
            Green under 2, amber under 4, red above.</p>
            \(body)</body></html>
            """
    }
}
