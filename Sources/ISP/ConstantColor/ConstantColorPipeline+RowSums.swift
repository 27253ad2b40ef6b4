#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The per-pixel constants of the flash-only variance in `ConstantColorPipeline.tileSums`, flash frame in lane 0 and
/// ambient frame in lane 1: exposure times, read noise², quantisation step² / 12, and r² = (t_f / t_a)².
struct TileNoiseTerms {
    let times: SIMD4<Float>
    let read2: Float
    let quantisation: SIMD4<Float>
    let ratio2: Float
}

extension ConstantColorPipeline {
    /// One row's part of a tile of `tileSums`, added to the tile's ten sums at `t`.
    ///
    /// A pixel's values in vector lanes: the rates of both frames as four floats each, the Double sums in pairs of
    /// lanes (signal, variance), (a_r, a_g), (a_b, –), (f_r, f_g), (f_b, –). Every lane does the scalar code's
    /// operation in the scalar code's order (each sum still runs through the pixels of the row one by one), so the
    /// sums are the same bit for bit; the unused lanes read the next value of the row buffers, which have one to spare.
    @inline(__always)
    static func addRowSums(
        _ xs: Range<Int>, flash: UnsafeMutablePointer<Float>, ambient: UnsafeMutablePointer<Float>,
        clipped: UnsafeMutablePointer<Bool>, terms: TileNoiseTerms, to t: UnsafeMutablePointer<Double>
    ) {
        var signalVariance = SIMD2<Double>(0, 0)
        var ambientRG = SIMD2<Double>(0, 0), ambientB = SIMD2<Double>(0, 0)
        var flashOnlyRG = SIMD2<Double>(0, 0), flashOnlyB = SIMD2<Double>(0, 0)
        var clippedCount = 0
        let f = UnsafeRawPointer(flash), a = UnsafeRawPointer(ambient)
        let zero = SIMD4<Float>(repeating: 0), read2 = SIMD4<Float>(repeating: terms.read2)
        let timeF = terms.times[0], ratio2 = terms.ratio2
        for x in xs {
            if clipped[x] {
                clippedCount &+= 1
                continue
            }
            let rateF = f.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)
            let rateA = a.loadUnaligned(fromByteOffset: 12 &* x, as: SIMD4<Float>.self)
            let flashOnly = rateF - rateA
            // (g_f, g_a, g_f, g_a) → electrons, max(e, 0) + σ_r² + q per frame.
            let low = _mm_unpacklo_ps(rateF, rateA)
            let greens = _mm_movehl_ps(low, low)
            let noise = _mm_max_ps(greens * terms.times, zero) + read2 + terms.quantisation
            let signal = flashOnly[1] * timeF
            let variance = noise[0] + ratio2 * noise[1]
            signalVariance += _mm_cvtps_pd(SIMD4(signal, variance, 0, 0))
            ambientRG += _mm_cvtps_pd(rateA)
            ambientB += _mm_cvtps_pd(_mm_movehl_ps(rateA, rateA))
            flashOnlyRG += _mm_cvtps_pd(flashOnly)
            flashOnlyB += _mm_cvtps_pd(_mm_movehl_ps(flashOnly, flashOnly))
        }
        t[0] += signalVariance[0]
        t[1] += signalVariance[1]
        t[2] += Double(clippedCount)
        t[3] += Double(xs.count)
        t[4] += ambientRG[0]
        t[5] += ambientRG[1]
        t[6] += ambientB[0]
        t[7] += flashOnlyRG[0]
        t[8] += flashOnlyRG[1]
        t[9] += flashOnlyB[0]
    }
}
#endif
