import Foundation
import ISP
import Imaging
import Spectra

/// The text, JSON and HTML forms of a Constant Color validation.
enum ConstantColorReport {
    /// Mean, median and 95th percentile; null in the JSON when taken over nothing.
    struct Stats: Encodable {
        var mean: OrNull<Double>, median: OrNull<Double>, p95: OrNull<Double>
        init(_ s: ConstantColorValidation.Statistics) {
            func finite(_ v: Double) -> OrNull<Double> { OrNull(v.isFinite ? v : nil) }
            (mean, median, p95) = (finite(s.mean), finite(s.median), finite(s.p95))
        }
    }

    struct PatchRow: Encodable {
        var name: String
        var varianceOrdinary: Double, varianceConstantColor: Double
        var deltaEOrdinary: Double, deltaEConstantColor: Double
        var confidence: Double
        enum CodingKeys: String, CodingKey {
            case name, confidence
            case varianceOrdinary = "variance_ordinary", varianceConstantColor = "variance_constant_color"
            case deltaEOrdinary = "delta_e00_ordinary", deltaEConstantColor = "delta_e00_constant_color"
        }
    }

    struct Summary: Encodable {
        var device: String
        /// What Constant Color is compared with (`ConstantColorValidation.Baseline`) and the share of each light's
        /// cast its photo keeps.
        var baseline: String, baselineDescription: String, baselineWarmth: Double
        var conditions: Int
        /// How many units of the device took the protocol; the figures pool their photos.
        var units: Int
        var patches: Int
        var varianceReduction: Double
        var deltaE00Ordinary: Stats, deltaE00ConstantColor: Stats, deltaE00ConstantColorHighConfidence: Stats
        var highConfidencePatches: Int
        var meanCenterWeightedConfidence: Double
        var seconds: Double
        var perPatch: [PatchRow]
        /// Whether the figures above include the device's error sources.
        var deviceErrors: Bool
        /// The same protocol captured without them (the figures above again when they are off).
        var ideal: Ideal
        enum CodingKeys: String, CodingKey {
            case device, conditions, units, patches, seconds, ideal, baseline
            case baselineDescription = "baseline_description", baselineWarmth = "baseline_warmth"
            case deviceErrors = "device_errors"
            case varianceReduction = "variance_reduction"
            case deltaE00Ordinary = "delta_e00_ordinary", deltaE00ConstantColor = "delta_e00_constant_color"
            case deltaE00ConstantColorHighConfidence = "delta_e00_constant_color_high_confidence"
            case highConfidencePatches = "high_confidence_patches"
            case meanCenterWeightedConfidence = "mean_center_weighted_confidence"
            case perPatch = "per_patch"
        }

        init(
            _ r: ConstantColorValidation, ideal: ConstantColorValidation, deviceErrors: Bool, device: String,
            seconds: Double
        ) {
            self.deviceErrors = deviceErrors
            self.ideal = Ideal(
                varianceReduction: ideal.varianceReduction, deltaE00ConstantColor: Stats(ideal.deltaEConstantColor))
            self.device = device
            baseline = r.baseline.rawValue
            baselineDescription = r.baseline.summary(warmth: r.baselineWarmth)
            baselineWarmth = r.baselineWarmth
            conditions = r.protocolRun.conditions.count
            units = r.units
            patches = r.patches.count
            varianceReduction = r.varianceReduction
            deltaE00Ordinary = Stats(r.deltaEOrdinary)
            deltaE00ConstantColor = Stats(r.deltaEConstantColor)
            deltaE00ConstantColorHighConfidence = Stats(r.deltaEConstantColorHighConfidence)
            highConfidencePatches = r.highConfidenceCount
            meanCenterWeightedConfidence = r.meanCenterWeightedConfidence
            self.seconds = seconds
            perPatch = r.patches.map {
                PatchRow(
                    name: $0.name, varianceOrdinary: $0.varianceOrdinary, varianceConstantColor: $0.varianceConstantColor,
                    deltaEOrdinary: $0.deltaEOrdinary, deltaEConstantColor: $0.deltaEConstantColor,
                    confidence: $0.confidence)
            }
        }
    }

    /// The error-free figures.
    struct Ideal: Encodable {
        var varianceReduction: Double
        var deltaE00ConstantColor: Stats
        enum CodingKeys: String, CodingKey {
            case varianceReduction = "variance_reduction", deltaE00ConstantColor = "delta_e00_constant_color"
        }
    }

    static func line(_ s: ConstantColorValidation.Statistics) -> String {
        "mean \(format(s.mean, 2)), median \(format(s.median, 2)), p95 \(format(s.p95, 2))"
    }

    /// The summary; `ideal`, when given, is the same protocol without the device's error sources.
    static func text(
        _ r: ConstantColorValidation, ideal: ConstantColorValidation? = nil, device: String, seconds: Double
    ) -> String {
        let idealLine =
            ideal.map {
                "\nWithout the device's error sources (--ideal): \(reduction($0)), ΔE00 \(line($0.deltaEConstantColor))"
            } ?? ""
        return """
        Constant Color validation, \(device): \(r.patches.count) patches × \(r.protocolRun.conditions.count) lights\
        \(r.units > 1 ? " × \(r.units) units, pooled" : "") (\(format(seconds, 1)) s)
        Baseline: \(r.baseline.summary(warmth: r.baselineWarmth))
        CIELAB variance reduction vs the ordinary photo: \(reduction(r)) (Apple, iPhone 15 family: 87 %)
        ΔE00 ordinary:        \(line(r.deltaEOrdinary))
        ΔE00 Constant Color:  \(line(r.deltaEConstantColor))
        ΔE00 high confidence: \(line(r.deltaEConstantColorHighConfidence)) over \(r.highConfidenceCount) patches \
        (target mean ≤ 2)
        mean centre-weighted confidence: \(format(r.meanCenterWeightedConfidence, 3))\(idealLine)
        """
    }

