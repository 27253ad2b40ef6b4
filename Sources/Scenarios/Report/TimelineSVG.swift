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
        // Photos closer than a dot's width (the photos of one capture share a time) are stacked
        // downwards, and their lane grows to hold the tallest stack, so none hides another. Stream
        // lanes are regular and dense; there the marks are a rhythm, not items to count.
        let spacing = 7.0
        var stackOf: [Int] = Array(repeating: 0, count: marks.count)
        var occupied: [String: Int] = [:]
        for (i, m) in marks.enumerated() where m.lane == 0 {
            let key = "\(m.lane):\(Int((plot * m.seconds / end / spacing).rounded()))"
            stackOf[i] = occupied[key, default: 0]
            occupied[key] = stackOf[i] + 1
        }
        var extra = Array(repeating: 0.0, count: lanes.count)
        for (i, m) in marks.enumerated() { extra[m.lane] = max(extra[m.lane], Double(stackOf[i]) * spacing) }
        var laneY: [Double] = []
        var y = 20.0
        for lane in lanes.indices {
            laneY.append(y)
            y += laneHeight + extra[lane]
        }
        // Room on the right for the last time label, which is centred on the plot's end.
        let width = left + plot + 40
        let height = y + 20
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" \
            font-family="sans-serif" font-size="11" role="img" aria-label="delivery timeline">\n
            """
        for (i, lane) in lanes.enumerated() {
            let y = laneY[i]
            svg += "<text x=\"4\" y=\"\(y + 4)\">\(lane)</text>"
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + plot)\" y2=\"\(y)\" stroke=\"#ccc\"/>\n"
        }
        for k in 0...4 {
            let t = end * Double(k) / 4
            let x = left + plot * Double(k) / 4
            // The first label starts at its tick, the last ends at it, the others are centred: none
            // runs past the picture's edge.
            let anchor = k == 0 ? "start" : (k == 4 ? "end" : "middle")
            svg += "<text x=\"\(x)\" y=\"\(height - 6)\" text-anchor=\"\(anchor)\">"
                + "\(String(format: "%.3f", t)) s</text>\n"
        }
        for (i, m) in marks.enumerated() {
            let x = left + plot * m.seconds / end
            let y = laneY[m.lane] + Double(stackOf[i]) * spacing
            let colour = colours[m.lane]
            let fill = m.dropped ? "fill=\"none\" stroke=\"\(colour)\"" : "fill=\"\(colour)\""
            svg += "<circle cx=\"\(String(format: "%.2f", x))\" cy=\"\(y)\" r=\"3\" \(fill)>"
                + "<title>\(HTMLReport.escape(m.title))</title></circle>\n"
        }
        svg += "</svg>"
        return svg
    }
}
