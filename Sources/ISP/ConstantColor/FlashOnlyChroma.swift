import Foundation
import Imaging

/// The flash-only colour of the surface around each pixel, from its confidence tiles, and the estimate of a
/// pixel's flash-only value that it gives where one channel is too noisy to be used alone.
///
/// Under a strong narrow-band light (a saturated LED) a pixel's flash-only value in that light's channel, f − a, is the
/// difference of two large numbers: the light's shot noise buries it, while the other channels still measure the flash.
/// The tile's confidence, set by its weakest channel, then hands the pixel to the fill F ⊘ (1 + ρ), whose ambient/flash
/// ratio ρ is measured over 3 × 3 tiles: where that light changes within them (an object's shadow of it, a side turned
/// towards it), ρ is wrong for the pixel, and so is the buried channel: the shadow shows as a silhouette of the
/// complementary hue. The surface's flash-only *colour* does not depend on the room light at all: it is the reflectance
/// times the flash's spectrum. Summed over a tile's 64 pixels, even the buried channel stands out of the noise, and the
/// pixel's own level comes from every channel, each weighted by its noise.
///
/// Per tile (our choices): over its unclipped pixels away from edges (`TileStatistics.edgeFree`: beside an edge the
/// hand's residual motion may have put the other side's ambient sample, whose error can outweigh the flash-only
/// signal of the whole tile), where the frames agree (consistency ≥ 0.9), at least
/// half the tile is unclipped and the flash-only sum over the three channels stands 5σ above zero (as for
/// `FillRatios`), the colour κ = Σ f ⊘ (Σ f_r + Σ f_g + Σ f_b), with the variance of each
/// share from the summed noise (to first order). At a pixel, each of the four tiles around it (as the map
/// interpolates) gives a level L, the noise-weighted least-squares fit of f = L·κ over the channels, and a
/// misfit χ² over the channels with the noise, a tenth of the colour (`texture`, how far a surface's colour
/// may differ from its tiles') and κ's own uncertainty; the tiles count by their bilinear weights times
/// exp(−(χ² − χ²_min)/2), so a tile of another surface (another hue across an edge) drops out. With
/// their colour κ̄, L again, and g = L·κ̄, each channel is the noise-weighted mean of its measured value and
/// g_c, g_c's variance being (texture · g_c)² plus L² times κ̄_c's: a channel measured well keeps its value,
/// a buried one takes the surface's colour at the pixel's level.
struct FlashOnlyChroma: Sendable {
    /// Per tile, κ (lane 3: 0).
    let colours: [SIMD4<Float>]
    /// Per tile, the variance of each share of κ (lane 3: 0).
    let variances: [SIMD4<Float>]
    /// Per tile, whether κ is known.
    let known: [Bool]
    /// Per cell between four tile centres (indexed by its top-left tile), whether all four tiles know κ and
    /// agree on it within `uniformShare` in every channel: then a pixel there takes their bilinear mean, as
    /// the misfit weights would give it within the noise, at a quarter of the work.
    let uniform: [Bool]
    let tile: Int, mw: Int, mh: Int
    /// Per pixel column, the left tile column of its interpolation, the right one and the weight of the
    /// right one (the map's interpolation between tile centres), computed once.
    let columns: [(x0: Int, x1: Int, a: Float)]
    /// How far a pixel's flash-only colour may differ from its tiles', relative (our choice).
    static let texture: Float = 0.1
    /// Tiles whose shares differ by no more than this are one colour (our choice: under half of `texture` at
    /// a typical share of a third).
    static let uniformShare: Float = 0.015
    /// Lanes 0…2.
    static let rgb = SIMD4<Float>(1, 1, 1, 0)

