import Foundation
import Imaging
import Sensor

/// The flash-only colour of the surface under each tile's clipped pixels, from neighbouring tiles where
/// the flash frame did not clip: what the blend scales by a clipped pixel's unclipped channels
/// (`ClipLimits.feathered`).
///
/// A pixel whose red clips in the flash frame still measures green and blue. Its surface's red is
/// that of the same surface nearby where red did not clip, in proportion to the channels both
/// measure (one paint has one flash-only chromaticity: reflectance times the flash's spectrum). The ambient frame
/// cannot say it: under a coloured light the ambient/flash ratio of the clipped patch is unknown (its own
/// flash-only red is what is missing), and a ratio borrowed from tiles outside that light puts red far too high.
///
/// A donor tile (our choices) is at least half unclipped, its frames agree (consistency ≥ 0.9) and its
/// flash-only sum stands 5σ above zero in every channel, as for `FillRatios`. Within 10 tiles (at 640 pixels
/// wide; `radius`) of a tile
/// with clipped pixels, a donor counts with the weight
/// exp(−d²/2·2² − (Δz/z / 0.005)²/2 − (Δc / 0.02)²/2 − (ln(l_s/l_t) / 0.15)²/2) × its unclipped pixels:
/// d the distance in tiles; Δz/z the relative difference of the mean depths (an object in front of the
/// clipped surface is another surface); Δc the largest relative difference of the unclipped channels' shares of
/// their sum (the chromaticity both measure); l the mean flash-only level of those channels (the same paint a
/// few tiles away is about as bright under the flash; another paint may share two channels' chromaticity,
/// seldom also its level and depth). Each is cut off at 3σ, and so are the three together (the root of their
/// squared sum). The depth's σ, 2.5 mm at half a metre, suits the
/// renderer's depth; a noisy depth map would need it smoothed first (as `FlashIrradiance` notes). A
/// donor must also agree with what the sensor says of the clipped channel: its colour must put that
/// channel between the flash frame's white level and twice it, less the ambient (the bounds of
/// `PixelBlend.clippedFill`), or it is another surface (one that shares the clipped surface's two unclipped
/// channels but has too little of the third to have clipped).
///
/// Trust 0…1: the donors' agreement (1 at a relative spread of 0 in the estimated channels, 0 at 10 %
/// and beyond) times their support (the weights' sum without the distance term, against half a tile)
/// times 1 − d/(2 · radius), d the distance in tiles to the nearest donor (half at the search's edge). Where no
/// donor qualifies the tile has none and the fill falls back to the ambient ratio; the confidence map
/// then stays at the clipped tile's low value.
///
/// Only tiles with a clipped pixel in them or next to them are estimated (`nearClipping`), so a bright
/// surface away from any clipping keeps its measured colour.
struct SurfaceColours: Sendable {
    /// Per tile, the surface's flash-only colour, channels as shares of the tile's key channels (those
    /// that stay below `ClipLimits.featherStart`), and its trust in lane 3; all zero where none.
    let colours: [SIMD4<Float>]
    /// Per tile, the trust times the donors' weighted confidence (0 where none).
    let confidence: [Double]
    let tile: Int, mw: Int, mh: Int

    /// The search radius and the distance weight's σ at 640 pixels wide, in tiles; both grow with the picture
    /// (`ConstantColorPipeline.neighbourhoodScale`), as a highlight and the surface around it do in tiles.
    static let radius = 10
    static let spatialSigma = 2.0, depthSigma = 0.005, chromaSigma = 0.02, levelSigma = 0.15

    /// A tile that lends its colour: its flash-only rates' mean, the mean depth of its unclipped pixels (NaN where
    /// none has one), its unclipped pixels and its confidence.
    struct Donor {
        let colour: SIMD3<Double>, depth: Double, unclipped: Double, confidence: Double
    }

    /// The estimate of every tile with hot pixels from the donors around it (see the type's description), made
    /// to agree within each clipped patch (`agreeWithinPatches`), with the holes filled (`fillHoles`).
    init(
        hot: [HotTileStatistics], statistics: PairStatistics, map: ConfidenceMap, limits: ClipLimits,
        flashTime: Double
    ) {
        let grid = statistics.grid
        let mw = grid.columns, mh = grid.rows
        (tile, self.mw, self.mh) = (grid.tileSize, mw, mh)
        let scale = ConstantColorPipeline.neighbourhoodScale(width: grid.width)
        let search = Search(
            radius: Int((Double(Self.radius) * scale).rounded()), spatialSigma: Self.spatialSigma * scale,
            clip: Double(limits.flashClip))
        let donors = Self.donors(hot: hot, statistics: statistics, map: map, flashTime: flashTime)
        var colours = [SIMD4<Float>](repeating: .zero, count: mw * mh)
        var confidence = [Double](repeating: 0, count: mw * mh)
        // Each tile's estimate reads only the donors and the sums, so tile rows run in parallel.
        withPointers(&colours, &confidence) { colourOut, confidenceOut in
            BandParallel.forEachBand(height: mh) { tileRows in
                for ty in tileRows {
                    for tx in 0..<mw {
                        let t = ty * mw + tx
                        guard hot[t].hot > 0, HotTileStatistics.nearClipping(hot, tx: tx, ty: ty, grid: grid),
                            let (colour, trust) = Self.estimate(hot[t], tx: tx, ty: ty, donors: donors, grid: grid,
                                search: search)
                        else { continue }
                        colourOut.base[t] = colour
                        confidenceOut.base[t] = trust
                    }
                }
            }
        }
        Self.agreeWithinPatches(&colours, &confidence, hot: hot, grid: grid)
        Self.fillHoles(&colours, hot: hot, grid: grid, rings: search.radius)
        self.colours = colours
        self.confidence = confidence
    }

