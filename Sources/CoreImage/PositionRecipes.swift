import Foundation
import Imaging

extension RenderContext {
    /// A `CIColor` (sRGB-encoded components) in the working space, unpremultiplied: decoded to linear where the
    /// context manages colour, as given where it does not.
    func working(_ colour: CIColor) -> SIMD4<Float> {
        let c = colour.simd4
        return managesColor ? SIMD4(SRGBCurve.decode(c.x), SRGBCurve.decode(c.y), SRGBCurve.decode(c.z), c.w) : c
    }
}

/// Premultiplies an unpremultiplied colour.
@inline(__always)
func premultiplied(_ v: SIMD4<Float>) -> SIMD4<Float> { SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w) }

/// A picture made from each pixel's position alone (the gradients), over an infinite extent. `shader` gets the
/// context and gives, for a pixel centre in Core Image's coordinates, the premultiplied working colour.
final class GeneratorRecipe: Recipe, @unchecked Sendable {
    typealias Shader = @Sendable (RenderContext) -> @Sendable (SIMD2<Float>) -> SIMD4<Float>
    let shader: Shader

    init(shader: @escaping Shader) {
        self.shader = shader
        super.init(extent: .infinite)
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let f = shader(state.context)
        let w = region.width
        for (k, j) in rows.enumerated() {
            let y = Float(Recipe.ciRow(region, j)) + 0.5
            let o = out + k * w
            for i in 0..<w { o[i] = f(SIMD2(Float(region.x + i) + 0.5, y)) }
        }
    }
}

/// A per-pixel operation that also depends on where the pixel is (the vignettes): `shader` gets the pixel centre
/// in Core Image's coordinates and the unpremultiplied input colour, and gives the unpremultiplied output.
final class PositionalRecipe: Recipe, @unchecked Sendable {
    typealias Shader = @Sendable (SIMD2<Float>, SIMD4<Float>) -> SIMD4<Float>
    let input: Recipe
    let shader: Shader

    init(input: Recipe, shader: @escaping Shader) {
        self.input = input
        self.shader = shader
        super.init(extent: input.extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) { input.prepare(region, state) }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        input.fill(region, rows: rows, into: out, state)
        let w = region.width
        for (k, j) in rows.enumerated() {
            let ciRow = Recipe.ciRow(region, j)
            guard let inside = columns(region, row: ciRow) else { continue }
            let o = out + k * w, y = Float(ciRow) + 0.5
            for i in inside {
                let v = o[i]
                let s: Float = v.w > 0 ? 1 / v.w : 0
                let colour = SIMD4(v.x * s, v.y * s, v.z * s, v.w)
                o[i] = premultiplied(shader(SIMD2(Float(region.x + i) + 0.5, y), colour))
            }
        }
    }
}

/// The input as squares of `scale` pixels, each the average of the pixels it covers (`CIPixellate`). The squares'
/// corners lie on a grid through `centre` (rounded down to whole pixels); outside the input's extent the input counts as clear.
final class PixellateRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    let centre: SIMD2<Double>
    let scale: Int

    init(input: Recipe, centre: SIMD2<Double>, scale: Int) {
        self.input = input
        self.centre = centre
        self.scale = max(1, scale)
        super.init(extent: input.extent)
    }

    /// The whole cells that cover a region, as a region of pixels.
    private func cells(_ r: Region) -> Region {
        let ox = centre.x.rounded(.down), oy = centre.y.rounded(.down)
        let cx0 = Int(((Double(r.x) - ox) / Double(scale)).rounded(.down))
        let cy0 = Int(((Double(r.y) - oy) / Double(scale)).rounded(.down))
        let cx1 = Int(((Double(r.maxX) - ox) / Double(scale)).rounded(.up))
        let cy1 = Int(((Double(r.maxY) - oy) / Double(scale)).rounded(.up))
        return Region(
            x: Int(ox) + cx0 * scale, y: Int(oy) + cy0 * scale, width: (cx1 - cx0) * scale, height: (cy1 - cy0) * scale)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let covered = cells(region)
        guard !covered.isEmpty, state.pixels(self, region) == nil else { return }
        let source = materialise(input, covered, state)
        let across = covered.width / scale, down = covered.height / scale
        // One average per cell, in a plane of cells (rows top first, as every plane).
        let averages = Pixels(width: across, height: down)
        BandParallel.forEachBand(height: down) { cellRows in
            for cj in cellRows {
                for ci in 0..<across {
                    var sum = SIMD4<Float>.zero
                    for j in (cj * scale)..<((cj + 1) * scale) {
                        let row = source.row(j)
                        for i in (ci * scale)..<((ci + 1) * scale) { sum += row[i] }
                    }
                    averages.row(cj)[ci] = sum / Float(scale * scale)
                }
            }
        }
        state.store(averages, self, region)
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let w = region.width
        let covered = cells(region)
        guard let averages = state.pixels(self, region) else {
            out.update(repeating: .zero, count: rows.count * w)
            return
        }
        for (k, j) in rows.enumerated() {
            let o = out + k * w
            let ciRow = Recipe.ciRow(region, j)
            guard let inside = columns(region, row: ciRow) else {
                o.update(repeating: .zero, count: w)
                continue
            }
            // Plane row of this pixel row within the covered cells, then its cell row.
            let cellRow = (covered.maxY - 1 - ciRow) / scale
            let cellsOfRow = averages.row(cellRow)
            for i in 0..<w {
                o[i] = inside.contains(i) ? cellsOfRow[(region.x + i - covered.x) / scale] : .zero
            }
        }
    }
}
