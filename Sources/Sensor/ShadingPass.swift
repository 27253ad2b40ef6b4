import Foundation
import Imaging

/// Sums the cached light factors into mean electrons and runs the noise chain, one band of
/// rows at a time, touching each pixel's factors once.
///
/// Noise chain, in ISETCam's order (color-science spec §3.1): mean signal + dark current·t →
/// photon shot noise (Poisson; Gaussian with variance = mean above 25 e⁻; for a pixel that is the mean
/// of n photosites, a count of n times its mean divided by n, see `NoiseParameters+Readout`) → read noise →
/// PRNU gain and DSNU offset (fixed per pixel) → clip at full well → conversion gain from ISO →
/// black level → ADC rounding and clipping to [0, white level].
struct ShadingPass: Sendable {
    struct Output: Sendable {
        /// Nil when the frame leaves the electrons plane out (`RenderOptions.keepsElectrons`).
        let electrons: SharedPointer<Float>?
        let dn: SharedPointer<UInt16>
        let flash: SharedPointer<Float>?
        let ambient: SharedPointer<Float>?
        /// The pixel that `flash` and `ambient` start at: 0 for whole-frame planes, a band's first
        /// pixel when the renderer hands out band-sized planes (it keeps only their means).
        var componentOrigin = 0
    }

    let geometry: GeometryCache
    /// Factor slots that feed the ambient (non-flash) sum, and their electrons per unit factor
    /// for this exposure (rate × time), index material × slots + j. The flash likewise; its list
    /// is empty when the flash does not fire, so those factors are never read.
    let ambientSlots: [Int]
    let ambientRates: [SIMD4<Float>]
    let flashSlots: [Int]
    let flashRates: [SIMD4<Float>]
    /// Electrons of each material's own light for this exposure (rate × time), per material; empty when no
    /// material emits, so the pixel loops of other scenes read nothing more. Emitted light is not
    /// multiplied by the room's flicker gain: a screen is lit by its own supply.
    let emission: [SIMD4<Float>]
    // The noise chain runs in Float: its inputs (electron counts ≤ full well, DN ≤ 2¹⁶) need at most
    // 17 significant bits and the noise itself is a percent-level effect, so Float's 24 bits keep
    // every output far below one DN of rounding difference, at half the width of Double.
    let dark: Float
    /// Photosites per pixel n, and 1/n: the shot noise of their mean.
    let photosites: Float
    let shotScale: Float
    let read: Float
    let readSquared: Float
    let prnu: Float
    let dsnu: Float
    let fullWell: Float
    let blackLevel: Float
    let gain: Float
    /// The largest code plus one half: the clip applied before rounding half up.
    let codeCeiling: Float
    let temporalKey: UInt64
    let fixedKey: UInt64
    let width: Int
    /// The exposure's per-row ambient gains (`Exposure.ambientRowGains`); empty for steady light. A gain of 1
    /// multiplies exactly, so steady light keeps its bytes.
    let ambientRowGains: [Float]

