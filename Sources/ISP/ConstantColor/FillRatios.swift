import Imaging

/// The ambient light relative to the flash tile by tile, per camera channel: the fill's exposure.
///
/// A tile whose frames agree and which is at least half unclipped is a candidate (`TileStatistics.isCandidate`).
/// Its ratio is Σ ambient / Σ flash-only over the pixels away from edges (`TileStatistics.edgeFree`: beside an edge
/// the hand's residual motion may have put the other side's ambient sample) of it and its candidate neighbours
/// (3 × 3 tiles, so noise averages out), kept when that flash-only sum stands 5σ above zero in every channel (σ from
/// the summed variances in flash-frame electrons). The other tiles take the mean of their measured or already filled
/// 4-neighbours, ring by ring outwards (`TileFill`), so a clipped highlight gets the ratio of the surface around it,
/// not that of the whole picture; what no ring reaches keeps the global ratio (`AmbientRatio`). The ratio changes
/// with distance (the flash falls off with its square) and with the ambient light's shadows and coloured patches, so
/// a single global ratio would fill a shaded, clipped patch too dark.
///
/// With irradiance gains (`IrradianceGains.tiles`), each tile also carries the gain of the tiles its ratio comes
/// from, weighted by their green flash-only sums (the ratio's own weights), and filled alongside the ratio: the
/// fill F ⊘ (1 + ρ) is at the flash level where ρ was measured, so it takes that place's gain, not its own
/// pixel's (a far wall filled with the ratio of a near object must not be raised by the square of its distance,
/// nor a background tile whose ratio comes mostly from a nearer object in front of it). Without gains, and where
/// no ring reaches, 1.
struct FillRatios: Sendable {
    /// Per tile: the ratio ρ per camera channel in x, y, z, and the fill's irradiance gain in w.
    let tiles: [SIMD4<Double>]

    init(statistics: PairStatistics, consistency: [Double], flashTime: Double, global: SIMD3<Double>,
        gains: [Double]? = nil)
    {
        let grid = statistics.grid, sums = statistics.tiles
        let mw = grid.columns, mh = grid.rows
        let candidate = (0..<grid.count).map { sums[$0].isCandidate(consistency: consistency[$0]) }
        var ratio = [SIMD4<Double>](repeating: SIMD4(global, 1), count: grid.count)
        var known = [Bool](repeating: false, count: grid.count)
        for ty in 0..<mh {
            for tx in 0..<mw where candidate[ty * mw + tx] {
                var total = TileStatistics.EdgeFreeSums(), litGreen = 0.0
                for n in grid.neighbourhood(tx, ty) where candidate[n] {
                    total += sums[n].edgeFree
                    litGreen += sums[n].edgeFree.flashOnly.y * (gains?[n] ?? 1)
                }
                let a = total.ambient, f = total.flashOnly
                guard total.flashStandsOut(flashTime: flashTime), a.x > 0, a.y > 0, a.z > 0 else { continue }
                ratio[ty * mw + tx] = SIMD4(a / f, litGreen / f.y)
                known[ty * mw + tx] = true
            }
        }
        TileFill.fillInward(&ratio, known: &known, width: mw, height: mh)
        tiles = ratio
    }
}