    /// The variance reduction, or why it is not meaningful: with no high-confidence patch the photo is
    /// the ambient fill, whose low variance says nothing of Constant Color. Two decimals: the figures lie
    /// close to 100 %, where one decimal would round 99.97 % and 99.98 % alike to 100.0 %.
    static func reduction(_ r: ConstantColorValidation) -> String {
        r.highConfidenceCount > 0
            ? "\(format(r.varianceReduction * 100, 2)) %"
            : "not meaningful (no high-confidence patch: the photo is the ambient fill)"
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// A CSS colour for a Lab value, through Display P3 (CSS Color 4 `color(display-p3 …)`).
    static func css(_ lab: Lab) -> String {
        let xyz = lab.xyz(white: Colorimetry.whitePoint(of: Illuminants.d65)).vector / 100
        let rgb = RGBColorSpace.displayP3.fromXYZ * xyz
        let e = (0..<3).map { format(TransferFunction.sRGB.encode(min(max(rgb[$0], 0), 1)), 4) }
        return "color(display-p3 \(e[0]) \(e[1]) \(e[2]))"
    }

    /// The page `validate --html` writes; `seconds` is the run's time, as the text summary gives it.
    static func html(_ r: ConstantColorValidation, device: String, seconds: Double) -> String {
        var rows = ""
        for p in r.patches {
            rows += "<tr><td>\(escape(p.name))</td>"
            for lab in [p.reference, p.meanOrdinary, p.meanConstantColor] {
                rows += "<td><span class=sw style=\"background:\(css(lab))\"></span></td>"
            }
            rows += "<td>\(format(p.varianceOrdinary, 2))</td><td>\(format(p.varianceConstantColor, 2))</td>"
            rows += "<td>\(format(p.deltaEOrdinary, 2))</td><td>\(format(p.deltaEConstantColor, 2))</td>"
            rows += "<td>\(format(p.confidence, 2))</td></tr>\n"
        }
        // Variance chart: one pair of bars per patch, on a square-root scale.
        let n = r.patches.count
        let top = max(1e-9, r.patches.map { max($0.varianceOrdinary, $0.varianceConstantColor) }.max() ?? 1).squareRoot()
        let barW = 4.0, chartH = 200.0
        var bars = ""
        for (i, p) in r.patches.enumerated() {
            let x = Double(i) * barW * 2.5
            let ho = p.varianceOrdinary.squareRoot() / top * chartH
            let hc = p.varianceConstantColor.squareRoot() / top * chartH
            bars += "<rect x='\(format(x, 1))' y='\(format(chartH - ho, 1))' width='\(barW)' height='\(format(ho, 1))' fill='#c66'/>"
            bars += "<rect x='\(format(x + barW, 1))' y='\(format(chartH - hc, 1))' width='\(barW)' height='\(format(hc, 1))' fill='#36c'/>"
        }
        var pictures = ""
        for sample in r.samples {
            guard let a = try? PNG.encode(PNGImage(pixels: sample.ordinary, colorSpace: .displayP3)),
                let b = try? PNG.encode(PNGImage(pixels: sample.constantColor, colorSpace: .displayP3))
            else { continue }
            pictures += "<figure><img src='data:image/png;base64,\(Data(a).base64EncodedString())'>"
            pictures += "<img src='data:image/png;base64,\(Data(b).base64EncodedString())'>"
            pictures += "<figcaption>\(escape(sample.condition)): ordinary | Constant Color</figcaption></figure>\n"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Constant Color validation: \(escape(device))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font-family:sans-serif;margin:2em}pre{white-space:pre-wrap}td{padding:2px 6px;text-align:right}
            svg.chart{width:100%;height:auto;display:block}
            .sw{display:inline-block;width:40px;height:20px}figure{display:inline-block;margin:8px}
            img{width:224px;image-rendering:pixelated}</style></head><body>
            <h1>Constant Color validation: \(escape(device))</h1>
            <pre>\(escape(text(r, device: device, seconds: seconds)))</pre>
            <h2>Variance per patch (√ scale; red ordinary, blue Constant Color)</h2>
            <svg class='chart' viewBox='0 0 \(format(Double(n) * barW * 2.5, 0)) \(format(chartH, 0))' \
            preserveAspectRatio='none' style='max-width:\(format(Double(n) * barW * 2.5, 0))px' \
            xmlns='http://www.w3.org/2000/svg'>\(bars)</svg>
            <h2>Pictures</h2>\(pictures)
            <h2>Patches: truth under D65 | ordinary mean | Constant Color mean</h2>
            <table><tr><th>patch</th><th>D65</th><th>ordinary</th><th>Constant Color</th><th>var ord.</th>
            <th>var CC</th><th>ΔE00 ord.</th><th>ΔE00 CC</th><th>confidence</th></tr>
            \(rows)</table></body></html>
            """
    }
}