    /// Row `y`'s ambient gain.
    @inline(__always) func ambientGain(row y: Int) -> Float { ambientRowGains.isEmpty ? 1 : ambientRowGains[y] }

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
        emission = renderer.emissionRates.map { r in SIMD4(r.x, r.y, r.z, 0) * ambientTime }
        let noise = renderer.camera.noise
        dark = Float(noise.darkCurrentElectronsPerSecond * exposure.time)
        photosites = Float(noise.photositesPerPixel)
        shotScale = 1 / photosites
        read = Float(noise.readNoiseElectrons)
        readSquared = read * read
        prnu = Float(noise.prnu)
        dsnu = Float(noise.dsnuElectrons)
        fullWell = Float(noise.fullWellElectrons)
        blackLevel = Float(noise.blackLevel)
        gain = Float(noise.gain(iso: exposure.iso))
        // DN planes are UInt16: no code beyond 65535 whatever the ADC claims.
        codeCeiling = Float(min(noise.whiteLevel, Double((1 << min(noise.adcBits, 16)) - 1))) + 0.5
        temporalKey = CounterRandom.streamKey(seed: exposure.seed, stream: exposure.frameIndex &* 4 &+ 1)
        fixedKey = CounterRandom.streamKey(seed: noise.fixedPatternSeed, stream: 2)
        width = renderer.camera.width
        let gains = exposure.ambientRowGains ?? []
        precondition(gains.isEmpty || gains.count == renderer.camera.height, "one ambient gain per row")
        ambientRowGains = gains
    }

    /// A pixel's fixed pattern: PRNU gain and DSNU offset per channel. It depends on the sensor
    /// unit only, so frames rendered together compute it once.
    /// Lanes 0–2 are the channels; lane 3 is gain 1, offset 0.
    struct Pattern {
        var gain = SIMD4<Float>(repeating: 1)
        var offset = SIMD4<Float>.zero
    }

    /// The slot and rate tables of one exposure, as buffers for the pixel loop.
    struct Tables {
        let ambientSlots: UnsafeBufferPointer<Int>
        let ambientRates: UnsafeBufferPointer<SIMD4<Float>>
        let flashSlots: UnsafeBufferPointer<Int>
        let flashRates: UnsafeBufferPointer<SIMD4<Float>>
    }

    func withTables<R>(_ body: (Tables) -> R) -> R {
        ambientSlots.withUnsafeBufferPointer { aSlot in
            ambientRates.withUnsafeBufferPointer { aRate in
                flashSlots.withUnsafeBufferPointer { fSlot in
                    flashRates.withUnsafeBufferPointer { fRate in
                        body(Tables(ambientSlots: aSlot, ambientRates: aRate, flashSlots: fSlot, flashRates: fRate))
                    }
                }
            }
        }
    }

    /// Σⱼ factor[slotⱼ] · rate[material, j] over one list of slots: a pixel's mean electrons from
    /// one group of lights.
    @inline(__always) fileprivate static func sum(
        _ factors: some FactorPixel, _ m: Int, _ slots: UnsafeBufferPointer<Int>,
        _ rates: UnsafeBufferPointer<SIMD4<Float>>
    ) -> SIMD4<Float> {
        var total = SIMD4<Float>.zero
        let n = slots.count
        let r = m &* n
        // A renderer's lists hold one to five slots (a diffuse and a specular slot per light): those counts
        // are spelled out, with the same additions in the same order as the loop, which otherwise pays
        // its set-up and unrolling remainder for a one-trip run on every pixel.
        switch n {
        case 0:
            return total
        case 1:
            total += factors[slots[0]] * rates[r]
        case 2:
            total += factors[slots[0]] * rates[r]
            total += factors[slots[1]] * rates[r &+ 1]
        case 3:
            total += factors[slots[0]] * rates[r]
            total += factors[slots[1]] * rates[r &+ 1]
            total += factors[slots[2]] * rates[r &+ 2]
        case 4:
            total += factors[slots[0]] * rates[r]
            total += factors[slots[1]] * rates[r &+ 1]
            total += factors[slots[2]] * rates[r &+ 2]
            total += factors[slots[3]] * rates[r &+ 3]
        case 5:
            total += factors[slots[0]] * rates[r]
            total += factors[slots[1]] * rates[r &+ 1]
            total += factors[slots[2]] * rates[r &+ 2]
            total += factors[slots[3]] * rates[r &+ 3]
            total += factors[slots[4]] * rates[r &+ 4]
        default:
            for j in 0..<n { total += factors[slots[j]] * rates[r &+ j] }
        }
        return total
    }

    /// Writes the noise-free components of a pixel, when the frame keeps them.
    @inline(__always) static func store(
        pixel: Int, ambient: SIMD4<Float>, flash: SIMD4<Float>, _ output: Output
    ) {
        if let fo = output.flash, let ao = output.ambient {
            let i = (pixel &- output.componentOrigin) &* 3
            for ch in 0..<3 {
                fo.base[i + ch] = flash[ch]
                ao.base[i + ch] = ambient[ch]
            }
        }
    }

    func run(rows: Range<Int>, output: Output) {
        if let plane = output.electrons {
            run(rows: rows, output: output, KeptElectrons(plane: plane))
        } else {
            run(rows: rows, output: output, NoElectrons())
        }
    }

    /// Picks the pixel loop for the frame's slot counts: the usual ones (one light's diffuse and
    /// specular slots, or three, for the ambient sum; none or two for the flash) get a loop with the
    /// sums unrolled and the slot indices copied out once per band, not read per pixel.
    private func run<E: ElectronsSink>(rows: Range<Int>, output: Output, _ sink: E) {
        withTables { t in
            switch (t.ambientSlots.count, t.flashSlots.count) {
            case (2, 0): run(rows, output, sink, FixedSlots<Two>(t.ambientSlots), NoSlots())
            case (3, 0): run(rows, output, sink, FixedSlots<Three>(t.ambientSlots), NoSlots())
            case (2, 2): run(rows, output, sink, FixedSlots<Two>(t.ambientSlots), FixedSlots<Two>(t.flashSlots))
            case (3, 2): run(rows, output, sink, FixedSlots<Three>(t.ambientSlots), FixedSlots<Two>(t.flashSlots))
            default: run(rows, output, sink, ListedSlots(t.ambientSlots), ListedSlots(t.flashSlots))
            }
        }
    }

    /// One row's inputs to the noise chain: each frame's mean electrons per channel (dark signal
    /// included) and the fixed pattern. With them gathered first, each frame's chain runs as its own
    /// tight loop, which the compiler inlines whole (with two chains in one loop it kept one out of line).
    struct RowInputs {
        let means: UnsafeMutablePointer<SIMD4<Float>>
        let second: UnsafeMutablePointer<SIMD4<Float>>
        let pattern: UnsafeMutablePointer<Pattern>

        static func with<R>(width: Int, _ body: (RowInputs) -> R) -> R {
            let means = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: width * 2)
            let pattern = UnsafeMutablePointer<Pattern>.allocate(capacity: width)
            defer {
                means.deallocate()
                pattern.deallocate()
            }
            return body(RowInputs(means: means, second: means + width, pattern: pattern))
        }
    }

    private func run<E: ElectronsSink, A: SlotSum, F: SlotSum>(
        _ rows: Range<Int>, _ output: Output, _ sink: E, _ ambientSum: A, _ flashSum: F
    ) {
        // The loop is specialised on the factors' precision, so it reads them without a test per read.
        geometry.factors.withBuffers { b in
            if b.isHalf {
                run(rows, output, sink, ambientSum, flashSum, b.half)
            } else {
                run(rows, output, sink, ambientSum, flashSum, b.single)
            }
        }
    }

    private func run<E: ElectronsSink, A: SlotSum, F: SlotSum, P: FactorPlane>(
        _ rows: Range<Int>, _ output: Output, _ sink: E, _ ambientSum: A, _ flashSum: F, _ factors: P
    ) {
        let normals = NormalTable.shared
        let poisson = PoissonTable.shared
        let emits = !emission.isEmpty
        // One fused loop per row: a single chain per pixel inlines whole, and a row buffer would only add stores.
        geometry.materialIDs.withUnsafeBufferPointer { materials in
            withTables { t in
                for y in rows {
                    let gain = ambientGain(row: y)
                    for pixel in (y &* width)..<((y &+ 1) &* width) {
                        var ambient = SIMD4<Float>.zero
                        var flash = SIMD4<Float>.zero
                        let m = Int(materials[pixel])
                        if m != Int(RawFrame.none) {
                            let f = factors.pixel(pixel, row: y)
                            ambient = ambientSum.sum(f, m, t.ambientRates) * gain
                            flash = flashSum.sum(f, m, t.flashRates)
                            if emits { ambient += emission[m] }
                        }
                        ShadingPass.store(pixel: pixel, ambient: ambient, flash: flash, output)
                        expose(
                            pixel: pixel, ambient + flash + dark, pattern(pixel: pixel, normals), normals,
                            poisson, output, sink)
                    }
                }
            }
        }
    }

    /// Two exposures of one renderer in one pass: each pixel's factors are read once for both, the
    /// fixed pattern is drawn once, and when both exposures weigh the ambient lights alike (same
    /// time) their ambient sum is computed once. Every value is computed by the same operations in
    /// the same order as `run(rows:output:)` on each pass alone, and each keeps its own temporal
    /// stream, so the two frames are bit for bit those of two separate passes.
    static func runPair(
        _ a: ShadingPass, _ b: ShadingPass, rows: Range<Int>, outputs: (a: Output, b: Output)
    ) {
        precondition(
            a.geometry === b.geometry && a.fixedKey == b.fixedKey && a.prnu == b.prnu && a.dsnu == b.dsnu,
            "exposures rendered together share one renderer")
        // Equal tables give equal sums: the shared sum is the one each pass would compute itself.
        let sameAmbient = a.ambientRates == b.ambientRates
        a.withTables { ta in
            b.withTables { tb in
                // A pair with a shared five-slot ambient sum and a two-module flash (four slots) on the second
                // frame only, a Constant Color pair's usual lists, gets its sums unrolled with the slot indices
                // copied out once per band; other lists read them per pixel.
                if sameAmbient && ta.ambientSlots.count == 5 && ta.flashSlots.isEmpty && tb.flashSlots.count == 4 {
                    runPair(
                        a, b, rows, outputs, true, FixedSlots<Five>(ta.ambientSlots), NoSlots(), NoSlots(),
                        FixedSlots<Four>(tb.flashSlots))
                } else {
                    runPair(
                        a, b, rows, outputs, sameAmbient, ListedSlots(ta.ambientSlots), ListedSlots(tb.ambientSlots),
                        ListedSlots(ta.flashSlots), ListedSlots(tb.flashSlots))
                }
            }
        }
    }

    private static func runPair<AA: SlotSum, AB: SlotSum, FA: SlotSum, FB: SlotSum>(
        _ a: ShadingPass, _ b: ShadingPass, _ rows: Range<Int>, _ outputs: (a: Output, b: Output),
        _ sameAmbient: Bool, _ ambientSumA: AA, _ ambientSumB: AB, _ flashSumA: FA, _ flashSumB: FB
    ) {
        a.geometry.factors.withBuffers { g in
            if g.isHalf {
                runPair(a, b, rows, outputs, sameAmbient, ambientSumA, ambientSumB, flashSumA, flashSumB, g.half)
            } else {
                runPair(a, b, rows, outputs, sameAmbient, ambientSumA, ambientSumB, flashSumA, flashSumB, g.single)
            }
        }
    }

    private static func runPair<AA: SlotSum, AB: SlotSum, FA: SlotSum, FB: SlotSum, P: FactorPlane>(
        _ a: ShadingPass, _ b: ShadingPass, _ rows: Range<Int>, _ outputs: (a: Output, b: Output),
        _ sameAmbient: Bool, _ ambientSumA: AA, _ ambientSumB: AB, _ flashSumA: FA, _ flashSumB: FB, _ factors: P
    ) {
        let geometry = a.geometry
        let normals = NormalTable.shared
        let poisson = PoissonTable.shared
        let width = a.width
        let emits = !a.emission.isEmpty
        geometry.materialIDs.withUnsafeBufferPointer { materials in
            a.withTables { ta in
                b.withTables { tb in
                    RowInputs.with(width: width) { row in
                        for y in rows {
                            let first = y &* width
                            let gainA = a.ambientGain(row: y), gainB = b.ambientGain(row: y)
                            for x in 0..<width {
                                let pixel = first &+ x
                                var ambientA = SIMD4<Float>.zero, flashA = SIMD4<Float>.zero
                                var ambientB = SIMD4<Float>.zero, flashB = SIMD4<Float>.zero
                                let m = Int(materials[pixel])
                                if m != Int(RawFrame.none) {
                                    let f = factors.pixel(pixel, row: y)
                                    let sumA = ambientSumA.sum(f, m, ta.ambientRates)
                                    ambientA = sumA * gainA
                                    ambientB =
                                        (sameAmbient ? sumA : ambientSumB.sum(f, m, tb.ambientRates))
                                        * gainB
                                    flashA = flashSumA.sum(f, m, ta.flashRates)
                                    flashB = flashSumB.sum(f, m, tb.flashRates)
                                    if emits {
                                        ambientA += a.emission[m]
                                        ambientB += b.emission[m]
                                    }
                                }
                                store(pixel: pixel, ambient: ambientA, flash: flashA, outputs.a)
                                store(pixel: pixel, ambient: ambientB, flash: flashB, outputs.b)
                                row.means[x] = ambientA + flashA + a.dark
                                row.second[x] = ambientB + flashB + b.dark
                                row.pattern[x] = a.pattern(pixel: pixel, normals)
                            }
                            a.exposeRow(first, width, row.means, row.pattern, normals, poisson, outputs.a)
                            b.exposeRow(first, width, row.second, row.pattern, normals, poisson, outputs.b)
                        }
                    }
                }
            }
        }
    }

    /// The temporal noise chain over one row of `count` pixels starting at pixel `first`, specialised
    /// on whether the frame keeps its electrons plane (one test per row, not per value).
    func exposeRow(
        _ first: Int, _ count: Int, _ means: UnsafeMutablePointer<SIMD4<Float>>,
        _ patterns: UnsafeMutablePointer<Pattern>,
        _ normals: NormalTable, _ poisson: PoissonTable, _ output: Output
    ) {
        if let plane = output.electrons {
            exposeRow(first, count, means, patterns, normals, poisson, output, KeptElectrons(plane: plane))
        } else {
            exposeRow(first, count, means, patterns, normals, poisson, output, NoElectrons())
        }
    }

    private func exposeRow<E: ElectronsSink>(
        _ first: Int, _ count: Int, _ means: UnsafeMutablePointer<SIMD4<Float>>,
        _ patterns: UnsafeMutablePointer<Pattern>,
        _ normals: NormalTable, _ poisson: PoissonTable, _ output: Output, _ sink: E
    ) {
        for x in 0..<count {
            expose(pixel: first &+ x, means[x], patterns[x], normals, poisson, output, sink)
        }
    }

    /// The fixed pattern of a pixel: fixed stream draws 8·pixel + 0 (PRNU) and + 2 (DSNU).
    @inline(__always) func pattern(pixel: Int, _ normals: NormalTable) -> Pattern {
        let base = UInt64(truncatingIfNeeded: pixel) &* 8
        var p = Pattern()
        if prnu > 0 {
            let bits = CounterRandom.draw(streamKey: fixedKey, index: base)
            p.gain += prnu * normals.normals3(bits)
        }
        if dsnu > 0 {
            let bits = CounterRandom.draw(streamKey: fixedKey, index: base + 2)
            p.offset = dsnu * normals.normals3(bits)
        }
        return p
    }

    /// The temporal noise chain of one pixel, given its channel means (dark signal included) in lanes 0–2.
    /// Counter layout per pixel and stream: draws 8·pixel + 0…7. Temporal: 0 (the three channels' normals),
    /// 2…4 (Poisson bits per channel).
    ///
    /// The three channels run in the lanes of one vector: every step is the scalar chain's IEEE operation
    /// lane by lane (no fused multiply-add), so the values are those of a channel-by-channel chain.
    @inline(__always) private func expose<E: ElectronsSink>(
        pixel: Int, _ mu: SIMD4<Float>, _ p: Pattern, _ normals: NormalTable, _ poisson: PoissonTable,
        _ output: Output, _ sink: E
    ) {
        let base = UInt64(truncatingIfNeeded: pixel) &* 8
        let z = normals.normals3(CounterRandom.draw(streamKey: temporalKey, index: base))
        // Shot ≈ N(μ, μ/n) and read ~ N(0, σ²) are independent: one draw of N(μ, μ/n + σ²) per channel.
        // With n = 1 both products are exact, so a photosite's values are unchanged.
        var e = mu + Lanes.squareRoot(mu * shotScale + readSquared) * z
        let small = Lanes.lessThan(mu * photosites, PoissonTable.limit) & 0b111
        if small != 0 {
            // Small signals: Poisson shot noise (its own 64 bits per channel), z as read noise.
            if small & 1 != 0 { e[0] = smallSignal(mu[0], z[0], base &+ 2, poisson) }
            if small & 2 != 0 { e[1] = smallSignal(mu[1], z[1], base &+ 3, poisson) }
            if small & 4 != 0 { e[2] = smallSignal(mu[2], z[2], base &+ 4, poisson) }
        }
        e = Lanes.minimum(e * p.gain + p.offset, fullWell)
        let index = pixel &* 3
        sink.store(e, at: index)
        // Round half up; codes below zero clip to zero, so truncation toward zero is ⌊c⌋.
        let c = Lanes.minimum(Lanes.maximum(blackLevel + gain * e + 0.5, 0), codeCeiling)
        Lanes.storeTruncated(c, to: output.dn.base + index)
    }

    /// A channel whose n photosites hold under `PoissonTable.limit`: their Poisson count over n, plus read noise.
    @inline(__always) private func smallSignal(
        _ mu: Float, _ z: Float, _ draw: UInt64, _ poisson: PoissonTable
    ) -> Float {
        let bits = CounterRandom.draw(streamKey: temporalKey, index: draw)
        return poisson.sample(mean: max(mu * photosites, 0), bits: bits) / photosites + read * z
    }
}

