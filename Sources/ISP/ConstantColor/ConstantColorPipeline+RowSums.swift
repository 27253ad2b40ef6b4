#if arch(x86_64) && !OBSCURA_PORTABLE
import Imaging

/// The per-pixel constants of the flash-only variance in `ConstantColorPipeline.tileSums`, flash frame in lane 0 and
/// ambient frame in lane 1: exposure times, read noise², quantisation step² / 12, and r² = (t_f / t_a)².
/// `shotScale` is 1/n for a pixel that is the mean of n photosites (`NoiseParameters.photositesPerPixel`).
struct TileNoiseTerms {
    let times: SIMD4<Float>
    let shotScale: Float
    let read2: Float
    let quantisation: SIMD4<Float>
    let ratio2: Float
}

extension TileNoiseTerms {
    /// The flash frame's time and quantisation term in every lane.
    var flashLanes: (time: SIMD4<Float>, quantisation: SIMD4<Float>) {
        (SIMD4(repeating: times[0]), SIMD4(repeating: quantisation[0]))
    }
    /// The ambient frame's time and quantisation term in every lane.
    var ambientLanes: (time: SIMD4<Float>, quantisation: SIMD4<Float>) {
        (SIMD4(repeating: times[1]), SIMD4(repeating: quantisation[1]))
    }
}

extension ConstantColorPipeline {
    /// One row's part of each tile of `tileSums`: the row's pixels in runs of `tile` (the last one shorter), each
    /// run's sums added to its tile's at `tiles` (consecutive tiles `sumsPerTile` values apart).
    ///
    /// A pixel's values in vector lanes: the rates of both frames as four floats each, the variance of the flash-only
    /// value of each channel as four floats, the Double sums in pairs of lanes (signal, variance), (a_r, a_g), (a_b, –),
    /// (f_r, f_g), (f_b, –), (var_r, var_b), (impossibly negative, –). Every lane does the scalar code's
    /// operation in the scalar code's order (each sum still runs through the pixels of the run one by one, and is
    /// then added to its tile), so the sums are the same bit for bit; the unused lanes read the next value of the row
    /// buffers, which have one to spare.
    static func addRowSums(
        width: Int, tile: Int, flash: UnsafeMutablePointer<Float>, ambient: UnsafeMutablePointer<Float>,
        lowestAmbient: UnsafeMutablePointer<Float>, clipped: UnsafeMutablePointer<Bool>, terms: TileNoiseTerms,
        to tiles: UnsafeMutablePointer<Double>
    ) {
        let f = UnsafeRawPointer(flash), a = UnsafeRawPointer(ambient), low = UnsafeRawPointer(lowestAmbient)
        let zero = SIMD4<Float>(repeating: 0), read2 = SIMD4<Float>(repeating: terms.read2)
        let (timesF, quantF) = terms.flashLanes, (timesA, quantA) = terms.ambientLanes
        let timeF = terms.times[0], ratio2 = SIMD4<Float>(repeating: terms.ratio2)
        let shotScale = SIMD4<Float>(repeating: terms.shotScale)
        var t = UnsafeMutableRawPointer(tiles)
        var start = 0
        while start < width {
            let end = min(width, start &+ tile)
            var signalVariance = SIMD2<Double>(0, 0)
            var ambientRG = SIMD2<Double>(0, 0), ambientB = SIMD2<Double>(0, 0)
            var flashOnlyRG = SIMD2<Double>(0, 0), flashOnlyB = SIMD2<Double>(0, 0)
            var varianceRB = SIMD2<Double>(0, 0)
            var clippedCount = 0, negativeCount = 0
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
                // against the lowest ambient pixel within reach of x + d (`FramePair.Rows.lowestAmbient`).
                let flashOnlyE = (rateF - low.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)) * timesF
                let negative =
                    Lanes.lessThan(flashOnlyE, 0) & Lanes.greaterThan(flashOnlyE * flashOnlyE, 16 * variance)
                if negative & 7 != 0 { negativeCount &+= 1 }
                ambientRG += Lanes.widenedLow(rateA)
                ambientB += Lanes.widenedLow(Lanes.highHalves(rateA, rateA))
                flashOnlyRG += Lanes.widenedLow(flashOnly)
                flashOnlyB += Lanes.widenedLow(Lanes.highHalves(flashOnly, flashOnly))
            }
            // Pairs of the tile's values: (signal, variance), (clipped, count), (a_r, a_g), (a_b, f_r), (f_g, f_b).
            @inline(__always) func add(_ v: SIMD2<Double>, at i: Int) {
                t.storeBytes(of: t.loadUnaligned(fromByteOffset: 8 &* i, as: SIMD2<Double>.self) + v,
                    toByteOffset: 8 &* i, as: SIMD2<Double>.self)
            }
            add(signalVariance, at: 0)
            add(SIMD2(Double(clippedCount), Double(end &- start)), at: 2)
            add(ambientRG, at: 4)
            add(SIMD2(ambientB[0], flashOnlyRG[0]), at: 6)
            add(SIMD2(flashOnlyRG[1], flashOnlyB[0]), at: 8)
            add(varianceRB, at: 10)
            add(SIMD2(Double(negativeCount), 0), at: 12)
            t += 8 &* sumsPerTile
            start = end
        }
    }
}
#endif
