import Foundation
import Imaging
import Sensor

/// What `PixelBlend.clippedFill` needs to know of the frames' levels, in electron rates.
struct ClipLimits {
    /// A flash-frame channel below this rate did not clip (95 % of the white level).
    let flashWhite: Float
    /// The flash frame's white level as a rate.
    let flashClip: Float
    /// An ambient channel below this rate (50 e⁻ in the frame, shot noise 14 %) is too dark to set a ratio.
    let ambientFloor: Float
    /// From this flash-frame rate on (85 % of the white level, our choice) a channel's flash-only value is
    /// feathered into the estimate from its surface's colour, all of it at `flashWhite`.
    let featherStart: Float

    /// Exposure times of the flash and the ambient frame, s, in every lane.
    let timeF: SIMD4<Float>, timeA: SIMD4<Float>
    /// Read noise² plus quantisation step² / 12 of each frame, and (t_f / t_a)², in every lane.
    let floorF: SIMD4<Float>, floorA: SIMD4<Float>, ratio2: SIMD4<Float>
    /// 1/n, for a pixel that is the mean of n photosites (shot variance S / n), in every lane.
    let shotScale: SIMD4<Float>

    init(flash: SensorReadout, ambient: SensorReadout, noise: NoiseParameters) {
        let span = noise.whiteLevel - noise.blackLevel
        flashClip = Float(span / (noise.gain(iso: flash.exposure.iso) * flash.exposure.time))
        flashWhite = 0.95 * flashClip
        featherStart = 0.85 * flashClip
        ambientFloor = Float(50 / ambient.exposure.time)
        timeF = SIMD4(repeating: Float(flash.exposure.time))
        timeA = SIMD4(repeating: Float(ambient.exposure.time))
        let read2 = noise.readNoiseElectrons * noise.readNoiseElectrons
        floorF = SIMD4(repeating: Float(read2 + 1 / (12 * pow(noise.gain(iso: flash.exposure.iso), 2))))
        floorA = SIMD4(repeating: Float(read2 + 1 / (12 * pow(noise.gain(iso: ambient.exposure.iso), 2))))
        ratio2 = SIMD4(repeating: Float(pow(flash.exposure.time / ambient.exposure.time, 2)))
        shotScale = SIMD4(repeating: Float(1 / noise.photositesPerPixel))
    }

    /// The flash-only value of a pixel whose flash channels reach `featherStart`, from its surface's flash-only
    /// colour `colour` (`SurfaceColours`; trust in lane 3): each channel below `featherStart` as measured, and
    /// each channel c at or above it blended from the measured f_c − a_c into colour_c × (the measured channels'
    /// sum ⊘ their colours' sum), linearly from `featherStart` to `flashWhite`, where the estimate is all there
    /// is; there it is held between the white level and twice it, less the ambient (`PixelBlend.clippedFill`'s bounds).
    /// Nil without a colour or without a channel below `featherStart`; with the value, the largest channel's
    /// blend weight (0 at `featherStart`, 1 from `flashWhite` on).
    @inline(__always)
    func feathered(flash f: SIMD4<Float>, ambient a: SIMD4<Float>, colour k: SIMD4<Float>)
        -> (SIMD4<Float>, Float)?
    {
        guard k[3] > 0 else { return nil }
        var level: Float = 0, share: Float = 0
        for c in 0..<3 where f[c] < featherStart {
            level += f[c] - a[c]
            share += k[c]
        }
        guard share > 0 else { return nil }
        let scale = max(level, 0) / share
        var out = f - a, largest: Float = 0
        for c in 0..<3 where f[c] >= featherStart {
            var estimate = k[c] * scale
            if f[c] >= flashWhite { estimate = min(max(estimate, flashClip - a[c]), 2 * flashClip - a[c]) }
            let s = min((f[c] - featherStart) / (flashWhite - featherStart), 1)
            out[c] = (1 - s) * (f[c] - a[c]) + s * estimate
            largest = max(largest, s)
        }
        return (out, largest)
    }

    /// The variance of the flash-only rates f − a of a pixel (rates `flash` and `ambient`, e⁻/s), in (e⁻/s)²:
    /// the shot noise of both frames, their read noise and quantisation (`PairStatistics`).
    @inline(__always)
    func flashOnlyVariance(flash f: SIMD4<Float>, ambient a: SIMD4<Float>) -> SIMD4<Float> {
        let electrons =
            Self.nonNegative(f * timeF) * shotScale + floorF
            + ratio2 * (Self.nonNegative(a * timeA) * shotScale + floorA)
        return electrons / (timeF * timeF)
    }

    /// Whether the flash lit a pixel (rates `flash` and `ambient`, e⁻/s) measurably: its flash-only sum over the
    /// three channels stands 3σ above zero.
    @inline(__always)
    func isLit(flash f: SIMD4<Float>, ambient a: SIMD4<Float>) -> Bool {
        let variance = flashOnlyVariance(flash: f, ambient: a)
        let e = f - a
        let signal = e[0] + e[1] + e[2]
        return signal > 0 && signal * signal > 9 * (variance[0] + variance[1] + variance[2])
    }

    /// The variance of an ambient rate `a` (e⁻/s), in (e⁻/s)².
    @inline(__always)
    func ambientVariance(_ a: SIMD4<Float>) -> SIMD4<Float> {
        (Self.nonNegative(a * timeA) * shotScale + floorA) / (timeA * timeA)
    }

    /// Whether the flash-only value f·t_f of a pixel (rates `flash` and `ambient`, e⁻/s) lies below
    /// −3σ in any of the three channels, σ² the variance of `PairStatistics`.
    @inline(__always)
    func isImpossible(flash f: SIMD4<Float>, ambient a: SIMD4<Float>) -> Bool {
        let zero = SIMD4<Float>(repeating: 0)
        let variance =
            Self.nonNegative(f * timeF) * shotScale + floorF
            + ratio2 * (Self.nonNegative(a * timeA) * shotScale + floorA)
        let e = (f - a) * timeF
        let below = (e .< zero) .& (e * e .> 9 * variance)
        return below[0] || below[1] || below[2]
    }

    /// `pointwiseMax(v, 0)` lane by lane (IEEE maximumNumber: a NaN lane becomes 0), written out so that it inlines
    /// into the per-pixel rule instead of being called as the standard library's generic function.
    @inline(__always)
    static func nonNegative(_ v: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(Float.maximum(v[0], 0), Float.maximum(v[1], 0), Float.maximum(v[2], 0), Float.maximum(v[3], 0))
    }
}
