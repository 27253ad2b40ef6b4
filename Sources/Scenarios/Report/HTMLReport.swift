import Foundation
import ISP
import Imaging

/// `report.html`: the scenario, its saved images, the delivery timeline, and every expectation
/// marked pass or fail. Self-contained apart from the images beside it.
///
/// The step table has a fixed layout and long words break, so a long API call or reason wraps
/// within its column instead of pushing the expectations off the page. On a phone-width screen
/// (under 40em, a 390-px phone) each row becomes a card, its cells stacked and labelled, so the
/// verdicts and photos stay on screen without scrolling sideways. Every picture is a captioned
/// figure; a 16-bit depth map, which a browser shows nearly black, is linked rather than shown, its
/// colour view shown with a legend in metres; a confidence map has a legend from 0 to 1 marking
/// the 0.8 threshold.
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
        .threshold{position:relative;height:1em;font-size:80%}
        .threshold span{position:absolute;transform:translateX(-50%);border-left:2px solid #b00020;padding-left:.2em}
        @media (max-width:40em){
        body{margin:.6em}
        table.steps,table.steps tbody,table.steps tr,table.steps td,table.index,table.index tbody,table.index tr,\
        table.index td{display:block;width:auto;min-width:0}
        table.steps colgroup,table.steps tr.head,table.index tr.head{display:none}
        table.steps tr,table.index tr{border:1px solid #bbb;margin:0 0 .8em;padding:.2em}
        table.steps td,table.index td{border:none;border-top:1px solid #eee}
        td[data-label]::before{content:attr(data-label) ": ";font-weight:bold;color:#555}
        td[data-label]:empty{display:none}
        figure{display:block;margin:.3em 0}
        figure img{width:100%}
        }
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
            <tr class="head"><th>#</th><th>step</th><th>API calls</th><th>outcome</th><th>expectations</th></tr>

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
                    let key = saved.kind == "confidence map" ? confidenceLegend() : ""
                    figures.append(figure(saved.file, alt: saved.kind, caption: escape(saved.kind)
                        + (saved.depthRangeMetres.map(legend) ?? "") + key))
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
            html += "<tr><td data-label=\"step\">\(step.index)</td><td><code>\(escape(step.key))</code><br><small>"
                + "\(escape(step.location))</small></td><td data-label=\"API calls\"><code>"
                + step.apiCalls.map(escape).joined(separator: "<br>") + "</code></td><td data-label=\"outcome\">"
                + outcome.joined(separator: "<br>") + "</td><td data-label=\"expectations\">" + checks.joined()
                + "</td></tr>\n"
        }
        html += "</table></div></body></html>\n"
        return html
    }

    /// An index page for several runs: each scenario's verdict and counts, linking to its report.
    public static func renderIndex(
        _ entries: [(result: ScenarioResult, link: String)], problems: [JUnitReport.Problem] = []
    ) -> String {
        let failed = entries.filter { !$0.result.passed }.count
        var verdicts: [String] = []
        if failed > 0 { verdicts.append("\(failed) failed") }
        if !problems.isEmpty { verdicts.append("\(problems.count) could not be run") }
        let allPassed = verdicts.isEmpty
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(entries.count) scenarios — Obscura</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            \(style)
            </style></head><body>
            <h1>\(entries.count) scenarios: <span class="\(allPassed ? "pass" : "fail")">\
            \(allPassed ? "all passed" : verdicts.joined(separator: ", "))</span></h1>
            <div class="scroll"><table class="index">
            <tr class="head"><th>scenario</th><th>file</th><th>verdict</th><th>expectations</th><th>failed</th></tr>

            """
        for (result, link) in entries {
            html += "<tr><td><a href=\"\(escape(link))\">\(escape(result.name))</a></td>"
                + "<td data-label=\"file\"><code>\(escape(result.file))</code></td>"
                + "<td data-label=\"verdict\" class=\"\(result.passed ? "pass" : "fail")\">"
                + "\(result.passed ? "passed" : "FAILED")</td>"
                + "<td data-label=\"expectations\">\(result.expectations.count)</td>"
                + "<td data-label=\"failed\">\(result.failures.count)</td></tr>\n"
        }
        // A file that could not be run has no report of its own: its row says why.
        for problem in problems {
            html += "<tr><td>\(escape(problem.name))</td>"
                + "<td data-label=\"file\"><code>\(escape(problem.file))</code></td>"
                + "<td data-label=\"verdict\" class=\"fail\">could not be run</td>"
                + "<td data-label=\"expectations\" colspan=\"2\"><code>\(escape(problem.message))</code></td></tr>\n"
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

    /// The grey strip of a confidence map (black 0, white 1) with the threshold above which Apple
    /// advises trusting a Constant Color photo's colour (`ConstantColorValidation.highConfidence`).
    static func confidenceLegend() -> String {
        let threshold = ConstantColorValidation.highConfidence
        let percent = String(format: "%.0f", threshold * 100)
        return "<div class=\"legend\" style=\"background:linear-gradient(to right,#000,#fff)\"></div>"
            + "<div class=\"threshold\"><span style=\"left:\(percent)%\">\(String(format: "%.1f", threshold))"
            + "</span></div><div class=\"legend-labels\"><span>confidence 0</span><span>1</span></div>"
            + "<small>trusted from \(String(format: "%.1f", threshold)) up (Apple advises 0.8–0.9)</small>"
    }

    /// Escapes text for HTML and XML.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
