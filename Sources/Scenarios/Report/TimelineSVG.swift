import Foundation

/// An SVG timeline of a run's deliveries, placed by virtual time: one lane each for photos,
/// video frames, depth maps, audio buffers, metadata and synchronizer collections. Dropped data
/// is drawn hollow. Photo callbacks without a time of their own sit at their step's end time.
public enum TimelineSVG {
    static let lanes = ["photo", "video", "depth", "audio", "metadata", "synchronizer"]
    static let colours = ["#2a6fdb", "#555555", "#d9822b", "#2b9348", "#8e44ad", "#c0392b"]

    /// The timeline of `result` as a standalone SVG element.
    public static func render(_ result: ScenarioResult) -> String {
        var marks: [(lane: Int, seconds: Double, dropped: Bool, title: String)] = []
        for step in result.steps {
            for d in step.deliveries where d.seconds.isFinite {
                guard let lane = lanes.firstIndex(of: d.kind) else { continue }
                var title = "step \(step.index): \(d.kind) \(d.output) at \(String(format: "%.4f", d.seconds)) s"
                if d.dropped { title += " (dropped)" }
                if let c = d.collection { title += " " + c.keys.sorted().map { "\($0)=\(c[$0] ?? "")" }.joined(separator: " ") }
                marks.append((lane, d.seconds, d.dropped, title))
            }
            for p in step.photos {
                let t = p.timestampSeconds.isFinite ? p.timestampSeconds : step.clockSeconds
                marks.append((0, t, false, "step \(step.index): photo \(p.photoCount) at \(String(format: "%.4f", t)) s"))
            }
        }
        let laneHeight = 22.0
        let left = 100.0
        let plot = 900.0
        let end = max(marks.map(\.seconds).max() ?? 0, 1e-3)
        let width = left + plot + 20
        let height = Double(lanes.count) * laneHeight + 40
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="11" role="img" aria-label="delivery timeline">\n
            """
        for (i, lane) in lanes.enumerated() {
            let y = 20 + Double(i) * laneHeight
            svg += "<text x=\"4\" y=\"\(y + 4)\">\(lane)</text>"
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + plot)\" y2=\"\(y)\" stroke=\"#ccc\"/>\n"
        }
        for k in 0...4 {
            let t = end * Double(k) / 4
            let x = left + plot * Double(k) / 4
            svg += "<text x=\"\(x)\" y=\"\(height - 6)\">\(String(format: "%.3f", t)) s</text>\n"
        }
        for m in marks {
            let x = left + plot * m.seconds / end
            let y = 20 + Double(m.lane) * laneHeight
            let colour = colours[m.lane]
            let fill = m.dropped ? "fill=\"none\" stroke=\"\(colour)\"" : "fill=\"\(colour)\""
            svg += "<circle cx=\"\(String(format: "%.2f", x))\" cy=\"\(y)\" r=\"3\" \(fill)>"
                + "<title>\(HTMLReport.escape(m.title))</title></circle>\n"
        }
        svg += "</svg>"
        return svg
    }
}
