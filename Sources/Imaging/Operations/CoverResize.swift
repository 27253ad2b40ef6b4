/// Resizes a picture to fill another size: scaled to cover it, centred, the overflow cropped; the rule
/// footage delivered in direct mode follows.
///
/// The scale is `s = max(width / W, height / H)` for a W×H source, the same on both axes, so the aspect is
/// kept and the axis that overflows loses equal parts on both sides. Output pixel x covers the source span
/// `[x₀ + x/s, x₀ + (x+1)/s)`, with `x₀ = (W − width/s) / 2` (likewise for y):
/// - shrinking (s < 1): each output pixel is the area-weighted mean of the source pixels under its span,
///   partial pixels weighted by the share they cover (a box filter over the exact footprint);
/// - enlarging (s > 1): bilinear interpolation between the source pixel centres nearest the output pixel's
///   centre, `x₀ + (x + ½)/s − ½`, clamped to the edge pixels;
/// - s = 1: the pixels themselves, cropped.
///
/// Both filters are separable; rows are filtered first, then columns, in Double, and each result is rounded to
/// the nearest code (halves away from zero). Every output pixel is computed on its own, so the bytes do not
/// depend on the thread count. Our choice: what a video player filling a screen ("aspect fill") shows.
public enum CoverResize {
    /// One output pixel's source pixels and their weights along one axis.
    struct Taps {
        var indices: [Int]
        var weights: [Double]
    }

    /// The source span an output axis of `count` pixels covers: its start and the scale.
    static func span(source: Int, output: Int, scale: Double) -> Double {
        (Double(source) - Double(output) / scale) / 2
    }

    /// The scale that makes a `sourceWidth`×`sourceHeight` picture cover `width`×`height`.
    public static func scale(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) -> Double {
        max(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
    }

    /// The taps of each output pixel along one axis.
    static func taps(source: Int, output: Int, scale: Double) -> [Taps] {
        let start = span(source: source, output: output, scale: scale)
        return (0..<output).map { i in
            if scale < 1 {
                let low = start + Double(i) / scale
                let high = start + Double(i + 1) / scale
                var taps = Taps(indices: [], weights: [])
                var j = max(Int(low.rounded(.down)), 0)
                while Double(j) < high, j < source {
                    let cover = min(high, Double(j + 1)) - max(low, Double(j))
                    if cover > 0 {
                        taps.indices.append(j)
                        taps.weights.append(cover)
                    }
                    j += 1
                }
                let total = taps.weights.reduce(0, +)
                taps.weights = taps.weights.map { $0 / total }
                return taps
            }
            let centre = min(max(start + (Double(i) + 0.5) / scale - 0.5, 0), Double(source - 1))
            let left = min(Int(centre.rounded(.down)), source - 1)
            let f = centre - Double(left)
            if f == 0 || left + 1 >= source { return Taps(indices: [left], weights: [1]) }
            return Taps(indices: [left, left + 1], weights: [1 - f, f])
        }
    }

    /// The picture resized to `width`×`height` by the rule above; same channels.
    public static func resized(_ source: PixelPlane<UInt8>, width: Int, height: Int) -> PixelPlane<UInt8> {
        precondition(width > 0 && height > 0 && !source.isEmpty, "resizing needs positive sizes")
        if source.width == width, source.height == height { return source }
        let s = scale(sourceWidth: source.width, sourceHeight: source.height, width: width, height: height)
        let across = taps(source: source.width, output: width, scale: s)
        let down = taps(source: source.height, output: height, scale: s)
        let channels = source.channels
        // Only the source rows some output row reads are filtered across.
        let rows = Set(down.flatMap(\.indices)).sorted()
        var filtered: [Int: [Double]] = [:]
        for y in rows {
            var line = [Double](repeating: 0, count: width * channels)
            for x in 0..<width {
                let t = across[x]
                for c in 0..<channels {
                    var sum = 0.0
                    for k in t.indices.indices { sum += t.weights[k] * Double(source[t.indices[k], y, c]) }
                    line[x * channels + c] = sum
                }
            }
            filtered[y] = line
        }
        var out = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            let t = down[y]
            let lines = t.indices.map { filtered[$0] ?? [] }
            for i in 0..<(width * channels) {
                var sum = 0.0
                for k in lines.indices { sum += t.weights[k] * lines[k][i] }
                out[y * width * channels + i] = UInt8(min(max(sum, 0), 255).rounded())
            }
        }
        return PixelPlane(width: width, height: height, channels: channels, elements: out)
    }

    /// The sample of a one-channel plane nearest each output pixel's centre under the same cover mapping:
    /// for depth, where a mean of a near and a far value would be a distance nothing in the scene has.
    public static func nearest<C: PixelComponent>(_ source: PixelPlane<C>, width: Int, height: Int) -> PixelPlane<C> {
        precondition(width > 0 && height > 0 && !source.isEmpty, "resizing needs positive sizes")
        let s = scale(sourceWidth: source.width, sourceHeight: source.height, width: width, height: height)
        let x0 = span(source: source.width, output: width, scale: s)
        let y0 = span(source: source.height, output: height, scale: s)
        func index(_ start: Double, _ i: Int, _ count: Int) -> Int {
            min(max(Int((start + (Double(i) + 0.5) / s).rounded(.down)), 0), count - 1)
        }
        let xs = (0..<width).map { index(x0, $0, source.width) }
        return PixelPlane(width: width, height: height, channels: source.channels) { x, y, c in
            source[xs[x], index(y0, y, source.height), c]
        }
    }
}
