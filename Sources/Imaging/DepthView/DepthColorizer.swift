import Foundation

/// Colours a depth map so that a person can read it: viridis from near (dark purple) to far
/// (yellow), linear in metres, holes in a neutral grey, and beside the map a legend bar whose
/// ticks are labelled in metres.
///
/// A 16-bit PNG of millimetres keeps the exact values but looks black in an ordinary viewer
/// (a wall at 2 m is 2000 of 65535); this is the picture to look at next to it. Depths are
/// metres along the optical axis; a value that is NaN, infinite, zero or negative is a hole.
/// Depths outside `near…far` take the colour of the nearer end.
public struct DepthColorizer: Sendable, Hashable {
    /// The depth drawn at the dark end of the map, metres.
    public let near: Double
    /// The depth drawn at the bright end of the map, metres.
    public let far: Double

    /// The colour of a hole: mid grey, which viridis never takes, so holes cannot be read as depth.
    public static let holeColor: (red: UInt8, green: UInt8, blue: UInt8) = (128, 128, 128)

    /// A colouriser for depths from `near` to `far` metres. The ends are put in order, and a range
    /// of zero width is widened to ±5 % (at least ±1 cm) so a flat wall still gets a legend.
    public init(near: Double, far: Double) {
        var (a, b) = (min(near, far), max(near, far))
        if !a.isFinite || !b.isFinite { (a, b) = (0, 1) }
        if b - a < 1e-6 {
            let pad = max(0.05 * abs(a), 0.01)
            (a, b) = (a - pad, b + pad)
        }
        self.near = a
        self.far = b
    }

    /// A colouriser spanning the nearest and farthest valid depth of `metres` (0…1 m when none is
    /// valid).
    public init(fitting metres: some Sequence<Float>) {
        var low = Float.infinity, high = -Float.infinity
        for m in metres where m.isFinite && m > 0 {
            low = min(low, m)
            high = max(high, m)
        }
        if low > high { self.init(near: 0, far: 1) } else { self.init(near: Double(low), far: Double(high)) }
    }

    /// The colour of one depth, 8-bit sRGB.
    public func color(metres: Float) -> (red: UInt8, green: UInt8, blue: UInt8) {
        guard metres.isFinite, metres > 0 else { return Self.holeColor }
        return Viridis.color8((Double(metres) - near) / (far - near))
    }

    /// The map alone, coloured: an RGB image of `width × height` (`metres` row-major, top first).
    public func colorize(_ metres: [Float], width: Int, height: Int) -> UInt8Image {
        precondition(width > 0 && height > 0 && metres.count == width * height, "a \(width)x\(height) map")
        var canvas = Canvas(width: width, height: height)
        paintMap(metres, width: width, height: height, on: &canvas)
        return canvas.image
    }

    /// The coloured map with its legend on the right: the viridis bar (far at the top), ticks at
    /// round depths labelled in metres, and a grey swatch labelled "hole". The image is as tall as
    /// the map, or taller when the map is too short for a legend; text scales with the map's height.
    public func view(_ metres: [Float], width: Int, height: Int) -> UInt8Image {
        precondition(width > 0 && height > 0 && metres.count == width * height, "a \(width)x\(height) map")
        let s = max(1, height / 180)
        let margin = 4 * s, labelHalf = 4 * s, swatch = LegendGlyphs.height * s
        let barWidth = 10 * s, tickLength = 3 * s
        let outHeight = max(height, 2 * margin + 2 * labelHalf + 28 * s + 4 * s + swatch)
        let barTop = margin + labelHalf
        let swatchTop = outHeight - margin - swatch
        let barBottom = swatchTop - 4 * s - labelHalf
        let ticks = ticks(count: max(2, min(6, (barBottom - barTop) / (14 * s))))
        let labels = ticks.map { "\(Self.format($0.value, decimals: $0.decimals)) m" }
        let barLeft = width + 2 * margin
        let labelLeft = barLeft + barWidth + tickLength + 2 * s
        let widest = (labels + ["hole"]).map(LegendGlyphs.width(of:)).max() ?? 0
        var canvas = Canvas(width: labelLeft + widest * s + margin, height: outHeight)
        paintMap(metres, width: width, height: height, on: &canvas)

        let span = Double(barBottom - barTop)
        for y in barTop...barBottom {
            let c = Viridis.color8(Double(barBottom - y) / span)
            canvas.fill(x: barLeft, y: y, width: barWidth, height: 1, c)
        }
        canvas.outline(x: barLeft - 1, y: barTop - 1, width: barWidth + 2, height: barBottom - barTop + 3)
        let thickness = max(1, s / 2)
        for (tick, label) in zip(ticks, labels) {
            let y = barBottom - Int(((tick.value - near) / (far - near) * span).rounded())
            canvas.fill(x: barLeft + barWidth, y: y - thickness / 2, width: tickLength, height: thickness, Canvas.ink)
            canvas.text(label, x: labelLeft, y: y - LegendGlyphs.height * s / 2, scale: s)
        }
        canvas.fill(x: barLeft, y: swatchTop, width: barWidth, height: swatch, Self.holeColor)
        canvas.outline(x: barLeft - 1, y: swatchTop - 1, width: barWidth + 2, height: swatch + 2)
        canvas.text("hole", x: labelLeft, y: swatchTop, scale: s)
        return canvas.image
    }

