#if arch(x86_64) && !OBSCURA_PORTABLE
import Imaging

extension PairStatistics {
    /// One row's part of each tile (`addRowReference`, vectorised): the row's pixels in runs of `tile` (the last one
    /// shorter), each run's sums added to its tile's from `tiles` on.
    ///
    /// A pixel's values in vector lanes: the rates of both frames as four floats each, the variance of the flash-only
    /// value of each channel as four floats, the Double sums in pairs of lanes (signal, variance), (a_r, a_g), (a_b,
    /// –), (f_r, f_g), (f_b, –), (var_r, var_b), the count of impossibly negative pixels, and the edge-free sums
    /// (a_r, a_g), (a_b, –), (f_r, f_g), (f_b, –), (var_r, var_g), (var_b, –) with their count. Every lane does the
    /// reference's operation in the reference's order (each sum still runs through the pixels of the run one by one,
    /// and is then added to its tile), so the sums are the same bit for bit; the unused lanes read the next value of
    /// the row buffers, which have one to spare.
    static func addRowVector(
        _ row: RowRates, width: Int, tile: Int, terms: NoiseTerms, to tiles: UnsafeMutablePointer<TileStatistics>
    ) {
        let f = UnsafeRawPointer(row.flash), a = UnsafeRawPointer(row.ambient), clipped = row.clipped
        let low = UnsafeRawPointer(row.lowestAmbient), high = UnsafeRawPointer(row.highestAmbient)
        let edgeRange2 = SIMD4<Float>(repeating: NoiseTerms.edgeRange * NoiseTerms.edgeRange)
        let zero = SIMD4<Float>(repeating: 0), read2 = SIMD4<Float>(repeating: terms.read2)
        let timesF = SIMD4<Float>(repeating: terms.timeF), quantF = SIMD4<Float>(repeating: terms.quantF)
        let timesA = SIMD4<Float>(repeating: terms.timeA), quantA = SIMD4<Float>(repeating: terms.quantA)
        let timeF = terms.timeF, ratio2 = SIMD4<Float>(repeating: terms.ratio * terms.ratio)
        let shotScale = SIMD4<Float>(repeating: terms.shotScale)
        var t = tiles
        var start = 0
        while start < width {
            let end = min(width, start &+ tile)
            var signalVariance = SIMD2<Double>(0, 0)
            var ambientRG = SIMD2<Double>(0, 0), ambientB = SIMD2<Double>(0, 0)
            var flashOnlyRG = SIMD2<Double>(0, 0), flashOnlyB = SIMD2<Double>(0, 0)
            var varianceRB = SIMD2<Double>(0, 0)
            var clippedCount = 0, negativeCount = 0
            var edgeFreeAmbientRG = SIMD2<Double>(0, 0), edgeFreeAmbientB = SIMD2<Double>(0, 0)
            var edgeFreeFlashOnlyRG = SIMD2<Double>(0, 0), edgeFreeFlashOnlyB = SIMD2<Double>(0, 0)
            var edgeFreeVarianceRG = SIMD2<Double>(0, 0), edgeFreeVarianceB = SIMD2<Double>(0, 0)
            var edgeFreeCount = 0
            for x in start..<end {
                if clipped[x] {
                    clippedCount &+= 1
                    continue
                }
                let rateF = f.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)
                let rateA = a.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)
                let flashOnly = rateF - rateA
                // Electrons per channel, max(e, 0) + σ_r² + q per frame, the ambient frame's scaled by r².
                // max(0, e) with 0 first: the maximum returns its second operand when either is NaN, so a NaN passes
                // as in the scalar `max(e, 0)`; a −0 it keeps turns +0 when σ_r² (≥ +0) is added.
                let noiseF = Lanes.maximum(zero, rateF * timesF) * shotScale + read2 + quantF
                let noiseA = Lanes.maximum(zero, rateA * timesA) * shotScale + read2 + quantA
                let variance = noiseF + ratio2 * noiseA
                let signal = flashOnly[1] * timeF
                signalVariance += Lanes.widenedLow(SIMD4(signal, variance[1], 0, 0))
                varianceRB += Lanes.widenedLow(SIMD4(variance[0], variance[2], 0, 0))
                // Impossibly negative: f·t_f < 0 and (f·t_f)² > 16 var in any of the three channels, f measured
                // against the lowest ambient rate within reach of x + d (`FramePair.Reach`).
                let flashOnlyE = (rateF - low.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)) * timesF
                let negative =
                    Lanes.lessThan(flashOnlyE, 0) & Lanes.greaterThan(flashOnlyE * flashOnlyE, 16 * variance)
                if negative & 7 != 0 { negativeCount &+= 1 }
                ambientRG += Lanes.widenedLow(rateA)
                ambientB += Lanes.widenedLow(Lanes.highHalves(rateA, rateA))
                flashOnlyRG += Lanes.widenedLow(flashOnly)
                flashOnlyB += Lanes.widenedLow(Lanes.highHalves(flashOnly, flashOnly))
                // Near an edge: the ambient rates within reach span more than `edgeRange` σ in any of the three
                // channels, (range · t_f)² > edgeRange² var (`NoiseTerms.isNearEdge`).
                let range =
                    (high.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)
                        - low.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)) * timesF
                if Lanes.greaterThan(range * range, edgeRange2 * variance) & 7 != 0 { continue }
                edgeFreeCount &+= 1
                edgeFreeAmbientRG += Lanes.widenedLow(rateA)
                edgeFreeAmbientB += Lanes.widenedLow(Lanes.highHalves(rateA, rateA))
                edgeFreeFlashOnlyRG += Lanes.widenedLow(flashOnly)
                edgeFreeFlashOnlyB += Lanes.widenedLow(Lanes.highHalves(flashOnly, flashOnly))
                edgeFreeVarianceRG += Lanes.widenedLow(variance)
                edgeFreeVarianceB += Lanes.widenedLow(Lanes.highHalves(variance, variance))
            }
            t.pointee.signal += signalVariance[0]
            t.pointee.greenVariance += signalVariance[1]
            t.pointee.clipped += Double(clippedCount)
            t.pointee.pixels += Double(end &- start)
            t.pointee.ambient += SIMD3(ambientRG[0], ambientRG[1], ambientB[0])
            t.pointee.flashOnly += SIMD3(flashOnlyRG[0], flashOnlyRG[1], flashOnlyB[0])
            t.pointee.redVariance += varianceRB[0]
            t.pointee.blueVariance += varianceRB[1]
            t.pointee.impossible += Double(negativeCount)
            t.pointee.edgeFree += TileStatistics.EdgeFreeSums(
                pixels: Double(edgeFreeCount),
                ambient: SIMD3(edgeFreeAmbientRG[0], edgeFreeAmbientRG[1], edgeFreeAmbientB[0]),
                flashOnly: SIMD3(edgeFreeFlashOnlyRG[0], edgeFreeFlashOnlyRG[1], edgeFreeFlashOnlyB[0]),
                variance: SIMD3(edgeFreeVarianceRG[0], edgeFreeVarianceRG[1], edgeFreeVarianceB[0]))
            t += 1
            start = end
        }
    }
}
#endif
