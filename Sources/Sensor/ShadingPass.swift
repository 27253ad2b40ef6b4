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
        geometry.factors.withUnsafeBufferPointer { factors in
            geometry.materialIDs.withUnsafeBufferPointer { materials in
                diffuseRates.withUnsafeBufferPointer { rd in
                    specularRates.withUnsafeBufferPointer { rs in
                        for pixel in (rows.lowerBound * width)..<(rows.upperBound * width) {
                            var ambient = SIMD3<Float>.zero
                            var flash = SIMD3<Float>.zero
                            let m = Int(materials[pixel])
                            if m != Int(RawFrame.none) {
                                let base = m * emitterCount
                                for e in 0..<emitterCount {
                                    var c = factors[pixel * slots + geometry.diffuseSlot[e]] * rd[base + e]
                                    let s = geometry.specularSlot[e]
                                    if s >= 0 { c += factors[pixel * slots + s] * rs[base + e] }
                                    if isFlash[e] { flash += c } else { ambient += c }
                                }
                            }
                            ambient *= ambientTime
                            flash *= flashTime
                            if let f = output.flash, let a = output.ambient {
                                for ch in 0..<3 {
                                    f.base[pixel * 3 + ch] = flash[ch]
                                    a.base[pixel * 3 + ch] = ambient[ch]
                                }
                            }
                            let mean = ambient + flash
                            expose(pixel: pixel, mean: mean, output: output)
                        }
                    }
                }
            }
        }
    }

    @inline(__always) private func expose(pixel: Int, mean: SIMD3<Float>, output: Output) {
        let temporal = CounterRandom(seed: temporalSeed, stream: frameStream, pixel: pixel)
        let fixed = CounterRandom(seed: noise.fixedPatternSeed, stream: 2, pixel: pixel)
        for ch in 0..<3 {
            let mu = Double(mean[ch]) + dark
            let counter = UInt64(ch) &* 8
            let (z1, z2) = temporal.normals(counter)
            var e: Double
            if mu < 25 {
                e = temporal.poisson(mean: max(mu, 0), counter &+ 5) + noise.readNoiseElectrons * z2
            } else {
                // Shot ≈ N(μ, μ) and read ~ N(0, σ²) are independent: one draw of N(μ, μ + σ²).
                e = mu + (mu + noise.readNoiseElectrons * noise.readNoiseElectrons).squareRoot() * z1
            }
            if noise.prnu > 0 || noise.dsnuElectrons > 0 {
                let (f1, f2) = fixed.normals(counter)
                e = e * (1 + noise.prnu * f1) + noise.dsnuElectrons * f2
            }
            e = min(e, noise.fullWellElectrons)
            output.electrons.base[pixel * 3 + ch] = Float(e)
            let code = (noise.blackLevel + gain * e).rounded()
            output.dn.base[pixel * 3 + ch] = UInt16(min(max(code, 0), maximumCode))
        }
    }
}