/// Where the shading pass puts a frame's noisy electrons. The pixel loop is specialised for each
/// kind, so a frame without the plane pays no per-value test for it.
protocol ElectronsSink {
    /// Stores lanes 0–2 (a pixel's channels) at `index`…`index + 2`.
    func store(_ value: SIMD4<Float>, at index: Int)
}

/// The frame keeps its electrons plane.
struct KeptElectrons: ElectronsSink {
    let plane: SharedPointer<Float>
    @inline(__always) func store(_ value: SIMD4<Float>, at index: Int) { Lanes.store3(value, to: plane.base + index) }
}

/// The frame leaves the plane out (`RenderOptions.keepsElectrons` false).
struct NoElectrons: ElectronsSink {
    @inline(__always) func store(_ value: SIMD4<Float>, at index: Int) {}
}

/// Σⱼ factor[slotⱼ] · rate[material, j] over one frame's list of slots, the additions in list order
/// whatever the specialisation, so every kind gives the same bits.
protocol SlotSum {
    func sum(
        _ factors: some FactorPixel, _ m: Int, _ rates: UnsafeBufferPointer<SIMD4<Float>>
    ) -> SIMD4<Float>
}

/// An empty list (the flash does not fire).
struct NoSlots: SlotSum {
    @inline(__always) func sum(
        _ factors: some FactorPixel, _ m: Int, _ rates: UnsafeBufferPointer<SIMD4<Float>>
    ) -> SIMD4<Float> { .zero }
}

