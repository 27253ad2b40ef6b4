import Foundation
import ISP

/// The text, JSON and HTML forms of a full-field Constant Color validation. All three come from the
/// same figures; a distance with no high-confidence patch shows its variance reduction as not
/// meaningful, never as a percentage.
enum ConstantColorFullFieldReport {
    /// The targets, our choices for the full field (the centre crop's are stricter on ΔE).
    static let targetMean = 2.5
    static let targetVarianceReduction = 0.9

    struct Cell: Encodable {
        var name: String
        var deltaEConstantColor: Double, deltaEBaseline: Double, confidence: Double, highConfidence: Bool
        enum CodingKeys: String, CodingKey {
            case name, confidence
            case deltaEConstantColor = "delta_e00_constant_color", deltaEBaseline = "delta_e00_baseline"
            case highConfidence = "high_confidence"
        }
    }

    struct DistanceSummary: Encodable {
        var distance: Double
        var highConfidencePatches: Int
        var constantColor: ConstantColorReport.Stats, baseline: ConstantColorReport.Stats
        var chromaticConstantColor: ConstantColorReport.Stats, chromaticBaseline: ConstantColorReport.Stats
        /// Nil when not meaningful (no high-confidence patch).
        var varianceReduction: Double?
        var varianceReductionMeaningful: Bool
        var meanCenterWeightedConfidence: Double
        var meetsTargets: Bool
        /// Rows top to bottom, columns left to right; nil where the chart has no patch.
        var map: [[Cell?]]
        enum CodingKeys: String, CodingKey {
            case distance = "distance_m", map
            case highConfidencePatches = "high_confidence_patches"
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
        var baseline: String, baselineDescription: String
        var width: Int, height: Int
        var conditions: Int
        var seconds: Double
        var distances: [DistanceSummary]
        enum CodingKeys: String, CodingKey {
            case device, field, baseline, width, height, conditions, seconds, distances
            case baselineDescription = "baseline_description"
        }

        init(_ r: FullFieldValidation, device: String, width: Int, height: Int, seconds: Double) {
            self.device = device
            baseline = r.baseline.rawValue
            baselineDescription = r.baseline.summary
            self.width = width
            self.height = height
            conditions = r.protocolRun.conditions.count
            self.seconds = seconds
            distances = r.distances.map { d in
                var map = [[Cell?]](repeating: [Cell?](repeating: nil, count: r.columns), count: r.rows)
                for c in d.cells {
                    map[c.row][c.column] = Cell(
                        name: c.name, deltaEConstantColor: c.deltaEConstantColor, deltaEBaseline: c.deltaEBaseline,
                        confidence: c.confidence, highConfidence: c.isHighConfidence)
                }
                return DistanceSummary(
                    distance: d.metres, highConfidencePatches: d.highConfidenceCount,
                    constantColor: .init(d.accuracyConstantColor), baseline: .init(d.accuracyBaseline),
                    chromaticConstantColor: .init(d.chromaticConstantColor),
                    chromaticBaseline: .init(d.chromaticBaseline),
                    varianceReduction: d.isMeaningful ? d.varianceReduction : nil,
                    varianceReductionMeaningful: d.isMeaningful,
                    meanCenterWeightedConfidence: d.meanCenterWeightedConfidence, meetsTargets: meets(d), map: map)
            }
        }
    }

    /// Whether a distance meets the three targets: high-confidence mean ≤ 2.5, Constant Color no less
    /// accurate than the baseline on those patches, variance reduction ≥ 90 % (and meaningful).
    static func meets(_ d: FullFieldValidation.Distance) -> Bool {
        d.isMeaningful && d.accuracyConstantColor.mean <= targetMean
            && d.accuracyConstantColor.mean <= d.accuracyBaseline.mean
            && d.varianceReduction >= targetVarianceReduction
    }

