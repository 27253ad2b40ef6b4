import Foundation

/// `report.html`: the scenario, its saved images, the delivery timeline, and every expectation
/// marked pass or fail. Self-contained apart from the images beside it.
public enum HTMLReport {
    /// The report page for `result`.
    public static func render(_ result: ScenarioResult) -> String {
        let verdict = result.passed ? "passed" : "FAILED"
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(result.name)) — Obscura</title>
            <style>
            body{font-family:sans-serif;margin:2em;max-width:70em}
            .pass{color:#176b2c}.fail{color:#b00020;font-weight:bold}
            table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.3em .5em;vertical-align:top}
            code{font-size:90%}img{max-width:24em;margin:.3em;border:1px solid #ccc}
            </style></head><body>
            <h1>\(escape(result.name)): <span class="\(result.passed ? "pass" : "fail")">\(verdict)</span></h1>
            <p>\(escape(result.description ?? ""))</p>
            <p>Device <code>\(escape(result.device))</code>, scene <code>\(escape(result.scene))</code>,
            seed \(result.seed), clock \(escape(result.clock)). \(result.expectations.count) expectations,
            \(result.failures.count) failed.</p>
            <h2>Deliveries</h2>
            \(TimelineSVG.render(result))
            <h2>Steps</h2>
            <table><tr><th>#</th><th>step</th><th>API calls</th><th>outcome</th><th>expectations</th></tr>

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
            let images = step.photos.compactMap { photo in
                photo.file.map { "<img src=\"\(escape($0))\" alt=\"photo \(photo.photoCount)\">" }
            }
            outcome.append(contentsOf: images)
            for saved in step.savedFiles {
                outcome.append(saved.image
                    ? "\(escape(saved.kind)):<br><img src=\"\(escape(saved.file))\" alt=\"\(escape(saved.kind))\">"
                    : "\(escape(saved.kind)): <a href=\"\(escape(saved.file))\">\(escape(saved.file))</a>")
            }
            let delivered = Dictionary(grouping: step.deliveries, by: \.kind).mapValues(\.count)
            if !delivered.isEmpty {
                outcome.append("delivered " + delivered.keys.sorted().map { "\(delivered[$0] ?? 0) \($0)" }
                    .joined(separator: ", "))
            }
            for note in step.notes { outcome.append("<em>\(escape(note))</em>") }
            let checks = step.expectations.map { r in
                "<div class=\"\(r.passed ? "pass" : "fail")\">\(r.passed ? "✓" : "✗") \(escape(r.key)): "
                    + "expected \(escape(r.expected)); got \(escape(r.actual)) <small>\(escape(r.location))</small></div>"
            }
            html += "<tr><td>\(step.index)</td><td><code>\(escape(step.key))</code><br><small>"
                + "\(escape(step.location))</small></td><td><code>"
                + step.apiCalls.map(escape).joined(separator: "<br>") + "</code></td><td>"
                + outcome.joined(separator: "<br>") + "</td><td>" + checks.joined() + "</td></tr>\n"
        }
        html += "</table></body></html>\n"
        return html
    }

    /// Escapes text for HTML and XML.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