/// A list length the compiler knows, so that `FixedSlots` unrolls its sum.
protocol SlotCount {
    static var count: Int { get }
}

/// One light's diffuse and specular slots.
enum Two: SlotCount { static var count: Int { 2 } }
/// Three slots (a light with a specular slot and one without).
enum Three: SlotCount { static var count: Int { 3 } }
/// A two-module flash.
enum Four: SlotCount { static var count: Int { 4 } }
/// Five slots, a Constant Color pair's usual ambient list.
enum Five: SlotCount { static var count: Int { 5 } }
/// A three-module flash.
enum Six: SlotCount { static var count: Int { 6 } }

/// The usual short lists: the slot indices copied out of the list once per band, so the pixel loop holds them
/// as values instead of reloading them past its stores, and the sum unrolled for `Count`.
struct FixedSlots<Count: SlotCount>: SlotSum {
    let slots: SIMD8<Int>
    init(_ list: UnsafeBufferPointer<Int>) {
        var copy = SIMD8<Int>.zero
        for j in 0..<Count.count { copy[j] = list[j] }
        slots = copy
    }
    @inline(__always) func sum(
        _ factors: some FactorPixel, _ m: Int, _ rates: UnsafeBufferPointer<SIMD4<Float>>
    ) -> SIMD4<Float> {
        let r = m &* Count.count
        var total = SIMD4<Float>.zero
        for j in 0..<Count.count { total += factors[slots[j]] * rates[r &+ j] }
        return total
    }
}

/// Any count, read per pixel, with the counts up to five spelled out.
struct ListedSlots: SlotSum {
    let slots: UnsafeBufferPointer<Int>
    init(_ slots: UnsafeBufferPointer<Int>) { self.slots = slots }
    @inline(__always) func sum(
        _ factors: some FactorPixel, _ m: Int, _ rates: UnsafeBufferPointer<SIMD4<Float>>
    ) -> SIMD4<Float> { ShadingPass.sum(factors, m, slots, rates) }
}
