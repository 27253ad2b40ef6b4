import Foundation

/// An SVG timeline of a run's deliveries: one lane per kind of callback, one mark per delivery,
/// placed by step (photo callbacks carry no time of their own; photos are labelled with theirs).
public enum TimelineSVG {
    static let lanes = [
        "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto", "didFinishCapture",
    ]

    /// The timeline of `result` as a standalone SVG element.
    public static func render(_ result: ScenarioResult) -> String {
        let events = result.steps.flatMap { step in step.callbacks.map { (step.index, $0) } }
        let laneHeight = 22.0
        let left = 190.0
        let slot = 16.0
        let width = left + max(1, Double(events.count)) * slot + 20
        let height = Double(lanes.count) * laneHeight + 40
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="sans-serif" font-size="11" role="img" aria-label="delivery timeline">\n
            """
        for (i, lane) in lanes.enumerated() {
            let y = 20 + Double(i) * laneHeight
            svg += "<text x=\"4\" y=\"\(y + 4)\">\(lane)</text>"
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width - 10)\" y2=\"\(y)\" stroke=\"#ccc\"/>\n"
        }
        var previousStep = -1
        for (n, (step, event)) in events.enumerated() {
            let x = left + Double(n) * slot + slot / 2
            if step != previousStep {
                svg += "<line x1=\"\(x - slot / 2)\" y1=\"8\" x2=\"\(x - slot / 2)\" y2=\"\(height - 18)\" "
                    + "stroke=\"#888\" stroke-dasharray=\"2,2\"/>"
                svg += "<text x=\"\(x - slot / 2 + 2)\" y=\"\(height - 6)\">step \(step)</text>\n"
                previousStep = step
            }
            guard let lane = lanes.firstIndex(of: event.name) else { continue }
            let y = 20 + Double(lane) * laneHeight
            var title = "step \(step): \(event.name)"
            if let count = event.photoCount { title += " photo \(count)" }
            if let seconds = event.seconds { title += String(format: " at %.4f s", seconds) }
            svg += "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"5\" fill=\"#2a6fdb\"><title>\(HTMLReport.escape(title))</title></circle>\n"
        }
        svg += "</svg>"
        return svg
    }
}
