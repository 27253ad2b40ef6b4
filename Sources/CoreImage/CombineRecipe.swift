import Foundation
import Imaging

/// A per-pixel combination of several inputs (blends and compositing), streamed row by row.
final class CombineRecipe: Recipe, @unchecked Sendable {
    enum Kind {
        /// `inputs[0]` over `inputs[1]`, premultiplied source-over (Porter–Duff).
        case sourceOver
        /// `inputs[0]` where the mask `inputs[2]` is 1, `inputs[1]` where it is 0; the mask's green
        /// component (`CIBlendWithMask`) or alpha (`CIBlendWithAlphaMask`) decides.
        case blend(alphaMask: Bool)
        /// Any per-pixel function of `inputs[0]` and `inputs[1]`, both premultiplied (the blend modes).
        case function(@Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>)
        /// A per-pixel function of the pixel centre (Core Image's coordinates) and `inputs[0]` and `inputs[1]`, both
        /// premultiplied (the transitions).
        case positional(@Sendable (SIMD2<Float>, SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>)
    }

    let inputs: [Recipe]
    let kind: Kind

    init(inputs: [Recipe], kind: Kind, extent: CGRect) {
        self.inputs = inputs
        self.kind = kind
        super.init(extent: extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        for input in inputs { input.prepare(region, state) }
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let n = rows.count * region.width
        inputs[0].fill(region, rows: rows, into: out, state)
        let others = (1..<inputs.count).map { _ in UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, n)) }
        defer { for p in others { p.deallocate() } }
        for (k, input) in inputs.dropFirst().enumerated() { input.fill(region, rows: rows, into: others[k], state) }
        switch kind {
        case .sourceOver:
            let b = others[0]
            for i in 0..<n { out[i] = out[i] + b[i] * (1 - out[i].w) }
        case .blend(let alphaMask):
            let b = others[0], m = others[1]
            for i in 0..<n {
                // A mask image's values are coverage: its colour is read unpremultiplied.
                let mv = m[i]
                let t = alphaMask ? mv.w : (mv.w > 0 ? mv.y / mv.w : 0)
                out[i] = b[i] + (out[i] - b[i]) * t
            }
        case .function(let f):
            let b = others[0]
            for i in 0..<n { out[i] = f(out[i], b[i]) }
        case .positional(let f):
            let b = others[0], w = region.width
            for (k, j) in rows.enumerated() {
                let y = Float(Recipe.ciRow(region, j)) + 0.5
                for i in 0..<w { out[k * w + i] = f(SIMD2(Float(region.x + i) + 0.5, y), out[k * w + i], b[k * w + i]) }
            }
        }
        for (k, j) in rows.enumerated() where columns(region, row: Recipe.ciRow(region, j)) != 0..<region.width {
            let o = out + k * region.width
            let inside = columns(region, row: Recipe.ciRow(region, j)) ?? 0..<0
            for i in 0..<region.width where !inside.contains(i) { o[i] = .zero }
        }
    }
}

/// The area reductions (`CIAreaAverage`, `CIAreaMaximum`, `CIAreaMinimum`): one pixel at the rectangle's origin
/// (rounded down) holding the mean, or each component's maximum or minimum, of the premultiplied pixels of the
/// rectangle within the input's extent (so clear pixels count as clear), as a `PlaneReductionRecipe`.
enum AreaReduction {
    enum Kind {
        case average, maximum, minimum
    }

    static func recipe(input: Recipe, rect: CGRect, kind: Kind) -> Recipe {
        let area =
            Region(covering: rect.intersection(input.extent.isInfinite ? rect : input.extent))
            ?? Region(x: 0, y: 0, width: 0, height: 0)
        let output = Region(x: Int(rect.minX.rounded(.down)), y: Int(rect.minY.rounded(.down)), width: 1, height: 1)
        return PlaneReductionRecipe(input: input, area: area, output: output) { pixels in [reduce(pixels, kind: kind)] }
    }

    static func reduce(_ pixels: Pixels, kind: Kind) -> SIMD4<Float> {
        guard pixels.width > 0, pixels.height > 0 else { return .zero }
        switch kind {
        case .average:
            var sum = SIMD4<Double>.zero
            for j in 0..<pixels.height {
                var rowSum = SIMD4<Double>.zero
                let row = pixels.row(j)
                for i in 0..<pixels.width { rowSum += SIMD4<Double>(row[i]) }
                sum += rowSum
            }
            return SIMD4<Float>(sum / Double(pixels.width * pixels.height))
        case .maximum, .minimum:
            var best = pixels.base[0]
            for j in 0..<pixels.height {
                let row = pixels.row(j)
                for i in 0..<pixels.width {
                    best = kind == .maximum ? pointwiseMax(best, row[i]) : pointwiseMin(best, row[i])
                }
            }
            return best
        }
    }
}