    /// The donor search's reach (tiles), the distance weight's σ (tiles) and the flash frame's white level as a rate.
    struct Search {
        let radius: Int, spatialSigma: Double, clip: Double
    }

    /// Every tile's donor, or nil, and the donors' depths packed apart (NaN where a tile lends nothing), which the
    /// search reads first (`estimate`); and per run of `run` tiles along a tile row, the least and the greatest
    /// depth of its donors (+∞ and −∞ where none has one), so that the search passes over a run whose depths all
    /// lie out of a receiver's reach without reading them.
    struct Donors {
        let tiles: [Donor?]
        let depths: [Double]
        let runsPerRow: Int
        let runLow: [Double], runHigh: [Double]
        static let run = 8

        init(_ tiles: [Donor?], columns: Int) {
            self.tiles = tiles
            depths = tiles.map { $0?.depth ?? .nan }
            let runsPerRow = (columns + Self.run - 1) / Self.run, rows = columns > 0 ? tiles.count / columns : 0
            var low = [Double](repeating: .infinity, count: runsPerRow * rows)
            var high = [Double](repeating: -.infinity, count: runsPerRow * rows)
            for t in depths.indices where depths[t].isFinite {
                let r = (t / columns) * runsPerRow + (t % columns) / Self.run
                low[r] = min(low[r], depths[t])
                high[r] = max(high[r], depths[t])
            }
            (self.runsPerRow, runLow, runHigh) = (runsPerRow, low, high)
        }

        /// Whether no donor of the run holding tile column `sx` of tile row `sy` lies within `reach` of `depth`:
        /// then none passes the search's depth test. Exact, not approximate: rounded subtraction keeps order, so a
        /// run whose nearest depth is out of reach has every depth out of it.
        @inline(__always)
        func runOutOfReach(sx: Int, sy: Int, depth: Double, reach: Double) -> Bool {
            let r = sy * runsPerRow + sx / Self.run
            return runLow[r] - depth > reach || depth - runHigh[r] > reach
        }
    }

    /// The tiles that can lend their colour (our choices): candidates (`TileStatistics.isCandidate`) whose
    /// flash-only sums stand 5σ above zero in every channel, as for `FillRatios`.
    static func donors(hot: [HotTileStatistics], statistics: PairStatistics, map: ConfidenceMap, flashTime: Double)
        -> Donors
    {
        Donors(
            statistics.tiles.enumerated().map { t, s -> Donor? in
                guard s.isCandidate(consistency: map.consistency[t]), s.flashStandsOut(flashTime: flashTime) else {
                    return nil
                }
                let depth = hot[t].depthCount > 0 ? hot[t].depth / hot[t].depthCount : .nan
                return Donor(
                    colour: s.flashOnly / s.unclipped, depth: depth, unclipped: s.unclipped, confidence: map.values[t])
            }, columns: statistics.grid.columns)
    }

    /// The colour at a pixel: the tiles' colours interpolated between tile centres, each weighted by its
    /// trust (so a tile without an estimate does not pull its neighbours' towards zero), and in lane 3 the
    /// interpolated trust; zero where none of the four has one.
    @inline(__always)
    func colour(x: Int, y: Int) -> SIMD4<Float> {
        let u = min(max((Float(x) + 0.5) / Float(tile) - 0.5, 0), Float(mw - 1))
        let v = min(max((Float(y) + 0.5) / Float(tile) - 0.5, 0), Float(mh - 1))
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, mw - 1), y1 = min(y0 + 1, mh - 1)
        let a = u - Float(x0), b = v - Float(y0)
        var sum = SIMD4<Float>(repeating: 0), weights: Float = 0
        for (i, w) in [
            (y0 * mw + x0, (1 - a) * (1 - b)), (y0 * mw + x1, a * (1 - b)),
            (y1 * mw + x0, (1 - a) * b), (y1 * mw + x1, a * b),
        ] {
            let c = colours[i]
            let weight = w * c[3]
            sum += weight * c
            weights += weight
        }
        guard weights > 0 else { return .zero }
        var out = sum / weights
        // The trust itself interpolated with the tiles that have none.
        out[3] = weights
        return out
    }

    /// The confidence map with each tile that has clipped pixels raised to half its estimate's confidence
    /// (our choice: an estimate of a channel is never as good as a measurement), where that is higher.
    func raise(_ map: ConfidenceMap, statistics: PairStatistics) -> ConfidenceMap {
        var values = map.values
        for t in 0..<values.count where statistics.tiles[t].clipped > 0 {
            values[t] = max(values[t], 0.5 * confidence[t])
        }
        return ConfidenceMap(
            values: values, snr: map.snr, consistency: map.consistency, width: map.plane.width,
            height: map.plane.height, tileSize: map.tileSize)
    }
}
