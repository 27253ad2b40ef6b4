import Foundation
import Imaging

/// The input resampled through any map from output positions to source positions (the distortion filters, the
/// affine tile), with the bilinear sampling of `WarpRecipe`, or the nearest pixel for an input made with
/// `samplingNearest()`. `map` takes an output pixel centre in Core Image's coordinates and gives the source point
/// to sample there, or nil where the output is clear. Untiled, the input is clear outside its extent; tiled, the
/// input's pixels repeat in both directions for ever, so the source point is taken modulo the input's whole-pixel
/// rectangle and interpolation wraps across its edges.
final class MapWarpRecipe: Recipe, @unchecked Sendable {
    typealias Map = @Sendable (SIMD2<Double>) -> SIMD2<Double>?
    let input: Recipe
    let map: Map
    let tiled: Bool
    /// Whether each output pixel takes the input pixel its source point falls in, rather than mixing four.
    let nearest: Bool

    init(input: Recipe, extent: CGRect, tiled: Bool = false, map: @escaping Map) {
        (self.input, nearest) = SamplingRecipe.unmarked(input)
        self.map = map
        self.tiled = tiled
        super.init(extent: extent)
    }

    /// The part of the input that the output pixels of a region read: the whole input when tiled, else the box
    /// around every source point the map gives there (with a margin for the taps), within the input's extent.
    private func source(_ region: Region) -> Region? {
        if tiled {
            guard let whole = Region(covering: input.extent), !whole.isEmpty else { return nil }
            return whole
        }
        let out = region.clipped(to: extent)
        guard !out.isEmpty else { return nil }
        let bounds = Bounds()
        // Minima and maxima do not depend on the order the bands finish in.
        BandParallel.forEachBand(height: out.height) { rows in
            var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
            for j in rows {
                let y = Double(out.y + j) + 0.5
                for i in 0..<out.width {
                    guard let q = map(SIMD2(Double(out.x + i) + 0.5, y)), q.x.isFinite, q.y.isFinite else { continue }
                    lo = pointwiseMin(lo, q)
                    hi = pointwiseMax(hi, q)
                }
            }
            bounds.merge(lo, hi)
        }
        let (low, high) = (bounds.low, bounds.high)
        guard low.x <= high.x, low.y <= high.y else { return nil }
        var box = CGRect(x: low.x, y: low.y, width: high.x - low.x, height: high.y - low.y).insetBy(dx: -2, dy: -2)
        if !input.extent.isInfinite { box = box.intersection(input.extent.insetBy(dx: -1, dy: -1)) }
        guard !box.isNull, let s = Region(covering: box), !s.isEmpty else { return nil }
        return s
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        guard state.source(self, region) == nil, let s = source(region) else { return }
        state.store(materialise(input, s, state), self, s)
        state.store(source: s, self, region)
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let w = region.width
        out.update(repeating: .zero, count: rows.count * w)
        let o = region.clipped(to: extent)
        guard !o.isEmpty, let s = state.source(self, region), let source = state.pixels(self, s) else { return }
        let sw = s.width, sh = s.height, src = UnsafePointer(source.base)
        // Source positions in the prepared plane's pixel centres, rows from the top.
        let sx0 = Double(s.x) + 0.5, sy0 = Double(s.maxY) - 0.5
        let (tiled, nearest) = (self.tiled, self.nearest)
        for (k, j) in rows.enumerated() {
            let y = Recipe.ciRow(region, j)
            guard y >= o.y, y < o.maxY else { continue }
            let row = out + k * w + (o.x - region.x)
            let yc = Double(y) + 0.5
            for i in 0..<o.width {
                guard let q = map(SIMD2(Double(o.x + i) + 0.5, yc)) else { continue }
                var px = q.x - sx0, py = sy0 - q.y
                guard px.isFinite, py.isFinite else { continue }
                if tiled {
                    // Into the first tile, in doubles, so that far tiles keep their sub-pixel positions.
                    px -= Double(sw) * (px / Double(sw)).rounded(.down)
                    py -= Double(sh) * (py / Double(sh)).rounded(.down)
                } else {
                    guard px > -1, py > -1, px < Double(sw), py < Double(sh) else { continue }
                }
                let fx = Float(px), fy = Float(py)
                row[i] =
                    nearest
                    ? nearestSample(src, sw, sh, fx, fy, wrap: tiled)
                    : bilinearSample(src, sw, sh, fx, fy, wrap: tiled)
            }
        }
    }
}

/// The smallest and largest source coordinates seen, merged from parallel bands.
private final class Bounds: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var low = SIMD2<Double>(repeating: .infinity)
    private(set) var high = SIMD2<Double>(repeating: -.infinity)

    func merge(_ lo: SIMD2<Double>, _ hi: SIMD2<Double>) {
        lock.withLock {
            low = pointwiseMin(low, lo)
            high = pointwiseMax(high, hi)
        }
    }
}
