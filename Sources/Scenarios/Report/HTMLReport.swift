import Foundation
import Imaging

/// `report.html`: the scenario, its saved images, the delivery timeline, and every expectation
/// marked pass or fail. Self-contained apart from the images beside it.
///
/// The step table has a fixed layout and long words break, so a long API call or reason wraps
/// within its column instead of pushing the expectations off the page; a screen too narrow for
/// the table scrolls it sideways. Every picture is a captioned figure.
public enum HTMLReport {
    static let style = """
        body{font-family:sans-serif;margin:2em;max-width:80em}
        .pass{color:#176b2c}.fail{color:#b00020;font-weight:bold}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.3em .5em;vertical-align:top}
        table.steps{table-layout:fixed;min-width:50em}
        td{overflow-wrap:anywhere;word-break:break-word}
        code{font-size:90%}
        figure{display:inline-block;margin:.3em;vertical-align:top;max-width:100%}
        figure img{max-width:100%;width:24em;border:1px solid #ccc;display:block}
        figcaption{font-size:85%;color:#333}
        .legend{height:.8em;width:100%;border:1px solid #ccc}
        .legend-labels{display:flex;justify-content:space-between;font-size:80%}
        svg{max-width:100%;height:auto}
        """

    /// The report page for `result`.
    public static func render(_ result: ScenarioResult) -> String {
        let verdict = result.passed ? "passed" : "FAILED"
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(result.name)) — Obscura</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            \(style)
            </style></head><body>
            <h1>\(escape(result.name)): <span class="\(result.passed ? "pass" : "fail")">\(verdict)</span></h1>
            <p>\(escape(result.description ?? ""))</p>
            <p>Device <code>\(escape(result.device))</code>, scene <code>\(escape(result.scene))</code>,
            seed \(result.seed), clock \(escape(result.clock)). \(result.expectations.count) expectations,
            \(result.failures.count) failed.</p>
            <h2>Deliveries</h2>
            <div class="scroll">\(TimelineSVG.render(result))</div>
            <h2>Steps</h2>
            <div class="scroll"><table class="steps">
            <colgroup><col style="width:3em"><col style="width:14%"><col style="width:24%"><col style="width:30%">\
            <col style="width:30%"></colgroup>
            <tr><th>#</th><th>step</th><th>API calls</th><th>outcome</th><th>expectations</th></tr>

            """
        for step in result.steps {
            var outcome: [String] = []
            if let e = step.exception {
                outcome.append("raised <code>\(escape(e.name))</code>: \(escape(e.reason))")
                if let rule = e.rule { outcome.append("<em>\(escape(rule))</em>") }
            }
            if let f = step.failure { outcome.append("<span class=\"fail\">\(escape(f))</span>") }
            if !step.callbacks.isEmpty { outcome.append("\(step.callbacks.count) callbacks, \(step.photos.count) photos") }
            for n in step.notifications { outcome.append("posted \(escape(n))") }
            var figures = step.photos.compactMap { photo in
                photo.file.map { figure($0, alt: "photo \(photo.photoCount)", caption: caption(photo)) }
            }
            var links: [String] = []
            for saved in step.savedFiles {
                if saved.image {
                    figures.append(figure(saved.file, alt: saved.kind, caption: escape(saved.kind)
                        + (saved.depthRangeMetres.map(legend) ?? "")))
                } else {
                    links.append("\(escape(saved.kind)): <a href=\"\(escape(saved.file))\">\(escape(saved.file))</a>")
                }
            }
            outcome.append(contentsOf: links)
            let delivered = Dictionary(grouping: step.deliveries, by: \.kind).mapValues(\.count)
            if !delivered.isEmpty {
                outcome.append("delivered " + delivered.keys.sorted().map { "\(delivered[$0] ?? 0) \($0)" }
                    .joined(separator: ", "))
            }
            for note in step.notes { outcome.append("<em>\(escape(note))</em>") }
            if !figures.isEmpty { outcome.append(figures.joined()) }
            let checks = step.expectations.map { r in
                "<div class=\"\(r.passed ? "pass" : "fail")\">\(r.passed ? "✓" : "✗") \(escape(r.key)): "
                    + "expected \(escape(r.expected)); got \(escape(r.actual)) <small>\(escape(r.location))</small></div>"
            }
            html += "<tr><td>\(step.index)</td><td><code>\(escape(step.key))</code><br><small>"
                + "\(escape(step.location))</small></td><td><code>"
                + step.apiCalls.map(escape).joined(separator: "<br>") + "</code></td><td>"
                + outcome.joined(separator: "<br>") + "</td><td>" + checks.joined() + "</td></tr>\n"
        }
        html += "</table></div></body></html>\n"
        return html
    }

    /// An index page for several runs: each scenario's verdict and counts, linking to its report.
    public static func renderIndex(_ entries: [(result: ScenarioResult, link: String)]) -> String {
        let failed = entries.filter { !$0.result.passed }.count
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(entries.count) scenarios — Obscura</title>
            <style>
            \(style)
            </style></head><body>
            <h1>\(entries.count) scenarios: <span class="\(failed == 0 ? "pass" : "fail")">\
            \(failed == 0 ? "all passed" : "\(failed) failed")</span></h1>
            <div class="scroll"><table>
            <tr><th>scenario</th><th>file</th><th>verdict</th><th>expectations</th><th>failed</th></tr>

            """
        for (result, link) in entries {
            html += "<tr><td><a href=\"\(escape(link))\">\(escape(result.name))</a></td>"
                + "<td><code>\(escape(result.file))</code></td>"
                + "<td class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "passed" : "FAILED")</td>"
                + "<td>\(result.expectations.count)</td><td>\(result.failures.count)</td></tr>\n"
        }
        html += "</table></div></body></html>\n"
        return html
    }

    /// What a photo is: Constant Color or its fallback, flash or not, and its size.
    static func caption(_ photo: ScenarioResult.PhotoSummary) -> String {
        var parts = ["photo \(photo.photoCount)"]
        if photo.isConstantColorFallbackPhoto {
            parts.append("Constant Color fallback (ambient light)")
        } else if photo.constantColorConfidenceLevel > 0 {
            parts.append("Constant Color, confidence \(String(format: "%.2f", photo.constantColorConfidenceLevel))")
        } else {
            parts.append(photo.isFlashEnabled ? "flash" : "no flash")
        }
        parts.append(photo.dimensions)
        return escape(parts.joined(separator: " · "))
    }

    /// A captioned picture; `caption` is HTML.
    static func figure(_ file: String, alt: String, caption: String) -> String {
        "<figure><img src=\"\(escape(file))\" alt=\"\(escape(alt))\"><figcaption>\(caption)</figcaption></figure>"
    }

    /// The colour strip of the depth view (`DepthColorizer`: viridis, near dark, far yellow) with the
    /// near and far depths at its ends.
    static func legend(_ range: [Double]) -> String {
        guard range.count == 2 else { return "" }
        let (near, far) = (range[0], range[1])
        let stops = Viridis.anchors.map { a in
            "rgb(\(Int((a.red * 255).rounded())),\(Int((a.green * 255).rounded())),\(Int((a.blue * 255).rounded())))"
        }
        return "<div class=\"legend\" style=\"background:linear-gradient(to right,\(stops.joined(separator: ",")))\"></div>"
            + "<div class=\"legend-labels\"><span>near \(String(format: "%.2f", near)) m</span>"
            + "<span>\(String(format: "%.2f", (near + far) / 2)) m</span>"
            + "<span>far \(String(format: "%.2f", far)) m</span></div><small>grey: no depth</small>"
    }

    /// Escapes text for HTML and XML.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
