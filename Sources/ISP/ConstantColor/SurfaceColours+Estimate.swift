import Foundation
import Imaging

extension SurfaceColours {
    /// What one tile with hot pixels knows of itself for the donor search: its key channels and their flash-only sum,
    /// its hot pixels' mean depth, and the bounds each clipped channel puts on a donor's colour.
    struct Receiver {
        let hot: HotTileStatistics
        let key: [Bool]
        let keySum: Double
        let depth: Double
        /// How far in depth a donor may lie and still pass `match`'s depth test, with 0.3 % to spare: the test
        /// without its two divisions, for the many donors on other surfaces.
        let depthReach: Double
        /// The clip bounds (`admits`) of each clipped channel outside the key: the channel, and its lowest and highest
        /// share of the key channels at the clip level `clip`.
        let bounds: [(channel: Int, low: Double, high: Double)]

        init?(_ hot: HotTileStatistics, clip: Double) {
            let key = hot.keyChannels
            guard key.contains(true) else { return nil }
            let keySum = (0..<3).reduce(0.0) { $0 + (key[$1] ? hot.hotFlashOnly[$1] : 0) }
            guard keySum > 0 else { return nil }
            (self.hot, self.key, self.keySum, depth) = (hot, key, keySum, hot.meanHotDepth)
            depthReach = 3.01 * SurfaceColours.depthSigma * abs(depth)
            bounds = Self.bounds(hot, key: key, clip: clip)
        }

        /// Each clipped channel c outside the key: the flash frame's white level and twice it, less the ambient (the
        /// bounds of `PixelBlend.clippedFill`), as shares of the key channels of the pixels where c clipped. They
        /// depend only on the tile, so they are worked out once, not for every donor.
        static func bounds(_ hot: HotTileStatistics, key: [Bool], clip: Double) -> [(
            channel: Int, low: Double, high: Double
        )] {
            (0..<3).compactMap { c in
                guard !key[c] else { return nil }
                let n = hot.clippedCount[c]
                guard n > 0 else { return nil }
                let clipped = hot.flashOnly(whereClipped: c)
                let base = (0..<3).reduce(0.0) { $0 + (key[$1] ? clipped[$1] : 0) }
                guard base > 0 else { return nil }
                return (c, hot.headroom[c] / base, (hot.headroom[c] + clip * n) / base)
            }
        }

        /// Whether `colour` (shares of the key channels) puts every clipped channel within its `bounds`, with 5 %
        /// to spare.
        func admits(_ colour: SIMD3<Double>) -> Bool {
            for b in bounds where colour[b.channel] < 0.95 * b.low || colour[b.channel] > 1.05 * b.high {
                return false
            }
            return true
        }

        /// The donor's depth term (a Gaussian's exponent), its chromaticity and level differences in σ, and its
        /// colour as shares of the key channels; nil where depth, chromaticity or the clipped channels' bounds rule
        /// it out.
        func match(_ donor: Donor) -> (depthTerm: Double, dc: Double, dl: Double, colour: SIMD3<Double>)?
        {
            // Depth first: most tiles around lie on other surfaces, and it is the cheapest test.
            var depthTerm = 0.0
            if depth.isFinite {
                guard donor.depth.isFinite, abs(donor.depth - depth) <= depthReach else { return nil }
                let dz = (donor.depth / depth - 1) / SurfaceColours.depthSigma
                guard abs(dz) <= 3 else { return nil }
                depthTerm = dz * dz / 2
            }
            let f = donor.colour
            let fKey = (0..<3).reduce(0.0) { $0 + (key[$1] ? f[$1] : 0) }
            guard fKey > 0 else { return nil }
            let colour = f / fKey
            var dc = 0.0
            for c in 0..<3 where key[c] {
                dc = max(dc, abs(colour[c] / (hot.hotFlashOnly[c] / keySum) - 1) / SurfaceColours.chromaSigma)
            }
            // Beyond 3σ in chromaticity alone, the joint cut (`estimate`) rejects the donor whatever its level:
            // the level's logarithm is not worth taking.
            guard dc * dc <= 9 else { return nil }
            // The key channels' level: the same paint a few tiles away is as bright under the flash, give or take the
            // distance and obliquity; another surface mostly is not.
            let dl = log(fKey / (keySum / hot.hot)) / SurfaceColours.levelSigma
            guard admits(colour) else { return nil }
            return (depthTerm, dc, dl, colour)
        }
    }

