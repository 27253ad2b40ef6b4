import Imaging

/// xᵐ for 0 < x ≤ 1 and m > 0, as 2^(m·log₂ x) with both factors as inline polynomials.
///
/// The beam fall-off cos^m α and the Blinn–Phong lobe cos^n θ_h are evaluated per pixel and per
/// light. Calling libm's `log2f` and `exp2f` costs, besides their own work, a call each that the
/// pixel loop pays again in saved and restored state. Here x = 2ᵉ·s with s in
/// [√½, √2) and log₂ s = u·P(u²) with u = (s − 1)/(s + 1) (|u| ≤ 0.172, P of degree 3: relative
/// error below 7·10⁻¹⁰); y = m·log₂ x is split as k + f with k the nearest integer and |f| ≤ ½,
/// and 2ᶠ is a polynomial of degree 5 (relative error below 8·10⁻⁸). Both are weighted
/// least-squares fits at Chebyshev nodes (`tools/fit-inline-power.py`), in double precision.
/// The powers end up in single-precision factors, so the degrees are the lowest that keep the
/// result within Float's resolution: relative error of xᵐ below 1.0·10⁻⁷ for |y| ≤ 60 (every lobe
/// that is evaluated) and 1.7·10⁻⁷ for |y| ≤ 200, against mpmath at 30 digits.
enum InlinePower {
    /// 1.5·2⁵²: adding it rounds a double of magnitude below 2⁵¹ to an integer held in the low
    /// bits of the sum, without a conversion's range checks.
    private static let roundingShift = 6_755_399_441_055_744.0

    @inline(__always) static func of(_ x: Double, _ m: Double) -> Double {
        // Subnormal bases have no biased exponent to read; they never occur as cosines in practice.
        guard x >= smallestNormal else { return PositivePower.of(x, m) }
        return binaryExp(m * binaryLog(x))
    }

    /// `of` for a base below `smallestNormal`, out of line: inlined into a loop, the libm
    /// logarithm it holds is hoisted and paid on every pass (LLVM treats it as free of effects).
    @inline(never) static func belowNormal(_ x: Double, _ m: Double) -> Double {
        PositivePower.of(x, m)
    }

    /// The smallest base `binaryLog(_:)` takes: below it x has no biased exponent to read.
    static let smallestNormal = 2.2250738585072014e-308

    /// log₂ x for x ≥ `smallestNormal`. `of` is `binaryExp(m * binaryLog(x))`, so powers of one
    /// base with several exponents (the beams of co-located emitters) share this half.
    @inline(__always) static func binaryLog(_ x: Double) -> Double {
        let bits = x.bitPattern
        let mantissa = bits & 0x000F_FFFF_FFFF_FFFF
        // s = 1.mantissa > √2 (0x3FF6A09E667F3BCD) exactly when the mantissa field is the larger;
        // then s/2 (exact: the exponent field one lower) and e + 1, decided on the integer bits.
        let high = mantissa > 0x0006_A09E_667F_3BCD
        let e = Double(Int(truncatingIfNeeded: bits >> 52) &- (high ? 1022 : 1023))
        let s = Double(bitPattern: mantissa | (high ? 0x3FE0_0000_0000_0000 : 0x3FF0_0000_0000_0000))
        let u = (s - 1) / (s + 1)
        let w = u * u
        var p = 0.43173585326947295
        p = p * w + 0.5767143851053997
        p = p * w + 0.9617988476292082
        p = p * w + 2.8853900797889476
        return e + u * p
    }

    /// `binaryLog` in both lanes at once, for x ≥ `smallestNormal` in each (the caller checks): the
    /// same operations lane by lane, so each lane equals the scalar result bit for bit (the
    /// exponent e − 1023 and e − 1022 are small integers, exact in either form).
    @inline(__always) static func binaryLog(normal x: SIMD2<Double>) -> SIMD2<Double> {
        let bits = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        // The biased exponent as a double without a conversion: 2⁵² + e read back from its bits.
        let biased = unsafeBitCast((bits &>> 52) | 0x4330_0000_0000_0000, to: SIMD2<Double>.self)
        var e = biased - (4_503_599_627_370_496.0 + 1023)
        var s = unsafeBitCast(
            (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000, to: SIMD2<Double>.self)
        let high = s .> 1.4142135623730951
        s.replace(with: s * 0.5, where: high)
        e.replace(with: e + 1, where: high)
        let u = (s - 1) / (s + 1)
        let w = u * u
        var p = SIMD2<Double>(repeating: 0.43173585326947295)
        p = p * w + 0.5767143851053997
        p = p * w + 0.9617988476292082
        p = p * w + 2.8853900797889476
        return e + u * p
    }

    /// 2ʸ for y = m·log₂ x: zero for y ≤ −1022, infinite for y ≥ 1023.
    @inline(__always) static func binaryExp(_ y: Double) -> Double {
        // Below 2⁻¹⁰²² the power is zero for every use here (a factor beside others of order 1).
        guard y > -1022 else { return 0 }
        guard y < 1023 else { return .infinity }
        let shifted = y + roundingShift
        let k = Int64(Int32(truncatingIfNeeded: shifted.bitPattern))
        let f = y - (shifted - roundingShift)
        var q = 0.0013276456198301108
        q = q * f + 0.009675541209704807
        q = q * f + 0.0555071332236594
        q = q * f + 0.24022119726945942
        q = q * f + 0.6931469670348256
        q = q * f + 1.000000071653725
        return q * Double(bitPattern: UInt64(truncatingIfNeeded: k &+ 1023) << 52)
    }

    /// `binaryExp` in both lanes at once, for -1022 < y < 1023 (the caller checks): the same
    /// operations lane by lane, so each lane equals the scalar result bit for bit.
    @inline(__always) static func binaryExp(inRange y: SIMD2<Double>) -> SIMD2<Double> {
        let shifted = y + roundingShift
        // The low bits of the shifted sum hold k; only (k + 1023) mod 2¹² survives the shift to the
        // exponent field, and that depends on those low bits alone.
        let scale = Lanes.exponentScale(shifted)
        let f = y - (shifted - roundingShift)
        var q = SIMD2<Double>(repeating: 0.0013276456198301108)
        q = q * f + 0.009675541209704807
        q = q * f + 0.0555071332236594
        q = q * f + 0.24022119726945942
        q = q * f + 0.6931469670348256
        q = q * f + 1.000000071653725
        return q * scale
    }

    /// Whether −1022 < y < 1023 in both lanes (`binaryExp(inRange:)`'s domain), by one pair of
    /// vector comparisons; y is never NaN here (a finite exponent times a finite logarithm).
    @inline(__always) static func inRange(_ y: SIMD2<Double>) -> Bool {
        Lanes.bothBetween(y, -1022, 1023)
    }

    /// Both lanes rounded to Float (to nearest, as `Float(_:)`) by one conversion.
    @inline(__always) static func narrow(_ x: SIMD2<Double>) -> SIMD2<Float> {
        Lanes.narrowed(x)
    }

    /// `binaryExp(inRange: y) / d · c`, lane by lane in that order (the beams' g = cos^m α / d² · cos θ).
    @inline(__always) static func binaryExp(
        inRange y: SIMD2<Double>, over d: Double, times c: Double
    ) -> SIMD2<Double> {
        binaryExp(inRange: y) / d * c
    }
}
