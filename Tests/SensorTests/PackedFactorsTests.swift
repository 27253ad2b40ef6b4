import Foundation
import Sensor
import Testing

/// The geometry cache's half-precision factors (`PackedFactors`) against Swift's own `Float16`, the plain reference:
/// the bit tricks of `encode` and `decode` must round and widen exactly as it does.
struct PackedFactorsTests {
    /// Every half pattern with a normal exponent (and zero) decodes to the `Float16` value times 2ᵏ, for shifts
    /// across the range the cache uses.
    @Test(arguments: [PackedFactors.smallestShift, -20, -1, 0, 7, PackedFactors.largestShift])
    func decodingWidensAsFloat16Does(shift k: Int) {
        let scale = PackedFactors.scale(shift: k)
        let power = Float(sign: .plus, exponent: k, significand: 1)
        var wrong = 0
        for h in [UInt16(0)] + Array(UInt16(0x0400)...UInt16(0x7bff)) {
            if PackedFactors.decode(h, scale: scale) != Float(Float16(bitPattern: h)) * power { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    /// Encoding rounds half to even as `Float16(_:)` does, over values spread across twelve octaves with ties, their
    /// neighbours and the ends of the half range; values below the smallest normal half become 0.
    @Test(arguments: [-30, 0, 9])
    func encodingRoundsAsFloat16Does(shift k: Int) {
        let inverse = PackedFactors.inverseScale(shift: k)
        let power = Float(sign: .plus, exponent: k, significand: 1)
        var values: [Float] = [0, 0x1p-15, 0x1p-14, 65504, 65519, 0x1.ffcp15]
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bits = UInt32(truncatingIfNeeded: state >> 32)
            // A value in [2⁻¹⁴, 2¹⁵): exponent from the high bits, every mantissa bit from the low ones.
            let v = Float(bitPattern: ((113 + (bits >> 27) % 29) << 23) | (bits & 0x7f_ffff))
            values.append(v)
            // The tie between v's two nearest halves, and its neighbours.
            let tie = Float(bitPattern: (v.bitPattern & ~0x1fff) | 0x1000)
            values += [tie, tie.nextUp, tie.nextDown]
        }
        var wrong = 0
        for v in values {
            let x = v * power
            let expected: UInt16 = v < 0x1p-14 ? 0 : Float16(min(v, 65504)).bitPattern
            if PackedFactors.encode(x, inverseScale: inverse) != expected { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    /// A band's scale puts its largest factor of each slot in [2¹⁴, 2¹⁵), so every factor above 2⁻²⁹ of it comes
    /// back within half precision's rounding (2⁻¹¹ relative); pixels that show nothing store zeros, whatever their
    /// factors.
    @Test func packingKeepsEachSlotsFactorsToElevenBits() {
        let slots = 3, count = 500
        var factors: [Float] = []
        var materials: [UInt16] = []
        for p in 0..<count {
            let t = Float(p) / Float(count)
            // Slot 0 spans eight decades (under 2²⁹), slot 1 sits near 10⁶ (beyond half's own range), slot 2 is
            // all zero; pixel 1's slot 0 is then set to 2⁻³⁰ of that slot's largest, which is stored as 0.
            factors += [1e-4 * pow(1e8, t), 1e6 * (1 + t), 0]
            materials.append(p % 7 == 3 ? 0xffff : UInt16(p % 3))
        }
        factors[1 * slots] = 1e-4 * pow(1e8, Float(count - 1) / Float(count)) * 0x1p-30
        var bits = [UInt16](repeating: 0xaaaa, count: count * slots)
        var scales = [Float](repeating: 0, count: slots)
        PackedFactors.pack(
            factors, materials: materials, none: 0xffff, count: count, slots: slots, into: &bits, scales: &scales)
        var worst: Float = 0
        for p in 0..<count {
            for j in 0..<slots {
                let back = PackedFactors.decode(bits[p * slots + j], scale: scales[j])
                if materials[p] == 0xffff {
                    #expect(bits[p * slots + j] == 0)
                } else if p == 1 && j == 0 {
                    #expect(bits[p * slots + j] == 0, "a factor below 2⁻²⁹ of its slot's largest is stored as 0")
                } else if factors[p * slots + j] > 0 {
                    worst = max(worst, abs(back - factors[p * slots + j]) / factors[p * slots + j])
                } else {
                    #expect(back == 0)
                }
            }
        }
        #expect(worst <= 0x1p-11)
        #expect(worst > 0, "half precision rounds")
    }

    /// Packing with the lens's gains, as the geometry cache does, stores the patterns and scales that shading the
    /// factors in place (`LensShading.apply`, the plain reference) and then packing them stores, bit for bit: over a
    /// band of the shaded test camera with factors across six decades, pixels that show nothing, a zero slot, and a
    /// slot whose largest factor lies where the lens dims it most.
    @Test func packingWithTheLensGainsMatchesShadingThenPacking() {
        let camera = LensShadingTests.shadedCamera()
        let rows = 3..<7, slots = 4, count = rows.count * camera.width
        var factors: [Float] = []
        var materials: [UInt16] = []
        for p in 0..<count {
            let t = Float(p % 977) / 977
            factors += [1e-3 * pow(1e6, t), 0.5 + t, 0, p == count - 1 ? 9e5 : 3e4 * t * t]
            materials.append(p % 11 == 5 ? RawFrame.none : UInt16(p % 4))
        }
        var gains = [Float](repeating: 0, count: count)
        gains.withUnsafeMutableBufferPointer { g in
            for y in rows {
                camera.relativeIllumination(row: y, into: g.baseAddress! + (y - rows.lowerBound) * camera.width)
            }
        }
        #expect(gains.min()! < 0.95 && gains.max()! <= 1, "the lens dims the band")
        var fused = [UInt16](repeating: 0xaaaa, count: count * slots), fusedScales = [Float](repeating: 0, count: slots)
        PackedFactors.pack(
            factors, gains: gains, materials: materials, none: RawFrame.none, count: count, slots: slots,
            into: &fused, scales: &fusedScales)
        var shaded = factors
        materials.withUnsafeBufferPointer { m in
            LensShading.apply(camera: camera, slots: slots, rows: rows, materials: m.baseAddress!, to: &shaded)
        }
        var plain = [UInt16](repeating: 0x5555, count: count * slots), plainScales = [Float](repeating: 0, count: slots)
        PackedFactors.pack(
            shaded, materials: materials, none: RawFrame.none, count: count, slots: slots, into: &plain,
            scales: &plainScales)
        #expect(fused == plain)
        #expect(fusedScales == plainScales)
        #expect(Set(fused).count > 300, "the band holds many patterns")
    }

    /// A renderer that keeps its factors at half precision makes every noise-free component within 2⁻¹¹ of the one
    /// a single-precision renderer makes (a sum of factors each within 2⁻¹¹, times positive rates), on a scene with
    /// a flash, a glossy ball, a room light and background; the frames' DN differ by at most a code here and there.
    @Test func halfFactorsKeepEveryComponentWithinTheirRounding() {
        let scene = TurnedPairTests.scene(turn: .zero)
        func frame(_ half: Bool) -> RawFrame {
            Renderer(
                scene: scene, camera: TurnedPairTests.camera(), flash: TurnedPairTests.flash,
                options: RenderOptions(halfFactors: half)
            ).render(TurnedPairTests.flashed)
        }
        let single = frame(false), half = frame(true)
        var worst = 0.0, lit = 0
        let singles: [Float] = (single.flashElectrons ?? []) + (single.ambientElectrons ?? [])
        let halves: [Float] = (half.flashElectrons ?? []) + (half.ambientElectrons ?? [])
        for (a, b) in zip(singles, halves) where a > 1 {
            worst = max(worst, abs(Double(b) / Double(a) - 1))
            lit += 1
        }
        #expect(lit > 10_000)
        #expect(worst <= 0x1p-11 + 1e-6, "worst relative difference \(worst)")
        #expect(worst > 0, "half precision rounds")
        let codes = zip(single.dn, half.dn).map { abs(Int($0) - Int($1)) }
        #expect((codes.max() ?? 0) <= 1)
    }

    /// Half-precision factors are scaled band by band from the band's own factors: the frames are the same bytes on
    /// one thread and on three, with the turned pair's cached sums too.
    @Test func halfFactorsAreTheSameOnAnyNumberOfThreads() throws {
        let scene = TurnedPairTests.scene(turn: TurnedPairTests.turn)
        let later = scene.advanced(by: TurnedPairTests.interval)
        func pair(_ threads: Int) throws -> (RawFrame, RawFrame) {
            let renderer = Renderer(
                scene: scene, camera: TurnedPairTests.camera(), flash: TurnedPairTests.flash,
                options: RenderOptions(threadCount: threads, halfFactors: true))
            return try #require(renderer.render(TurnedPairTests.ambient, TurnedPairTests.flashed, turnedTo: later))
        }
        let one = try pair(1), three = try pair(3)
        #expect(one.0.dn == three.0.dn && one.1.dn == three.1.dn)
        #expect(one.0.electrons == three.0.electrons && one.1.electrons == three.1.electrons)
    }
}
