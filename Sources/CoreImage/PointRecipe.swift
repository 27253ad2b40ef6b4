import Foundation

/// One per-pixel operation on unpremultiplied RGBA in the working space.
enum PointStep {
    /// `out = m · in + bias`, held as `m`'s columns (so the product is four multiply-adds).
    case matrix(c0: SIMD4<Float>, c1: SIMD4<Float>, c2: SIMD4<Float>, c3: SIMD4<Float>, bias: SIMD4<Float>)
    /// Any other per-pixel function.
    case map(@Sendable (SIMD4<Float>) -> SIMD4<Float>)
    /// A step that depends on how the context treats colour: a filter whose parameters include colours,
    /// which are sRGB-encoded and so are decoded to the working space only where the context manages colour.
    case contextual(@Sendable (RenderContext) -> PointStep)

    /// The matrix whose rows give the output's red, green, blue and alpha (Core Image's colour matrix:
    /// `out.r = dot(in, r) + bias.r`, and so on).
    static func matrix(rows r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>, _ a: SIMD4<Float>, bias: SIMD4<Float>)
        -> PointStep
    {
        .matrix(
            c0: SIMD4(r.x, g.x, b.x, a.x), c1: SIMD4(r.y, g.y, b.y, a.y), c2: SIMD4(r.z, g.z, b.z, a.z),
            c3: SIMD4(r.w, g.w, b.w, a.w), bias: bias)
    }

    /// `self` followed by `next` as one matrix, when both are matrices.
    func fused(with next: PointStep) -> PointStep? {
        guard case .matrix(let a0, let a1, let a2, let a3, let ab) = self,
            case .matrix(let b0, let b1, let b2, let b3, let bb) = next
        else { return nil }
        func apply(_ v: SIMD4<Float>) -> SIMD4<Float> { b0 * v.x + b1 * v.y + b2 * v.z + b3 * v.w }
        return .matrix(c0: apply(a0), c1: apply(a1), c2: apply(a2), c3: apply(a3), bias: apply(ab) + bb)
    }
}

/// A chain of per-pixel operations over one input. Applying a per-pixel filter to a `PointRecipe`
/// extends its chain instead of adding a node, and consecutive matrices are multiplied into one, so
/// a chain of colour filters costs one pass over the pixels however long it is.
final class PointRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    let steps: [PointStep]

    private init(input: Recipe, steps: [PointStep]) {
        self.input = input
        self.steps = steps
        super.init(extent: input.extent)
    }

    /// `step` applied to every pixel of `input`'s extent.
    static func applying(_ step: PointStep, to input: Recipe) -> Recipe {
        guard let chain = input as? PointRecipe else { return PointRecipe(input: input, steps: [step]) }
        var steps = chain.steps
        if let last = steps.last, let fused = last.fused(with: step) {
            steps[steps.count - 1] = fused
        } else {
            steps.append(step)
        }
        return PointRecipe(input: chain.input, steps: steps)
    }

    override func prepare(_ region: Region, _ state: RenderState) { input.prepare(region, state) }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        input.fill(region, rows: rows, into: out, state)
        let w = region.width
        let resolved = steps.map { step in
            if case .contextual(let make) = step { make(state.context) } else { step }
        }
        for (k, j) in rows.enumerated() {
            let o = out + k * w
            guard let inside = columns(region, row: Recipe.ciRow(region, j)) else { continue }
            let p = o + inside.lowerBound
            let n = inside.count
            // Unpremultiply, run the steps over the row, premultiply.
            for i in 0..<n {
                let v = p[i]
                if v.w != 1 && v.w != 0 {
                    let s = 1 / v.w
                    p[i] = SIMD4(v.x * s, v.y * s, v.z * s, v.w)
                }
            }
            for step in resolved { Self.run(step, over: p, count: n) }
            for i in 0..<n {
                let v = p[i]
                if v.w != 1 { p[i] = SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w) }
            }
        }
    }

    /// One step over `n` unpremultiplied pixels.
    static func run(_ step: PointStep, over p: UnsafeMutablePointer<SIMD4<Float>>, count n: Int) {
        switch step {
        case .matrix(let c0, let c1, let c2, let c3, let bias):
            for i in 0..<n {
                let v = p[i]
                p[i] = c0 * v.x + c1 * v.y + c2 * v.z + c3 * v.w + bias
            }
        case .map(let f):
            for i in 0..<n { p[i] = f(p[i]) }
        case .contextual:
            preconditionFailure("contextual steps are resolved before a row is run")
        }
    }
}
