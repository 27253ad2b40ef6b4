import Foundation
import Imaging

/// A reduction of a rectangle of the input to a small image (`CIRowAverage`, `CIColumnAverage`, `CIAreaMinMax`,
/// `CIAreaMinMaxRed`, `CIAreaHistogram`). The input is read over `area` (the rectangle within the input's extent);
/// `reduce` turns those pixels (premultiplied, rows top first, empty where the area is) into the output plane of
/// `size` pixels, rows top first, which lies at `origin`. Computed once per render, from one thread.
final class PlaneReductionRecipe: Recipe, @unchecked Sendable {
    typealias Reduce = @Sendable (Pixels) -> [SIMD4<Float>]
    let input: Recipe
    let area: Region
    let output: Region
    let reduce: Reduce

    init(input: Recipe, area: Region, output: Region, reduce: @escaping Reduce) {
        self.input = input
        self.area = area
        self.output = output
        self.reduce = reduce
        super.init(extent: output.rect)
    }

    /// The whole-pixel part of `rect` that lies within the input's extent (all of it for an infinite input).
    static func readArea(_ rect: CGRect, within extent: CGRect) -> Region {
        let empty = Region(x: 0, y: 0, width: 0, height: 0)
        guard let covering = Region(covering: rect) else { return empty }
        return covering.clipped(to: extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        guard state.pixels(self, output) == nil, !output.isEmpty else { return }
        let source = materialise(input, area, state)
        let values = reduce(source)
        let plane = Pixels(width: output.width, height: output.height)
        for i in 0..<(output.width * output.height) { plane.base[i] = i < values.count ? values[i] : .zero }
        state.store(plane, self, output)
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let w = region.width
        out.update(repeating: .zero, count: rows.count * w)
        guard let plane = state.pixels(self, output) else { return }
        let x0 = max(output.x, region.x), x1 = min(output.maxX, region.maxX)
        guard x0 < x1 else { return }
        for (k, j) in rows.enumerated() {
            let y = Recipe.ciRow(region, j)
            guard y >= output.y, y < output.maxY else { continue }
            let source = plane.row(output.maxY - 1 - y)
            let o = out + k * w
            for x in x0..<x1 { o[x - region.x] = source[x - output.x] }
        }
    }
}

/// Each pixel's colour looked up in a gradient image by its luma (`CIColorMap`): the gradient's middle row, read
/// from its left edge (luma 0) to its right edge (luma 1), interpolated linearly between pixel centres.
final class ColourMapRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    let gradient: Recipe
    /// The one row of the gradient that is read.
    let row: Region

    init?(input: Recipe, gradient: Recipe) {
        guard let g = Region(covering: gradient.extent), !g.isEmpty else { return nil }
        self.input = input
        self.gradient = gradient
        row = Region(x: g.x, y: g.y + (g.height - 1) / 2, width: g.width, height: 1)
        super.init(extent: input.extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        input.prepare(region, state)
        if state.pixels(self, row) == nil { state.store(materialise(gradient, row, state), self, row) }
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        input.fill(region, rows: rows, into: out, state)
        guard let table = state.pixels(self, row) else { return }
        let entries = table.row(0), last = row.width - 1
        let w = region.width
        for (k, j) in rows.enumerated() {
            guard let inside = columns(region, row: Recipe.ciRow(region, j)) else { continue }
            let o = out + k * w
            for i in inside {
                let v = o[i]
                let s: Float = v.w > 0 ? 1 / v.w : 0
                let luma = FilterDefinition.luma(SIMD4(v.x * s, v.y * s, v.z * s, v.w))
                let position = min(max(luma, 0), 1) * Float(last)
                let lower = min(Int(position), last), upper = min(lower + 1, last)
                let t = position - Float(lower)
                let colour = entries[lower] + (entries[upper] - entries[lower]) * t
                o[i] = colour * v.w
            }
        }
    }
}

/// The deterministic noise of `CIRandomGenerator`: four independent values in [0, 1) for each whole-pixel position,
/// from the SplitMix64 finaliser (Steele, Lea and Flood 2014) of the position and the channel.
enum PixelNoise {
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The four values at pixel (x, y), each with 24 random bits.
    @inline(__always)
    static func values(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let key = UInt64(UInt32(truncatingIfNeeded: x)) << 32 | UInt64(UInt32(truncatingIfNeeded: y))
        func channel(_ c: UInt64) -> Float {
            Float(mix(key &+ (c &+ 1) &* 0x9E37_79B9_7F4A_7C15) >> 40) * (1 / 16_777_216)
        }
        return SIMD4(channel(0), channel(1), channel(2), channel(3))
    }
}