    /// The colour of a tile with hot pixels from the donors within the search radius (see the type's description),
    /// with its trust in lane 3, and the trust times the donors' weighted confidence; nil where no donor matches.
    static func estimate(
        _ hot: HotTileStatistics, tx: Int, ty: Int, donors: Donors, grid: TileGrid, search: Search
    ) -> (SIMD4<Float>, Double)? {
        guard let receiver = Receiver(hot, clip: search.clip) else { return nil }
        let radius = search.radius, sigma = search.spatialSigma
        var sumW = 0.0, sumC = SIMD3<Double>(0, 0, 0), sumC2 = SIMD3<Double>(0, 0, 0), sumConf = 0.0
        var matched = 0.0, nearest = Double.infinity
        // The search covers thousands of tiles at 12 MP, most on other surfaces: `match`'s depth test is made
        // first on the packed depths, so that a tile another surface holds costs one load, and a run of such
        // tiles one test (`Donors.runOutOfReach`).
        let gatesOnDepth = receiver.depth.isFinite
        let first = max(0, tx - radius), last = min(grid.columns - 1, tx + radius)
        for sy in max(0, ty - radius)...min(grid.rows - 1, ty + radius) {
            var sx = first
            while sx <= last {
                if gatesOnDepth,
                    donors.runOutOfReach(sx: sx, sy: sy, depth: receiver.depth, reach: receiver.depthReach)
                {
                    sx = min((sx / Donors.run + 1) * Donors.run, last + 1)
                    continue
                }
                defer { sx += 1 }
                let t = sy * grid.columns + sx
                if gatesOnDepth, !(abs(donors.depths[t] - receiver.depth) <= receiver.depthReach) { continue }
                guard let donor = donors.tiles[t],
                    let (depthTerm, dc, dl, colour) = receiver.match(donor)
                else { continue }
                let spatial = Double((sy - ty) * (sy - ty) + (sx - tx) * (sx - tx)) / (2 * sigma * sigma)
                var exponent = spatial + depthTerm
                // The three differences together within 3σ: a neighbouring surface that is each time just inside (2σ
                // nearer, 2σ another chromaticity, 1.7σ darker) is another surface.
                guard (exponent - spatial) * 2 + dc * dc + dl * dl <= 9 else { continue }
                exponent += dc * dc / 2 + dl * dl / 2
                let w = exp(-exponent) * donor.unclipped
                // The match alone, without the distance, for the support.
                matched += exp(-(exponent - spatial)) * donor.unclipped
                nearest = min(nearest, spatial)
                sumW += w
                sumC += w * colour
                sumC2 += w * colour * colour
                sumConf += w * donor.confidence
            }
        }
        guard sumW > 0 else { return nil }
        let mean = sumC / sumW
        var spread = 0.0
        for c in 0..<3 where !receiver.key[c] && mean[c] > 0 {
            spread = max(spread, max(sumC2[c] / sumW - mean[c] * mean[c], 0).squareRoot() / mean[c])
        }
        let agreement = min(max(1 - spread / 0.1, 0), 1)
        let support = min(matched / Double(grid.tileSize * grid.tileSize / 2), 1)
        // The nearest donor's distance d (tiles): trust falls to half at the search's edge.
        let distance = (2 * nearest).squareRoot() * sigma
        let trust = agreement * support * (1 - 0.5 * min(distance / Double(radius), 1))
        return (SIMD4(Float(mean.x), Float(mean.y), Float(mean.z), Float(trust)), trust * sumConf / sumW)
    }
}
