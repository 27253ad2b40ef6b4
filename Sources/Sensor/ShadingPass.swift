import Foundation
import Imaging

/// Sums the cached light factors into mean electrons and runs the noise chain, one band of
/// rows at a time, touching each pixel's factors once.
///
/// Noise chain, in ISETCam's order (color-science spec §3.1): mean signal + dark current·t →
/// photon shot noise (Poisson; Gaussian with variance = mean above 25 e⁻) → read noise →
/// PRNU gain and DSNU offset (fixed per pixel) → clip at full well → conversion gain from ISO →
/// black level → ADC rounding and clipping to [0, white level].
struct ShadingPass: Sendable {
    struct Output: Sendable {
        let electrons: SharedPointer<Float>
        let dn: SharedPointer<UInt16>
        let flash: SharedPointer<Float>?
        let ambient: SharedPointer<Float>?
    }

    let geometry: GeometryCache
    /// Factor slots that feed the ambient (non-flash) sum, and their electrons per unit factor
    /// for this exposure (rate × time), index material × slots + j. The flash likewise; its list
    /// is empty when the flash does not fire, so those factors are never read.
    let ambientSlots: [Int]
    let ambientRates: [SIMD4<Float>]
    let flashSlots: [Int]
    let flashRates: [SIMD4<Float>]
    // The noise chain runs in Float: its inputs (electron counts ≤ full well, DN ≤ 2¹⁶) need at most
    // 17 significant bits and the noise itself is a percent-level effect, so Float's 24 bits keep
    // every output far below one DN of rounding difference, at half the width of Double.
    let dark: Float
    let read: Float
    let readSquared: Float
    let prnu: Float
    let dsnu: Float
    let fullWell: Float
    let blackLevel: Float
    let gain: Float
    let maximumCode: Float
    let temporalKey: UInt64
    let fixedKey: UInt64
    let width: Int

    init(renderer: Renderer, exposure: Exposure) {
        geometry = renderer.geometry
        let ambientTime = Float(exposure.time)
        let flashTime = exposure.flash ? Float(min(exposure.flashDuration ?? exposure.time, exposure.time)) : 0
        let emitters = renderer.emitters
        var aSlots: [Int] = [], fSlots: [Int] = []
        var aTerms: [(emitter: Int, specular: Bool)] = [], fTerms: [(emitter: Int, specular: Bool)] = []
        for (e, emitter) in emitters.enumerated() {
            if emitter.isFlash && flashTime == 0 { continue }
            let d = geometry.diffuseSlot[e]
            let s = geometry.specularSlot[e]
            if emitter.isFlash {
                fSlots.append(d)
                fTerms.append((e, false))
                if s >= 0 {
                    fSlots.append(s)
                    fTerms.append((e, true))
                }
            } else {
                aSlots.append(d)
                aTerms.append((e, false))
                if s >= 0 {
                    aSlots.append(s)
                    aTerms.append((e, true))
                }
            }
        }
        func table(_ terms: [(emitter: Int, specular: Bool)], _ time: Float) -> [SIMD4<Float>] {
            var out: [SIMD4<Float>] = []
            for m in 0..<renderer.materials.count {
                for t in terms {
                    let i = m * emitters.count + t.emitter
                    let r = (t.specular ? renderer.specularRates[i] : renderer.diffuseRates[i]) * time
                    out.append(SIMD4(r.x, r.y, r.z, 0))
                }
            }
            return out
        }
        ambientSlots = aSlots
        flashSlots = fSlots
        ambientRates = table(aTerms, ambientTime)
        flashRates = table(fTerms, flashTime)
        let noise = renderer.camera.noise
        dark = Float(noise.darkCurrentElectronsPerSecond * exposure.time)
        read = Float(noise.readNoiseElectrons)
        readSquared = read * read
        prnu = Float(noise.prnu)
        dsnu = Float(noise.dsnuElectrons)
        fullWell = Float(noise.fullWellElectrons)
        blackLevel = Float(noise.blackLevel)
        gain = Float(noise.gain(iso: exposure.iso))
        // DN planes are UInt16: no code beyond 65535 whatever the ADC claims.
        maximumCode = Float(min(noise.whiteLevel, Double((1 << min(noise.adcBits, 16)) - 1)))
        temporalKey = CounterRandom.streamKey(seed: exposure.seed, stream: exposure.frameIndex &* 4 &+ 1)
        fixedKey = CounterRandom.streamKey(seed: noise.fixedPatternSeed, stream: 2)
        width = renderer.camera.width
    }

