import Imaging

/// The geometry cache's light factors: single-precision Floats, or at two bytes each (`RenderOptions.halfFactors`),
/// an IEEE half-precision value per factor, scaled by a power of two chosen per band of rows and per slot.
///
/// A factor (a light's cos θ / d², with its beam and lobe, `GeometryPass`) feeds a pixel's mean signal, around
/// which the noise chain then draws shot noise. Half precision keeps 11 significant bits, a relative rounding of
/// at most 2⁻¹¹ (0.05 %), far below the sensor's own pixel-to-pixel gain spread (PRNU, a percent or so) and its
/// shot noise. Its range (2⁻¹⁴ to 65504) is too narrow for every scene's factors, so each band of `bandRows` rows
/// and each slot get a scale 2ᵏ that puts the band's largest factor of that slot in [2¹⁴, 2¹⁵); a factor below
/// 2⁻¹⁴ of that scale (2⁻²⁹ of the band's largest) is stored as 0. The scales depend on the band's own factors
/// only, so the stored values do not depend on the number of threads.
///
/// A stored pattern h (exponent field ≥ 1 or h = 0) decodes exactly as the Float whose bits are h << 13,
/// multiplied by 2^(112 + k): that Float is the half value times 2⁻¹¹², a normal number, and a product by a power
/// of two is exact. `encode` rounds half to even, as `Float16.init(_: Float)` does, which the tests hold it to.
package struct PackedFactors: Sendable {
    /// The factors, index pixel × slots + slot.
    enum Storage: Sendable {
        /// Single precision.
        case single([Float])
        /// Half-precision patterns, and per band and slot 2^(112 + k), their decoding multiplier.
        case half(bits: [UInt16], scales: [Float])
    }

    /// Rows that share one scale per slot.
    let bandRows: Int
    /// Factors per pixel.
    let slots: Int
    let storage: Storage

    init(bandRows: Int, slots: Int, storage: Storage) {
        precondition(bandRows > 0 && bandRows & (bandRows - 1) == 0, "bands of a power of two rows")
        self.bandRows = bandRows
        self.slots = slots
        self.storage = storage
    }

    /// The largest and smallest k: 112 + k stays within a Float's exponents, and a band whose factors all lie
    /// below 2⁻¹⁰⁰ (nothing a sensor could count) stores zeros.
    package static let largestShift = 15
    package static let smallestShift = -100

    /// The k for a band's largest factor `largest` (≥ 0) of a slot: largest·2⁻ᵏ in [2¹⁴, 2¹⁵).
    package static func shift(largest: Float) -> Int {
        guard largest > 0, largest.isFinite else { return 0 }
        return min(max(Int(largest.exponent) - 14, smallestShift), largestShift)
    }

    /// The decoding multiplier 2^(112 + k).
    package static func scale(shift k: Int) -> Float { Float(sign: .plus, exponent: 112 + k, significand: 1) }

    /// The pattern of factor `x` (≥ 0) under shift k: x·2⁻ᵏ rounded to half precision, half to even, with values
    /// below the smallest normal half stored as 0 and values above the largest half stored as the largest.
    @inline(__always) package static func encode(_ x: Float, inverseScale: Float) -> UInt16 {
        Lanes.halfPattern(x * inverseScale)
    }

    /// 2⁻ᵏ, which `encode` multiplies by (exact: a power of two).
    package static func inverseScale(shift k: Int) -> Float { Float(sign: .plus, exponent: -k, significand: 1) }

    /// The factor a pattern stands for, given its band's and slot's decoding multiplier.
    @inline(__always) package static func decode(_ h: UInt16, scale: Float) -> Float {
        Float(bitPattern: UInt32(h) &<< 13) * scale
    }

    /// Packs one band: `count` pixels of `slots` factors each (`factors`, pixel-major), into `bits` and the band's
    /// `slots` scales. Pixels whose `materials` entry is `none` (nothing hit) have unwritten factors, which are
    /// neither read nor stored: their patterns are 0.
    package static func pack(
        _ factors: UnsafePointer<Float>, materials: UnsafePointer<UInt16>, none: UInt16, count: Int, slots: Int,
        into bits: UnsafeMutablePointer<UInt16>, scales: UnsafeMutablePointer<Float>
    ) {
        pack(
            factors, gains: nil, materials: materials, none: none, count: count, slots: slots, into: bits,
            scales: scales)
    }

    /// Packs one band as above, each pixel's factors first multiplied by its gain (`gains`, one a pixel: the lens's
    /// relative illumination), exactly as `LensShading.apply` multiplies them before packing, in one read of the
    /// band instead of a multiplication pass of its own.
    package static func pack(
        _ factors: UnsafePointer<Float>, gains: UnsafePointer<Float>?, materials: UnsafePointer<UInt16>, none: UInt16,
        count: Int, slots: Int, into bits: UnsafeMutablePointer<UInt16>, scales: UnsafeMutablePointer<Float>
    ) {
        // Two sweeps over the band, each reading a pixel's slots together, four at a time and the rest one by one:
        // the largest factor of each slot, then the patterns. Each lane is the scalar step: a product by 1 is the
        // factor itself, bit for bit, and the larger of two factors is the same value whichever keeps it.
        let inverse = UnsafeMutablePointer<Float>.allocate(capacity: slots)
        defer { inverse.deallocate() }
        inverse.initialize(repeating: 0, count: slots)
        let whole = slots & ~3
        for p in 0..<count where materials[p] != none {
            let f = factors + p &* slots, g = gains?[p] ?? 1
            for j in stride(from: 0, to: whole, by: 4) {
                let v = UnsafeRawPointer(f + j).loadUnaligned(as: SIMD4<Float>.self) * g
                let m = UnsafeMutableRawPointer(inverse + j)
                m.storeBytes(of: Lanes.maximum(v, m.loadUnaligned(as: SIMD4<Float>.self)), as: SIMD4<Float>.self)
            }
            for j in whole..<slots { inverse[j] = max(inverse[j], f[j] * g) }
        }
        for j in 0..<slots {
            let k = shift(largest: inverse[j])
            scales[j] = scale(shift: k)
            inverse[j] = inverseScale(shift: k)
        }
        for p in 0..<count {
            let f = factors + p &* slots, b = bits + p &* slots, g = gains?[p] ?? 1
            guard materials[p] != none else {
                b.update(repeating: 0, count: slots)
                continue
            }
            for j in stride(from: 0, to: whole, by: 4) {
                let v = UnsafeRawPointer(f + j).loadUnaligned(as: SIMD4<Float>.self) * g
                let scale = UnsafeRawPointer(inverse + j).loadUnaligned(as: SIMD4<Float>.self)
                Lanes.storeHalfPatterns(v * scale, to: b + j)
            }
            for j in whole..<slots { b[j] = encode(f[j] * g, inverseScale: inverse[j]) }
        }
    }

    /// A pixel's half-precision factors and its band's multipliers.
    struct HalfPixel: FactorPixel {
        let bits: UnsafePointer<UInt16>
        let scales: UnsafePointer<Float>

        @inline(__always) subscript(slot: Int) -> Float { PackedFactors.decode(bits[slot], scale: scales[slot]) }
    }

    /// A pixel's single-precision factors.
    struct SinglePixel: FactorPixel {
        let floats: UnsafePointer<Float>

        @inline(__always) subscript(slot: Int) -> Float { floats[slot] }
    }

    /// The half-precision plane, for the pixel loops.
    struct HalfPlane: FactorPlane {
        let bits: UnsafePointer<UInt16>
        let scales: UnsafePointer<Float>
        let slots: Int
        /// log₂ of the band height.
        let bandShift: Int

        @inline(__always) func pixel(_ pixel: Int, row y: Int) -> HalfPixel {
            HalfPixel(bits: bits + pixel &* slots, scales: scales + (y &>> bandShift) &* slots)
        }
    }

    /// The single-precision plane, for the pixel loops.
    struct SinglePlane: FactorPlane {
        let floats: UnsafePointer<Float>
        let slots: Int

        @inline(__always) func pixel(_ pixel: Int, row y: Int) -> SinglePixel {
            SinglePixel(floats: floats + pixel &* slots)
        }
    }

    /// The planes as pointers. A pixel loop takes `half` or `single` by the precision (`isHalf` says which) as a
    /// generic parameter, so that it reads its factors without a test per read.
    struct Buffers {
        private let halfPlane: HalfPlane?
        private let singlePlane: SinglePlane?

        init(half: HalfPlane) { (halfPlane, singlePlane) = (half, nil) }
        init(single: SinglePlane) { (halfPlane, singlePlane) = (nil, single) }

        var isHalf: Bool { halfPlane != nil }
        var half: HalfPlane {
            guard let halfPlane else { preconditionFailure("the factors are at single precision") }
            return halfPlane
        }
        var single: SinglePlane {
            guard let singlePlane else { preconditionFailure("the factors are at half precision") }
            return singlePlane
        }
    }

    func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        // A frame has at least one pixel and one slot (`GeometryCache` keeps one even without lights).
        switch storage {
        case let .single(floats):
            return floats.withUnsafeBufferPointer { f in
                guard let base = f.baseAddress else { preconditionFailure("a factor plane has at least one pixel") }
                return body(Buffers(single: SinglePlane(floats: base, slots: slots)))
            }
        case let .half(bits, scales):
            return bits.withUnsafeBufferPointer { b in
                scales.withUnsafeBufferPointer { s in
                    guard let bits = b.baseAddress, let scales = s.baseAddress else {
                        preconditionFailure("a factor plane has at least one pixel")
                    }
                    return body(
                        Buffers(
                            half: HalfPlane(
                                bits: bits, scales: scales, slots: slots, bandShift: bandRows.trailingZeroBitCount)))
                }
            }
        }
    }
}

/// A pixel's light factors, read by slot.
protocol FactorPixel {
    subscript(slot: Int) -> Float { get }
}

/// Where each pixel's light factors lie.
protocol FactorPlane {
    associatedtype Pixel: FactorPixel
    /// The factors of `pixel`, which lies in row `y`.
    func pixel(_ pixel: Int, row y: Int) -> Pixel
}
