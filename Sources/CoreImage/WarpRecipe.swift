import Foundation
import Imaging

/// The input resampled through a projective map (affine transforms, perspective transforms and
/// corrections, as Imaging's `Homography`), with bilinear interpolation, or the nearest pixel for an input made
/// with `samplingNearest()`. Outside the input the image is clear, so its edges fade over one pixel.
final class WarpRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    /// From output to input, in Core Image's coordinates.
    let outputToSource: Homography
    /// Whether each output pixel takes the input pixel its centre falls in, rather than mixing four.
    let nearest: Bool

    init(input: Recipe, outputToSource: Homography, extent: CGRect) {
        (self.input, nearest) = SamplingRecipe.unmarked(input)
        self.outputToSource = outputToSource
        super.init(extent: extent)
    }

    /// An affine transform of the input (`transformed(by:)`).
    convenience init(input: Recipe, transform t: CGAffineTransform) {
        let inverse = t.inverted()
        let h = Homography(entries: [
            Double(inverse.a), Double(inverse.c), Double(inverse.tx), Double(inverse.b), Double(inverse.d),
            Double(inverse.ty), 0, 0, 1,
        ])
        self.init(input: input, outputToSource: h, extent: input.extent.isInfinite ? .infinite : input.extent.applying(t))
    }

    /// The part of the output a region asks for, and the part of the input it reads.
    func regions(_ region: Region) -> (output: Region, source: Region)? {
        let out = region.clipped(to: extent)
        guard !out.isEmpty else { return nil }
        let corners = [SIMD2(Double(out.x), Double(out.y)), SIMD2(Double(out.maxX), Double(out.y)),
                       SIMD2(Double(out.maxX), Double(out.maxY)), SIMD2(Double(out.x), Double(out.maxY))]
        let mapped = corners.map(outputToSource.apply)
        guard mapped.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        var box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            .insetBy(dx: -2, dy: -2)
        if !input.extent.isInfinite { box = box.intersection(input.extent.insetBy(dx: -1, dy: -1)) }
        guard !box.isNull, let source = Region(covering: box), !source.isEmpty else { return nil }
        return (out, source)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        guard let (_, s) = regions(region), state.pixels(self, s) == nil else { return }
        state.store(materialise(input, s, state), self, s)
    }

    /// Samples the prepared input along each output row: bilinear, with the sampling positions of
    /// Imaging's `warpedPerspective` (output pixel centres through the map, taps outside the input clear),
    /// in premultiplied floats so that edges against clear pixels do not darken. The rows stream into
    /// the caller's band, so a warp costs one pass over its output.
    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let w = region.width
        out.update(repeating: .zero, count: rows.count * w)
        guard let (o, s) = regions(region), let source = state.pixels(self, s) else { return }
        let m = outputToSource.entries
        let sw = s.width, sh = s.height, src = source.base
        let lastX = Float(sw), lastY = Float(sh)
        let (mx, my, mw) = (Float(m[0]), Float(m[3]), Float(m[6]))
        let sx0 = Float(s.x) + 0.5, sy0 = Float(s.maxY) - 0.5
        for (k, j) in rows.enumerated() {
            let y = Recipe.ciRow(region, j)
            guard y >= o.y, y < o.maxY else { continue }
            // Row origins in Double, per-pixel steps in Float, as `warpedPerspective` steps them.
            let yc = Double(y) + 0.5, x0c = Double(o.x) + 0.5
            let u0 = Float(m[0] * x0c + m[1] * yc + m[2])
            let v0 = Float(m[3] * x0c + m[4] * yc + m[5])
            let w0 = Float(m[6] * x0c + m[7] * yc + m[8])
            let row = out + k * w + (o.x - region.x)
            for i in 0..<o.width {
                let fi = Float(i)
                let wd = w0 + mw * fi
                // Source position in the prepared plane's pixel centres (rows from the top).
                let px = (u0 + mx * fi) / wd - sx0
                let py = sy0 - (v0 + my * fi) / wd
                guard px.isFinite, py.isFinite, px > -1, py > -1, px < lastX, py < lastY else { continue }
                row[i] = nearest
                    ? nearestSample(src, sw, sh, px, py) : bilinearSample(src, sw, sh, px, py)
            }
        }
    }
}

