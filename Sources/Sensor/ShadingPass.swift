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
    let dark: Double
    let noise: NoiseParameters
    let gain: Double
    let maximumCode: Double
    let temporalSeed: UInt64
    let frameStream: UInt64
    let width: Int

    init(renderer: Renderer, exposure: Exposure) {
        geometry = renderer.geometry
        emitterCount = renderer.emitters.count
        isFlash = renderer.emitters.map(\.isFlash)
        diffuseRates = renderer.diffuseRates
        specularRates = renderer.specularRates
        ambientTime = Float(exposure.time)
        flashTime = exposure.flash ? Float(min(exposure.flashDuration ?? exposure.time, exposure.time)) : 0
        noise = renderer.camera.noise
        dark = noise.darkCurrentElectronsPerSecond * exposure.time
        gain = noise.gain(iso: exposure.iso)
        maximumCode = min(noise.whiteLevel, Double((1 << noise.adcBits) - 1))
        temporalSeed = exposure.seed
        frameStream = exposure.frameIndex &* 4 &+ 1
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
        let temporal = CounterRandom(seed: temporalSeed, stream: frameStream, pixel: pixel)
        let fixed = CounterRandom(seed: noise.fixedPatternSeed, stream: 2, pixel: pixel)
        let read = noise.readNoiseElectrons
        for ch in 0..<3 {
            let mu = Double(mean[ch]) + dark
            let counter = UInt64(ch) &* 4
            var e: Double
            if mu < 25 {
                e = temporal.poisson(mean: max(mu, 0), counter) + read * temporal.normal(counter &+ 1)
            } else {
                // Shot ≈ N(μ, μ) and read ~ N(0, σ²) are independent: one draw of N(μ, μ + σ²).
                e = mu + (mu + read * read).squareRoot() * temporal.normal(counter)
            }
            if noise.prnu > 0 { e *= 1 + noise.prnu * fixed.normal(counter) }
            if noise.dsnuElectrons > 0 { e += noise.dsnuElectrons * fixed.normal(counter &+ 1) }
            e = min(e, noise.fullWellElectrons)
            output.electrons.base[pixel * 3 + ch] = Float(e)
            // Round half up; codes below zero clip to zero.
            let code = min(max(noise.blackLevel + gain * e + 0.5, 0), maximumCode + 0.5)
            output.dn.base[pixel * 3 + ch] = UInt16(code)
        }
    }
}
