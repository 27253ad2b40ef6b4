import Foundation

/// Sums the cached light factors into mean electrons and runs the noise chain, one band of
/// rows at a time.
///
/// Noise chain, in ISETCam's order (color-science spec §3.1): mean signal + dark current·t →
/// photon shot noise (Poisson; Gaussian with variance = mean above 25 e⁻) → read noise →
/// PRNU gain and DSNU offset (fixed per pixel) → clip at full well → conversion gain from ISO →
/// black level → ADC rounding and clipping to [0, white level].
struct ShadingPass: Sendable {
    struct Output: Sendable {
        let electrons: SharedBuffer<Float>
        let dn: SharedBuffer<UInt16>
        let flash: SharedBuffer<Float>?
        let ambient: SharedBuffer<Float>?
    }

    let geometry: GeometryCache
    let emitterCount: Int
    let isFlash: [Bool]
    let diffuseRates: [SIMD3<Float>]
    let specularRates: [SIMD3<Float>]
    let ambientTime: Float
    let flashTime: Float
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
        emitterCount = renderer.emitters.count
        isFlash = renderer.emitters.map(\.isFlash)
        diffuseRates = renderer.diffuseRates
        specularRates = renderer.specularRates
        ambientTime = Float(exposure.time)
        flashTime = exposure.flash ? Float(min(exposure.flashDuration ?? exposure.time, exposure.time)) : 0
        let noise = renderer.camera.noise
        dark = Float(noise.darkCurrentElectronsPerSecond * exposure.time)
        read = Float(noise.readNoiseElectrons)
        readSquared = read * read
        prnu = Float(noise.prnu)
        dsnu = Float(noise.dsnuElectrons)
        fullWell = Float(noise.fullWellElectrons)
        blackLevel = Float(noise.blackLevel)
        gain = Float(noise.gain(iso: exposure.iso))
        maximumCode = Float(min(noise.whiteLevel, Double((1 << noise.adcBits) - 1)))
        temporalKey = CounterRandom.streamKey(seed: exposure.seed, stream: exposure.frameIndex &* 4 &+ 1)
        fixedKey = CounterRandom.streamKey(seed: noise.fixedPatternSeed, stream: 2)
        width = renderer.camera.width
    }

    func run(rows: Range<Int>, output: Output) {
        let slots = geometry.slotCount
        let count = emitterCount
        // Per-emitter constants as plain buffers so the pixel loop touches no reference counts.
        let flashFlags = isFlash
        let dSlots = geometry.diffuseSlot
        let sSlots = geometry.specularSlot
        geometry.factors.withUnsafeBufferPointer { factors in
            geometry.materialIDs.withUnsafeBufferPointer { materials in
                diffuseRates.withUnsafeBufferPointer { rd in
                    specularRates.withUnsafeBufferPointer { rs in
                        flashFlags.withUnsafeBufferPointer { isFlash in
                            dSlots.withUnsafeBufferPointer { dSlot in
                                sSlots.withUnsafeBufferPointer { sSlot in
                                    for pixel in (rows.lowerBound * width)..<(rows.upperBound * width) {
                                        var ambient = SIMD3<Float>.zero
                                        var flash = SIMD3<Float>.zero
                                        let m = Int(materials[pixel])
                                        if m != Int(RawFrame.none) {
                                            let base = m * count
                                            let f = pixel * slots
                                            for e in 0..<count {
                                                var c = factors[f + dSlot[e]] * rd[base + e]
                                                let s = sSlot[e]
                                                if s >= 0 { c += factors[f + s] * rs[base + e] }
                                                if isFlash[e] { flash += c } else { ambient += c }
                                            }
                                        }
                                        ambient *= ambientTime
                                        flash *= flashTime
                                        if let fo = output.flash, let ao = output.ambient {
                                            for ch in 0..<3 {
                                                fo.base[pixel * 3 + ch] = flash[ch]
                                                ao.base[pixel * 3 + ch] = ambient[ch]
                                            }
                                        }
                                        expose(pixel: pixel, mean: ambient + flash, output: output)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    @inline(__always) private func expose(pixel: Int, mean: SIMD3<Float>, output: Output) {
        let temporal = CounterRandom(streamKey: temporalKey, pixel: pixel)
        // One hash gives two normals: counters 0 and 1 give the three channels' main deviates,
        // and likewise for the fixed pattern (PRNU from counters 0, 1; DSNU from 2, 3).
        let (t0, t1) = temporal.normalPair(0)
        let (t2, _) = temporal.normalPair(1)
        var p0: Float = 0, p1: Float = 0, p2: Float = 0
        var d0: Float = 0, d1: Float = 0, d2: Float = 0
        if prnu > 0 || dsnu > 0 {
            let fixed = CounterRandom(streamKey: fixedKey, pixel: pixel)
            if prnu > 0 {
                (p0, p1) = fixed.normalPair(0)
                (p2, _) = fixed.normalPair(1)
            }
            if dsnu > 0 {
                (d0, d1) = fixed.normalPair(2)
                (d2, _) = fixed.normalPair(3)
            }
        }
        channel(pixel * 3, mean.x, t0, p0, d0, temporal, output)
        channel(pixel * 3 + 1, mean.y, t1, p1, d1, temporal, output)
        channel(pixel * 3 + 2, mean.z, t2, p2, d2, temporal, output)
    }

    /// One channel of the chain, given its temporal, PRNU and DSNU deviates.
    @inline(__always) private func channel(
        _ index: Int, _ mean: Float, _ z: Float, _ gainDeviate: Float, _ offsetDeviate: Float,
        _ temporal: CounterRandom, _ output: Output
    ) {
        let mu = mean + dark
        var e: Float
        if mu < 25 {
            // Small signals: Poisson shot noise (its own uniform per channel), z as read noise.
            e = Float(temporal.poisson(mean: Double(max(mu, 0)), UInt64(8 + index % 3))) + read * z
        } else {
            // Shot ≈ N(μ, μ) and read ~ N(0, σ²) are independent: one draw of N(μ, μ + σ²).
            e = mu + (mu + readSquared).squareRoot() * z
        }
        e *= 1 + prnu * gainDeviate
        e += dsnu * offsetDeviate
        e = min(e, fullWell)
        output.electrons.base[index] = e
        // Round half up; codes below zero clip to zero.
        let code = min(max(blackLevel + gain * e + 0.5, 0), maximumCode + 0.5)
        output.dn.base[index] = UInt16(code)
    }
}