/// The pixel of a plane (premultiplied, rows from the top) whose square holds the point (`px`, `py`), in the plane's
/// pixel centres (whole numbers), for a point above −1.5 on both axes; clear outside the plane, or, with `wrap`,
/// taken from the plane repeated in both directions. The warps' nearest sampling.
@inline(__always)
func nearestSample(
    _ src: UnsafePointer<SIMD4<Float>>, _ sw: Int, _ sh: Int, _ px: Float, _ py: Float, wrap: Bool = false
) -> SIMD4<Float> {
    var x = Int(px + 1.5) - 1, y = Int(py + 1.5) - 1
    if wrap {
        x = ((x % sw) + sw) % sw
        y = ((y % sh) + sh) % sh
    }
    return x >= 0 && y >= 0 && x < sw && y < sh ? src[y * sw + x] : .zero
}

/// The plane (premultiplied, rows from the top) interpolated bilinearly at (`px`, `py`), in the plane's pixel centres
/// (whole numbers), for a point above −1 on both axes: taps outside the plane are clear, or, with `wrap`, taken from
/// the plane repeated in both directions. Premultiplied, so that edges against clear pixels do not darken. The warps'
/// bilinear sampling.
@inline(__always)
func bilinearSample(
    _ src: UnsafePointer<SIMD4<Float>>, _ sw: Int, _ sh: Int, _ px: Float, _ py: Float, wrap: Bool = false
) -> SIMD4<Float> {
    // Above −1, truncating x + 1 and subtracting 1 is the floor, without a call to floorf.
    let x0 = Int(px + 1) - 1, y0 = Int(py + 1) - 1
    let ax = px - Float(x0), ay = py - Float(y0)
    let top: SIMD4<Float>, bottom: SIMD4<Float>
    if x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh {
        let p = src + y0 * sw + x0
        top = p[0] + (p[1] - p[0]) * ax
        bottom = p[sw] + (p[sw + 1] - p[sw]) * ax
    } else {
        @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD4<Float> {
            if wrap { return src[(((y % sh) + sh) % sh) * sw + ((x % sw) + sw) % sw] }
            return x >= 0 && y >= 0 && x < sw && y < sh ? src[y * sw + x] : .zero
        }
        top = tap(x0, y0) * (1 - ax) + tap(x0 + 1, y0) * ax
        bottom = tap(x0, y0 + 1) * (1 - ax) + tap(x0 + 1, y0 + 1) * ax
    }
    return top + (bottom - top) * ay
}

/// An image marked for how the warps that read it sample it (`samplingNearest()`, `samplingLinear()`): it renders
/// as its input does, and a `WarpRecipe` of it reads the input with the mark's sampling.
final class SamplingRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    let nearest: Bool

    /// What a warp reads and how: an input marked for nearest sampling is read through its mark; any other input is
    /// mixed bilinearly.
    static func unmarked(_ input: Recipe) -> (input: Recipe, nearest: Bool) {
        guard let sampling = input as? SamplingRecipe else { return (input, false) }
        return (sampling.input, sampling.nearest)
    }

    init(input: Recipe, nearest: Bool) {
        self.input = (input as? SamplingRecipe)?.input ?? input
        self.nearest = nearest
        super.init(extent: input.extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) { input.prepare(region, state) }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        input.fill(region, rows: rows, into: out, state)
    }
}

/// Copies the rows of a prepared region into a requested region's rows; clear where nothing was prepared.
func copyPrepared(
    _ node: Recipe, _ prepared: Region?, _ region: Region, _ rows: Range<Int>, _ out: UnsafeMutablePointer<SIMD4<Float>>,
    _ state: RenderState
) {
    let w = region.width
    out.update(repeating: .zero, count: rows.count * w)
    guard let p = prepared, let pixels = state.pixels(node, p) else { return }
    let x0 = p.x - region.x
    for (k, j) in rows.enumerated() {
        let y = Recipe.ciRow(region, j)
        guard y >= p.y, y < p.maxY else { continue }
        let src = pixels.row(p.maxY - 1 - y)
        (out + k * w + max(0, x0)).update(from: src + max(0, -x0), count: min(p.maxX, region.maxX) - max(p.x, region.x))
    }
}
