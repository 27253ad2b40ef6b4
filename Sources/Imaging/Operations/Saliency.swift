import Foundation

/// Where a picture draws the eye, found in its pixels: the heat maps of Vision's two saliency requests and the
/// regions the metadata output reports as salient objects.
///
/// Both maps are computed on a working copy of `workingSide` × `workingSide` pixels, each the mean of the picture's
/// pixels its footprint covers (so the picture is stretched to a square, as the heat map is), in one channel for
/// luma or three for encoded R'G'B' (luma and two opponent colour differences, R − G and (R + G)/2 − B, so that a
/// red object on green leaves of the same luma still stands out).
///
/// - **Objectness** is the minimum barrier distance of Zhang, Sclaroff, Lin, Shen, Price and Měch (ICCV 2015): for
///   each pixel, the least, over the paths to the picture's border, of the range of values along the path (the
///   highest less the lowest), computed by their raster scans (three forward and backward pairs), summed over the
///   channels. A region that stands apart from everything around it and does not touch the border scores high as a
///   whole; one that runs off the picture's edge is reached from the border without a barrier and scores nothing,
///   as the method's prior that the border is background says.
/// - **Attention** is where people look, which objects predict better than contrast alone does (Einhäuser, Spain
///   and Perona, J. Vision 8(14):18, 2008): the objectness map smoothed by a Gaussian of `fixationSigma` working
///   pixels, for the spread of fixations over an object, and weighed by a Gaussian centred on the picture, σ a third
///   of each side, for the bias of viewers towards a picture's centre (Tatler, J. Vision 7(14):4, 2007). So of two
///   objects the one nearer the centre draws more attention, and a lone object anywhere draws the most. Faces, text
///   and what a picture means, which a trained model would also weigh, are not modelled.
///
/// A working copy whose values all lie within `minimumContrast` of one another (in every channel) holds nothing that
/// stands out, and both maps are zero there (our choice). Otherwise a map is scaled so its highest value is 1.
public enum Saliency {
    public enum Kind: Sendable { case attention, objectness }

    /// The side of the working copy (our choice): coarse enough that the raster scans cost little, fine enough that
    /// an object a twentieth of the picture across covers a few pixels.
    public static let workingSide = 64
    /// The spread of values below which a picture is flat (our choice: 0.05, about 13 of 255 codes).
    public static let minimumContrast: Float = 0.05
    /// The spread of fixations over an object, Gaussian σ in working pixels (our choice: about 3 % of the picture).
    static let fixationSigma = 2.0
    /// The centre bias, Gaussian σ as a share of each side (our choice, after Tatler's measured spread).
    static let centreSigma = 1.0 / 3
    /// How many forward and backward raster-scan pairs the barrier distance takes (Zhang et al.: three suffice).
    static let barrierPasses = 3

    /// The heat map of `kind` over the pixels `columns × rows` of `picture` (one channel of luma or three of encoded
    /// R'G'B', 0…1), by default the whole picture.
    public static func map(
        _ kind: Kind, of picture: PixelPlane<Float>, columns: Range<Int>? = nil, rows: Range<Int>? = nil
    ) -> SaliencyMap {
        let channels = features(
            of: picture, columns: columns ?? 0..<picture.width, rows: rows ?? 0..<picture.height)
        let spread = channels.map { c in (c.max() ?? 0) - (c.min() ?? 0) }.max() ?? 0
        guard spread >= minimumContrast else {
            return SaliencyMap(values: [Float](repeating: 0, count: SaliencyMap.side * SaliencyMap.side))
        }
        let n = workingSide
        var sum = [Double](repeating: 0, count: n * n)
        // A channel that is flat by itself adds nothing (its differences would be noise scaled up).
        for channel in channels where (channel.max() ?? 0) - (channel.min() ?? 0) >= minimumContrast {
            let part = barrierDistance(channel)
            for i in 0..<sum.count { sum[i] += part[i] }
        }
        if kind == .attention { sum = attention(fromObjectness: sum, side: n) }
        let map = resampled(sum, from: n, to: SaliencyMap.side)
        let high = map.max() ?? 0
        return SaliencyMap(values: map.map { high > 0 ? Float($0 / high) : 0 })
    }