    /// The colours of every tile from the first pass's statistics (`PairStatistics`: rates, and variances in
    /// flash-frame electrons², `flashTime` seconds).
    init(statistics: PairStatistics, consistency: [Double], flashTime: Double) {
        let grid = statistics.grid, tile = grid.tileSize
        let mw = grid.columns, mh = grid.rows
        self.tile = tile
        self.mw = mw
        self.mh = mh
        columns = (0..<grid.width).map { x in
            let u = min(max((Float(x) + 0.5) / Float(tile) - 0.5, 0), Float(mw - 1))
            let x0 = Int(u)
            return (x0, min(x0 + 1, mw - 1), u - Float(x0))
        }
        var colours = [SIMD4<Float>](repeating: .zero, count: mw * mh)
        var variances = [SIMD4<Float>](repeating: .zero, count: mw * mh)
        var known = [Bool](repeating: false, count: mw * mh)
        for (t, s) in statistics.tiles.enumerated() where s.isCandidate(consistency: consistency[t]) {
            let k = s.edgeFree.flashOnly
            // The variances in rates², as the sums of f are.
            let v = s.edgeFree.variance / (flashTime * flashTime)
            let total = k.sum(), totalVariance = v.sum()
            guard total > 0, total * total > 25 * totalVariance else { continue }
            let share = k / total
            // κ_c = K_c / S: ∂κ_c/∂K_c = (1 − κ_c)/S, ∂κ_c/∂K_j = −κ_c/S.
            let variance = (v * (1 - share) * (1 - share) + share * share * (totalVariance - v)) / (total * total)
            colours[t] = SIMD4(Float(share.x), Float(share.y), Float(share.z), 0)
            variances[t] = SIMD4(Float(variance.x), Float(variance.y), Float(variance.z), 0)
            known[t] = true
        }
        var uniform = [Bool](repeating: false, count: mw * mh)
        for y0 in 0..<mh {
            for x0 in 0..<mw {
                let x1 = min(x0 + 1, mw - 1), y1 = min(y0 + 1, mh - 1)
                let quad = [y0 * mw + x0, y0 * mw + x1, y1 * mw + x0, y1 * mw + x1]
                guard quad.allSatisfy({ known[$0] }) else { continue }
                var low = colours[quad[0]], high = low
                for t in quad.dropFirst() {
                    low = pointwiseMin(low, colours[t])
                    high = pointwiseMax(high, colours[t])
                }
                uniform[y0 * mw + x0] = (high - low).max() <= Self.uniformShare
            }
        }
        self.colours = colours
        self.variances = variances
        self.known = known
        self.uniform = uniform
    }

    /// The least-squares level L of f = L·κ over the three channels, each weighted by 1 ⊘ `variance` (positive
    /// in every lane), and 1 ⊘ var(L); κ's lane 3 is 0.
    @inline(__always)
    static func level(_ f: SIMD4<Float>, colour k: SIMD4<Float>, variance v: SIMD4<Float>) -> (Float, Float) {
        let kv = k / v
        return ((f * kv).sum() / (k * kv).sum(), (k * kv).sum())
    }

    /// A pixel row's interpolation terms: the upper tile row, the lower one and the weight of the lower one.
    @inline(__always)
    func row(_ y: Int) -> (y0: Int, y1: Int, b: Float) {
        let w = min(max((Float(y) + 0.5) / Float(tile) - 0.5, 0), Float(mh - 1))
        let y0 = Int(w)
        return (y0, min(y0 + 1, mh - 1), w - Float(y0))
    }

    /// The estimate of a pixel's flash-only value `f` (rates; lane 3 comes back 0) with per-channel variance
    /// `variance` (positive in every lane) in column `x` of a row whose terms are `row` (`row(_:)`, computed once
    /// per row), and the signal-to-noise ratio of its level; nil where no tile around knows its colour or the
    /// level is not positive.
    @inline(__always)
    func estimate(_ f: SIMD4<Float>, variance v: SIMD4<Float>, x: Int, row: (y0: Int, y1: Int, b: Float))
        -> (SIMD4<Float>, Float)?
    {
        let (x0, x1, a) = columns[x]
        let (y0, y1, b) = row
        // The four tiles around, and their bilinear weights.
        let tiles = SIMD4<Int32>(Int32(y0 * mw + x0), Int32(y0 * mw + x1), Int32(y1 * mw + x0), Int32(y1 * mw + x1))
        var weights = SIMD4<Float>((1 - a) * (1 - b), a * (1 - b), (1 - a) * b, a * b)
        if !uniform[y0 * mw + x0] {
            var misfits = SIMD4<Float>(repeating: .infinity)
            for n in 0..<4 {
                let t = Int(tiles[n])
                guard known[t] else { continue }
                let k = colours[t]
                let level = Self.level(f, colour: k, variance: v).0
                let g = level * k
                let spread = v + Self.texture * Self.texture * g * g + level * level * variances[t]
                let d = (f - g) * Self.rgb
                misfits[n] = (d * d / spread).sum()
            }
            let best = misfits.min()
            guard best.isFinite else { return nil }
            for n in 0..<4 {
                weights[n] = misfits[n].isFinite ? weights[n] * exp(-(misfits[n] - best) / 2) : 0
            }
        }
        var colour = SIMD4<Float>(repeating: 0), colourVariance = SIMD4<Float>(repeating: 0)
        for n in 0..<4 where weights[n] > 0 {
            let t = Int(tiles[n])
            colour += weights[n] * colours[t]
            colourVariance += weights[n] * variances[t]
        }
        let total = weights.sum()
        guard total > 0 else { return nil }
        colour /= total
        colourVariance /= total
        let (level, precision) = Self.level(f, colour: colour, variance: v)
        guard level > 0 else { return nil }
        let g = level * colour
        let prior = Self.texture * Self.texture * g * g + level * level * colourVariance
        return ((f * prior + g * v) / (prior + v), level * precision.squareRoot())
    }
}
