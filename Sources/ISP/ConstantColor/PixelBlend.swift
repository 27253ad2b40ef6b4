import Foundation
import Imaging

/// What the blend of one pixel knows beyond the pixel: the estimators' typed results, fixed for the picture.
struct BlendParameters {
    /// The frames' levels and noise (`ClipLimits`).
    let limits: ClipLimits
    /// The flash-only colour of the surface under clipped pixels (`SurfaceColours`), where anything clipped.
    let surfaces: SurfaceColours?
    /// The flash's own shadows (`FlashShadow`).
    let shadows: FlashShadow?
    /// The surface's flash-only colour around each pixel (`FlashOnlyChroma`).
    let chroma: FlashOnlyChroma?
    /// Per pixel, whether the depth map puts something between the surface and the flash (`FlashOcclusion`).
    let blocked: [UInt8]?
    /// The depth the device measured, metres (empty without one).
    let depth: [Float]
    /// Whether the photo keeps the flash's fall-off (`Settings.rendersFlashFallOff`).
    let rendersFallOff: Bool
    /// The picture's size, pixels.
    let width: Int, height: Int
}

/// One pixel's inputs to the blend: its rates, and the tile values interpolated to it.
struct PixelInputs {
    /// Column and row.
    var x: Int, y: Int
    /// Flash and ambient rates, e⁻/s (lane 3 unused).
    var flash: SIMD4<Float>, ambient: SIMD4<Float>
    /// Clipped in either frame.
    var clipped: Bool
    /// The flash weight (`ConfidenceMap.flashWeight` times the frames' consistency), before clipping.
    var weight: Float
    /// The fill's ambient/flash ratio ρ (`FillRatios`), its irradiance gain in lane 3.
    var ratio: SIMD4<Float>
    /// The frames' consistency.
    var agreement: Float
    /// κ of the flash's shadows (`FlashShadow.row(_:into:)`), lane 3 the weight of the tiles that know it.
    var kappa: SIMD4<Float>
    /// The row's interpolation terms for `FlashOnlyChroma.estimate`.
    var chromaRow: (y0: Int, y1: Int, b: Float)
    /// The flash-irradiance gain at the pixel (`IrradianceGains`; 1 without a map).
    var irradianceGain: Float
    /// The lens-shading gain at the pixel (`LensShadingCorrection`).
    var shadingGain: Float
}

/// The pixel's row of the pair, which the flash shadow's surface search reads along (`FlashShadow.surfaceEstimate`).
struct BlendRow {
    let flash: UnsafePointer<Float>, ambient: UnsafePointer<Float>, clipped: UnsafePointer<Bool>
    /// The row's flash-irradiance gains.
    let gains: UnsafePointer<Float>
}