    /// The working copy's feature channels, `workingSide`² values each, row by row.
    static func features(of picture: PixelPlane<Float>, columns: Range<Int>, rows: Range<Int>) -> [[Float]] {
        let n = workingSide
        let colour = picture.channels >= 3
        let count = colour ? 3 : 1
        var out = [[Float]](repeating: [Float](repeating: 0, count: n * n), count: count)
        // Each working pixel's footprint: from its first source pixel to past its last (at least one).
        func spans(_ range: Range<Int>) -> [Range<Int>] {
            let scale = Double(range.count) / Double(n)
            return (0..<n).map { i in
                let start = range.lowerBound + Int((Double(i) * scale).rounded(.down))
                let end = range.lowerBound + Int((Double(i + 1) * scale).rounded(.up))
                return start..<max(start + 1, min(range.upperBound, end))
            }
        }
        let xs = spans(columns), ys = spans(rows)
        let (stride, channels) = (picture.rowStride, picture.channels)
        picture.withUnsafeBufferPointer { source in
            for (j, ySpan) in ys.enumerated() {
                for (i, xSpan) in xs.enumerated() {
                    var r: Float = 0, g: Float = 0, b: Float = 0
                    for y in ySpan {
                        for x in xSpan {
                            let p = y * stride + x * channels
                            r += source[p]
                            if colour { (g, b) = (g + source[p + 1], b + source[p + 2]) }
                        }
                    }
                    let norm = 1 / Float(ySpan.count * xSpan.count)
                    (r, g, b) = (r * norm, g * norm, b * norm)
                    let o = j * n + i
                    if colour {
                        out[0][o] = 0.299 * r + 0.587 * g + 0.114 * b
                        out[1][o] = r - g
                        out[2][o] = (r + g) / 2 - b
                    } else {
                        out[0][o] = r
                    }
                }
            }
        }
        return out
    }

    /// The attention map of an objectness map: smoothed for the spread of fixations, weighed towards the centre.
    static func attention(fromObjectness objectness: [Double], side n: Int) -> [Double] {
        let smoothed = gaussianBlurred(objectness, side: n, sigma: fixationSigma)
        let spread = centreSigma * Double(n)
        return smoothed.indices.map { k in
            let dx = Double(k % n) + 0.5 - Double(n) / 2, dy = Double(k / n) + 0.5 - Double(n) / 2
            return smoothed[k] * exp(-(dx * dx + dy * dy) / (2 * spread * spread))
        }
    }

    /// The minimum barrier distance of each pixel of one channel to the border, by raster scans: each pixel takes,
    /// from the neighbour before it in the scan, the path through that neighbour when its range is smaller.
    static func barrierDistance(_ channel: [Float]) -> [Double] {
        let n = workingSide
        var distance = [Float](repeating: .infinity, count: n * n)
        var high = channel, low = channel
        for y in 0..<n {
            for x in 0..<n where x == 0 || y == 0 || x == n - 1 || y == n - 1 { distance[y * n + x] = 0 }
        }
        func relax(_ k: Int, from j: Int) {
            let value = channel[k]
            let top = max(high[j], value), bottom = min(low[j], value)
            if top - bottom < distance[k] { (distance[k], high[k], low[k]) = (top - bottom, top, bottom) }
        }
        for _ in 0..<barrierPasses {
            for y in 1..<(n - 1) {
                for x in 1..<(n - 1) {
                    let k = y * n + x
                    relax(k, from: k - 1)
                    relax(k, from: k - n)
                }
            }
            for y in stride(from: n - 2, through: 1, by: -1) {
                for x in stride(from: n - 2, through: 1, by: -1) {
                    let k = y * n + x
                    relax(k, from: k + 1)
                    relax(k, from: k + n)
                }
            }
        }
        return distance.map(Double.init)
    }

    /// A square grid smoothed by a Gaussian of `sigma` pixels, separably, the border value repeated beyond it.
    static func gaussianBlurred(_ grid: [Double], side n: Int, sigma: Double) -> [Double] {
        let radius = Int((3 * sigma).rounded(.up))
        let raw = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = raw.reduce(0, +)
        let weights = raw.map { $0 / total }
        func pass(_ input: [Double], horizontal: Bool) -> [Double] {
            var output = [Double](repeating: 0, count: n * n)
            for y in 0..<n {
                for x in 0..<n {
                    var sum = 0.0
                    for (t, w) in weights.enumerated() {
                        let d = t - radius
                        let (sx, sy) = horizontal ? (min(n - 1, max(0, x + d)), y) : (x, min(n - 1, max(0, y + d)))
                        sum += w * input[sy * n + sx]
                    }
                    output[y * n + x] = sum
                }
            }
            return output
        }
        return pass(pass(grid, horizontal: true), horizontal: false)
    }

    /// A square grid resampled bilinearly to `to × to`, pixel centres aligned, edges clamped.
    static func resampled(_ grid: [Double], from n: Int, to m: Int) -> [Double] {
        let scale = Double(n) / Double(m)
        func position(_ i: Int) -> (Int, Int, Double) {
            let p = min(Double(n - 1), max(0, (Double(i) + 0.5) * scale - 0.5))
            let lower = Int(p)
            return (lower, min(n - 1, lower + 1), p - Double(lower))
        }
        var out = [Double](repeating: 0, count: m * m)
        for j in 0..<m {
            let (y0, y1, fy) = position(j)
            for i in 0..<m {
                let (x0, x1, fx) = position(i)
                let top = grid[y0 * n + x0] * (1 - fx) + grid[y0 * n + x1] * fx
                let bottom = grid[y1 * n + x0] * (1 - fx) + grid[y1 * n + x1] * fx
                out[j * m + i] = top * (1 - fy) + bottom * fy
            }
        }
        return out
    }
}