    func run(rows: Range<Int>, output: Output) {
        let slots = geometry.slotCount
        let zig = ZigguratNormal.shared
        let recip = PoissonInversion.shared
        geometry.factors.withUnsafeBufferPointer { factors in
            geometry.materialIDs.withUnsafeBufferPointer { materials in
                ambientSlots.withUnsafeBufferPointer { aSlot in
                    ambientRates.withUnsafeBufferPointer { aRate in
                        flashSlots.withUnsafeBufferPointer { fSlot in
                            flashRates.withUnsafeBufferPointer { fRate in
                                let na = aSlot.count
                                let nf = fSlot.count
                                for pixel in (rows.lowerBound * width)..<(rows.upperBound * width) {
                                    var ambient = SIMD4<Float>.zero
                                    var flash = SIMD4<Float>.zero
                                    let m = Int(materials[pixel])
                                    if m != Int(RawFrame.none) {
                                        let f = pixel &* slots
                                        let ra = m &* na
                                        let rf = m &* nf
                                        for j in 0..<na { ambient += factors[f &+ aSlot[j]] * aRate[ra &+ j] }
                                        for j in 0..<nf { flash += factors[f &+ fSlot[j]] * fRate[rf &+ j] }
                                    }
                                    if let fo = output.flash, let ao = output.ambient {
                                        for ch in 0..<3 {
                                            fo.base[pixel * 3 + ch] = flash[ch]
                                            ao.base[pixel * 3 + ch] = ambient[ch]
                                        }
                                    }
                                    expose(pixel: pixel, mean: ambient + flash, zig, recip, output)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Counter layout per pixel and stream: draws 8·pixel + 0…7. Temporal: 0 (the three
    /// channels' normals), 2…4 (Poisson uniforms), 5 (rejections). Fixed: 0 (PRNU), 2 (DSNU),
    /// 5 (rejections).
    @inline(__always) private func expose(
        pixel: Int, mean: SIMD4<Float>, _ zig: ZigguratNormal, _ recip: PoissonInversion, _ output: Output
    ) {
        let base = UInt64(truncatingIfNeeded: pixel) &* 8
        var more = FallbackBits(streamKey: temporalKey, index: base + 5)
        let h = CounterRandom.draw(streamKey: temporalKey, index: base)
        let t0 = zig.sample(ShadingPass.field(h, 0), more: &more)
        let t1 = zig.sample(ShadingPass.field(h, 1), more: &more)
        let t2 = zig.sample(ShadingPass.field(h, 2), more: &more)
        var gain0: Float = 1, gain1: Float = 1, gain2: Float = 1
        var d0: Float = 0, d1: Float = 0, d2: Float = 0
        if prnu > 0 || dsnu > 0 {
            var fixedMore = FallbackBits(streamKey: fixedKey, index: base + 5)
            if prnu > 0 {
                let p = CounterRandom.draw(streamKey: fixedKey, index: base)
                gain0 += prnu * zig.sample(ShadingPass.field(p, 0), more: &fixedMore)
                gain1 += prnu * zig.sample(ShadingPass.field(p, 1), more: &fixedMore)
                gain2 += prnu * zig.sample(ShadingPass.field(p, 2), more: &fixedMore)
            }
            if dsnu > 0 {
                let q = CounterRandom.draw(streamKey: fixedKey, index: base + 2)
                d0 = dsnu * zig.sample(ShadingPass.field(q, 0), more: &fixedMore)
                d1 = dsnu * zig.sample(ShadingPass.field(q, 1), more: &fixedMore)
                d2 = dsnu * zig.sample(ShadingPass.field(q, 2), more: &fixedMore)
            }
        }
        channel(pixel * 3, mean.x, t0, gain0, d0, base + 2, recip, output)
        channel(pixel * 3 + 1, mean.y, t1, gain1, d1, base + 3, recip, output)
        channel(pixel * 3 + 2, mean.z, t2, gain2, d2, base + 4, recip, output)
    }

    /// Field `i` (0…2) of a 64-bit draw as the top 21 bits of a 32-bit ziggurat input: three
    /// normals per hash. 21 bits resolve a deviate to 2⁻²⁰ of its layer's width, some 3·10⁻⁶ σ.
    @inline(__always) static func field(_ h: UInt64, _ i: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: h >> UInt64(43 - 21 * i)) << 11
    }

    /// One channel of the chain, given its temporal deviate, PRNU gain and DSNU offset.
    @inline(__always) private func channel(
        _ index: Int, _ mean: Float, _ z: Float, _ pixelGain: Float, _ offset: Float, _ poissonDraw: UInt64,
        _ recip: PoissonInversion, _ output: Output
    ) {
        let mu = mean + dark
        var e: Float
        if mu < 25 {
            // Small signals: Poisson shot noise (its own uniform per channel), z as read noise.
            let first = CounterRandom.draw(streamKey: temporalKey, index: poissonDraw)
            let shot: Float
            if mu >= Float(PoissonInversion.rejectionFrom) {
                shot = recip.rejection(mean: Double(mu)) { i in
                    i == 0 ? first : CounterRandom.mix(first ^ (i &* 0xD6E8_FEB8_6659_FD93))
                }
            } else {
                shot = recip.sample(mean: Double(max(mu, 0)), uniform: (Double(first >> 11) + 0.5) * 0x1p-53)
            }
            e = shot + read * z
        } else {
            // Shot ≈ N(μ, μ) and read ~ N(0, σ²) are independent: one draw of N(μ, μ + σ²).
            e = mu + (mu + readSquared).squareRoot() * z
        }
        e = e * pixelGain + offset
        e = min(e, fullWell)
        output.electrons.base[index] = e
        // Round half up; codes below zero clip to zero.
        let code = min(max(blackLevel + gain * e + 0.5, 0), maximumCode + 0.5)
        output.dn.base[index] = UInt16(code)
    }
}