/// The per-pixel rule of the Constant Color blend: one pixel's camera RGB at the flash's white, before the colour
/// mapping, from its inputs and the picture's parameters. The fast row loop (`ConstantColorPipeline.blendAndMap`) and
/// the plain reference (`ConstantColorPipeline.referenceBlend`) both call it.
///
/// The blend is w·f + (1 − w)·fill in camera space, f = flash − ambient the flash-only estimate and w the flash
/// weight (0 where clipped). The fill is the flash frame itself, F ⊘ (1 + ρ): it sits where the flash frame does, so
/// motion between the frames draws no ghost, and it has the flash-only picture's exposure (a von Kries step in
/// camera space, the ratio Petschnigg et al. 2004 use for white balance). Each step below states its reason.
enum PixelBlend {
    @inline(__always)
    static func value(_ p: PixelInputs, row: BlendRow, _ q: BlendParameters) -> SIMD4<Float> {
        let f4 = p.flash, a4 = p.ambient, clipped = p.clipped, limits = q.limits
        let w = clipped ? 0 : p.weight
        let rho = p.ratio
        var (measured, fill, ramp) = nearWhite(p, q)
        // A flash-only value impossibly negative (below −3σ in a channel) is an ambient sample that does not
        // belong to this pixel: the registration's interpolation across a depth edge, or motion. The fill has no
        // such sample.
        let impossible = limits.isImpossible(flash: f4, ambient: a4)
        var used = impossible ? 0 : w
        let agree = p.agreement
        // A channel too noisy to stand alone (the shot noise of a strong narrow-band light) takes its surface's
        // flash-only colour at the pixel's level (`FlashOnlyChroma`); where that level is measured well and the
        // frames agree, the estimate replaces the fill, whose ratio ρ blurs the edges of the room light's patches
        // and shadows.
        if let chroma = q.chroma, !clipped, !impossible, ramp == 0,
            let (estimate, snr) = chroma.estimate(
                measured, variance: limits.flashOnlyVariance(flash: f4, ambient: a4), x: p.x, row: p.chromaRow)
        {
            measured = estimate
            if agree > 0.9 { used = max(used, min(max((snr - 3) / 3, 0), 1)) }
        }
        // The flash-only value at this pixel's irradiance; the fill at that of the tiles its ratio comes from, or
        // the pixel's own where it is clipped (the clipped fill is brought to the pixel's own flash-only level).
        let own = p.irradianceGain
        let fillGain = clipped ? own : rho[3]
        let filled = clipped || ramp == 0 ? fill * fillGain : (1 - ramp) * fill * fillGain + ramp * measured * own
        var value = used * measured * own + (1 - used) * filled
        let hidden = q.blocked.map { $0[p.y &* q.width &+ p.x] > 0 } ?? false
        if q.shadows != nil, !clipped, !impossible || hidden, ramp == 0, agree > 0.9 {
            value = flashShadow(value, p, row: row, hidden: hidden, q)
        }
        // Apple's model, the predicted flash-only image: the flash's irradiance put back (E / E_c = 1 / own), so
        // the photo is the flash-lit picture; the estimates above were made at the centre's irradiance.
        let shown = q.rendersFallOff ? p.shadingGain / own : p.shadingGain
        return value * shown
    }

    /// The measured flash-only value, the fill, and the feathering ramp of a channel near the white level.
    ///
    /// A channel near or at the white level has its flash-only value feathered into the estimate from the
    /// surface's colour (`SurfaceColours`, `ClipLimits.feathered`), so there is no seam where the clipping begins;
    /// the fill goes the same way, from F ⊘ (1 + ρ) to the estimate, by the largest channel's ramp. A clipped
    /// pixel without a surface colour takes `clippedFill`.
    @inline(__always)
    static func nearWhite(_ p: PixelInputs, _ q: BlendParameters) -> (SIMD4<Float>, SIMD4<Float>, Float) {
        let f4 = p.flash, a4 = p.ambient, limits = q.limits
        var measured = f4 - a4
        var fill =
            p.clipped ? clippedFill(flash: f4, ambient: a4, ratio: p.ratio, limits: limits) : f4 / (1 + p.ratio)
        var ramp: Float = 0
        if let surfaces = q.surfaces, max(f4[0], f4[1], f4[2]) >= limits.featherStart,
            let (estimate, s) = limits.feathered(flash: f4, ambient: a4, colour: surfaces.colour(x: p.x, y: p.y))
        {
            if p.clipped { fill = estimate } else { measured = estimate }
            ramp = s
        }
        return (measured, fill, ramp)
    }