    static func reduction(_ d: FullFieldValidation.Distance) -> String {
        d.isMeaningful
            ? format(d.varianceReduction * 100, 1) + " %"
            : "not meaningful (no high-confidence patch: the photo is the ambient fill)"
    }

    static func text(_ r: FullFieldValidation, device: String, width: Int, height: Int, seconds: Double) -> String {
        let patches = r.distances.first?.cells.count ?? 0
        var lines = [
            "Constant Color full-field validation, \(device): chart filling a \(width)x\(height) frame, "
                + "\(patches) patches × \(r.protocolRun.conditions.count) lights"
                + (seconds.isFinite ? " (\(format(seconds, 1)) s)" : ""),
            "Baseline: \(r.baseline.summary)",
            "Accuracy: ΔE00 against D65, high-confidence patches (≥ \(ConstantColorValidation.highConfidence))"
                + " only.",
            "Targets: Constant Color mean ≤ \(format(targetMean, 1)), no worse than the baseline; variance "
                + "reduction ≥ \(Int(targetVarianceReduction * 100)) %.",
            "",
        ]
        for d in r.distances {
            let cc = d.accuracyConstantColor, base = d.accuracyBaseline
            lines.append("\(format(d.metres, 1)) m: \(d.highConfidenceCount)/\(d.cells.count) high-confidence patches, "
                + "mean centre-weighted confidence \(format(d.meanCenterWeightedConfidence, 3))")
            if d.highConfidenceCount > 0 {
                lines.append("  ΔE00 Constant Color: mean \(format(cc.mean, 2)), p95 \(format(cc.p95, 2))")
                lines.append("  ΔE00 baseline:       mean \(format(base.mean, 2)), p95 \(format(base.p95, 2))")
                let cm = d.chromaticConstantColor, bm = d.chromaticBaseline
                lines.append(
                    "  at matched lightness (chromatic error only): Constant Color mean \(format(cm.mean, 2)), "
                        + "p95 \(format(cm.p95, 2)); baseline mean \(format(bm.mean, 2)), p95 \(format(bm.p95, 2))")
            } else {
                lines.append("  ΔE00: no high-confidence patch to measure")
            }
            lines.append("  variance reduction: \(reduction(d))")
            lines.append("  targets: \(meets(d) ? "met" : "not met")")
        }
        for d in r.distances {
            lines.append("")
            lines.append(
                "Map at \(format(d.metres, 1)) m: ΔE00 Constant Color / baseline per patch as on the chart "
                    + "(* marks confidence below \(ConstantColorValidation.highConfidence))")
            lines += map(r, d).map { row in
                row.map { c in
                    guard let c else { return String(repeating: " ", count: 10) }
                    let mark = c.isHighConfidence ? " " : "*"
                    return pad(format(c.deltaEConstantColor, 1), 4) + "/" + pad(format(c.deltaEBaseline, 1), 4) + mark
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
                    let style = c.isHighConfidence ? "" : ";opacity:0.45"
                    let title = "\(ConstantColorReport.escape(c.name)), confidence \(format(c.confidence, 2))"
                    body += "<td title=\"\(title)\" "
                        + "style=\"background:\(shade(c.deltaEConstantColor))\(style)\">"
                        + "\(format(c.deltaEConstantColor, 1))<br><small>\(format(c.deltaEBaseline, 1))</small></td>"
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
            <style>body{font-family:sans-serif;margin:2em}table.map td{width:44px;height:34px;text-align:center;
            font-size:12px;border:1px solid #fff}small{color:#555}</style></head><body>
            <h1>Constant Color full-field validation: \(ConstantColorReport.escape(device))</h1>
            <pre>\(ConstantColorReport.escape(summary))</pre>
            <p>Each cell: ΔE00 of Constant Color (large) and of the baseline (small) against the patch under D65,
            as laid out on the chart; faded cells have confidence below \(ConstantColorValidation.highConfidence).
            Green under 2, amber under 4, red above.</p>
            \(body)</body></html>
            """
    }
}