    /// A sentence for a file's metadata: what the colours mean.
    public var legendDescription: String {
        "viridis, linear in depth: \(Self.format(near, decimals: 2)) m dark purple to "
            + "\(Self.format(far, decimals: 2)) m yellow; grey = no depth"
    }

    /// Tick depths at a round step (1, 2, 2.5 or 5 × 10ⁿ m) giving about `count` ticks in
    /// `near…far`, each with the decimals its step needs.
    func ticks(count: Int) -> [(value: Double, decimals: Int)] {
        let raw = (far - near) / Double(max(count, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let step = [1, 2, 2.5, 5, 10].lazy.map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-9) } ?? 10 * magnitude
        let decimals = Self.decimals(for: step)
        let first = (near / step - 1e-9).rounded(.up)
        let last = (far / step + 1e-9).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { ($0 * step, decimals) }
    }

    /// The decimals that write `step` exactly (up to 4), or that resolve it when it is not round.
    static func decimals(for step: Double) -> Int {
        for d in 0...4 {
            let scaled = step * pow(10, Double(d))
            if abs(scaled - scaled.rounded()) < 1e-6 * max(1, scaled) && scaled.rounded() >= 1 { return d }
        }
        return 4
    }

    /// `value` with `decimals` digits after the point, rounded half away from zero.
    static func format(_ value: Double, decimals: Int) -> String {
        let scale = Int(pow(10, Double(decimals)).rounded())
        let n = Int((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && n != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(n) }
        let fraction = String(n % scale)
        return sign + String(n / scale) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    private func paintMap(_ metres: [Float], width: Int, height: Int, on canvas: inout Canvas) {
        for y in 0..<height {
            for x in 0..<width { canvas.set(x: x, y: y, color(metres: metres[y * width + x])) }
        }
    }
}

/// A white RGB drawing surface for the legend; drawing outside it is clipped.
private struct Canvas {
    typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)
    static let ink: RGB = (0, 0, 0)
    let width: Int, height: Int
    private var bytes: [UInt8]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        bytes = [UInt8](repeating: 255, count: width * height * 3)
    }

    var image: UInt8Image { UInt8Image(width: width, height: height, channels: 3, elements: bytes) }

    mutating func set(x: Int, y: Int, _ c: RGB) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let i = (y * width + x) * 3
        bytes[i] = c.red
        bytes[i + 1] = c.green
        bytes[i + 2] = c.blue
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ c: RGB) {
        for yy in y..<(y + max(h, 0)) {
            for xx in x..<(x + max(w, 0)) { set(x: xx, y: yy, c) }
        }
    }

    mutating func outline(x: Int, y: Int, width w: Int, height h: Int) {
        fill(x: x, y: y, width: w, height: 1, Self.ink)
        fill(x: x, y: y + h - 1, width: w, height: 1, Self.ink)
        fill(x: x, y: y, width: 1, height: h, Self.ink)
        fill(x: x + w - 1, y: y, width: 1, height: h, Self.ink)
    }

    mutating func text(_ text: String, x: Int, y: Int, scale s: Int) {
        for (n, character) in text.enumerated() {
            for gy in 0..<LegendGlyphs.height {
                for gx in 0..<LegendGlyphs.width where LegendGlyphs.ink(character, x: gx, y: gy) {
                    fill(x: x + (n * LegendGlyphs.advance + gx) * s, y: y + gy * s, width: s, height: s, Self.ink)
                }
            }
        }
    }
}