    /// In the flash's own shadow, the surface's flash-only value from the ambient frame (`FlashShadow`), where the
    /// frames agree, so that motion draws no ghost. A pixel the depth map hides from the flash (`hidden`), whose
    /// flash-only value is noise around zero, may fall below −3σ by chance: it is no misregistered sample.
    @inline(__always)
    static func flashShadow(
        _ value: SIMD4<Float>, _ p: PixelInputs, row: BlendRow, hidden: Bool, _ q: BlendParameters
    ) -> SIMD4<Float> {
        guard let shadows = q.shadows else { return value }
        let f4 = p.flash, a4 = p.ambient, own = p.irradianceGain, limits = q.limits
        let (share, estimate) = FlashShadow.estimate(kappa: p.kappa, flash: f4, ambient: a4, own: own, limits: limits)
        // A pixel the flash measurably lit counts only where the depth map has an occluder between its surface and
        // the flash (`FlashOcclusion`): a side the flash grazes under a strong coloured light looks shadowed too.
        // Where the depth map shows what blocks the flash, the pixel's own flash-only value against its surface's
        // says how deep in the shadow it lies, even where the ambient frame is too dark to tell (a surface in the
        // shadow of both the flash and the room light).
        var shadowed = share
        var surface = estimate
        if shadowed > 0, q.blocked != nil, !hidden, limits.isLit(flash: f4, ambient: a4) { shadowed = 0 }
        if shadowed > 0 || hidden, q.depth.count == q.width * q.height {
            q.depth.withUnsafeBufferPointer { z in
                guard let base = z.baseAddress else { return }
                surface = shadows.surfaceEstimate(
                    estimate, at: p.x, width: q.width, flash: row.flash, ambient: row.ambient, clipped: row.clipped,
                    gains: row.gains, depth: base, blocked: q.blocked, y: p.y, height: q.height, limits: limits)
            }
            // Hidden from the flash: the shadow's depth is its measured share of what its surface would have, all
            // of it from half down (however faint the ambient frame's evidence, or noise lifting one pixel).
            if hidden {
                let expected = surface[0] + surface[1] + surface[2]
                let m = (f4 - a4) * own
                let v = expected > 0 ? (m[0] + m[1] + m[2]) / expected : 0
                shadowed = max(shadowed, min(max((1 - v) / 0.5, 0), 1))
            }
        }
        return shadowed > 0 ? (1 - shadowed) * value + shadowed * surface : value
    }
}

extension PixelBlend {
    /// The fill of a pixel clipped in the flash frame where no surface colour is known (`SurfaceColours`):
    /// the flash-only value of every channel that did not clip, and for a clipped channel the ambient
    /// frame's ambient ⊘ ρ brought to the flash-only level of the pixel's best-exposed unclipped channel.
    ///
    /// A flash highlight usually clips in one channel (the dominant one of a saturated surface): the other two
    /// still measure the flash-only signal. Only the clipped channel needs the ambient frame, and only for its
    /// ratio to the unclipped one, so the ambient light's shading (a shadow the room light casts across the
    /// highlight) stays out of the fill, where it would show as a dark band where the clipping begins. Without an
    /// unclipped channel bright enough in both frames, ambient ⊘ ρ is all there is.
    ///
    /// A clipped channel's flash frame value is at least the white level, and (our choice) at most twice
    /// it: the plan exposes the 98th percentile at 85 % of the well, so only specular highlights go
    /// further. Its estimate is held between those bounds less the ambient, so that a ratio ρ borrowed
    /// from tiles outside a coloured patch of light cannot turn a clipped patch into a blotch of another hue.
    @inline(__always)
    static func clippedFill(flash f: SIMD4<Float>, ambient a: SIMD4<Float>, ratio rho: SIMD4<Float>, limits: ClipLimits)
        -> SIMD4<Float>
    {
        let fill = a / rho
        var best = -1
        for c in 0..<3 where f[c] < limits.flashWhite && a[c] > limits.ambientFloor && fill[c] > 0 {
            if best < 0 || f[c] > f[best] { best = c }
        }
        var out = fill
        if best >= 0 {
            out *= min(max((f[best] - a[best]) / fill[best], 0.125), 8)
        }
        for c in 0..<3 {
            if f[c] < limits.flashWhite {
                out[c] = f[c] - a[c]
            } else {
                out[c] = min(max(out[c], limits.flashClip - a[c]), 2 * limits.flashClip - a[c])
            }
        }
        return out
    }
}
