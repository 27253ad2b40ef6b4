/// xᵐ for 0 < x ≤ 1 and m > 0, as 2^(m·log₂ x) with both factors as inline polynomials.
///
/// The beam fall-off cos^m α and the Blinn–Phong lobe cos^n θ_h are evaluated per pixel and per
/// light. Calling libm's `log2f` and `exp2f` costs, besides their own work, a call each and the
/// spilling of every vector register around it in the pixel loop. Here x = 2ᵉ·s with s in
/// [√½, √2), log₂ s = t·P(t) with t = s − 1 and P of degree 10 (relative error below 7·10⁻¹⁰),
/// and 2ᶠ for the fraction f in [0, 1) is a polynomial of degree 7 (relative error below 6·10⁻¹¹):
/// a fitted Chebyshev expansion in double precision, more accurate than the single-precision
/// pair it replaces. Coefficients: least-squares fits at Chebyshev nodes of the two intervals.
enum InlinePower {
    @inline(__always) static func of(_ x: Double, _ m: Double) -> Double {
        // Subnormal bases have no biased exponent to read; they never occur as cosines in practice.
        guard x >= 2.2250738585072014e-308 else { return PositivePower.of(x, m) }
        let bits = x.bitPattern
        var e = Int(truncatingIfNeeded: bits >> 52) - 1023
        var s = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
        if s > 1.4142135623730951 {
            s *= 0.5
            e += 1
        }
        let t = s - 1
        var p = 0.09724091998266815
        p = p * t - 0.16918810240592116
        p = p * t + 0.17202589762038009
        p = p * t - 0.1788829539476646
        p = p * t + 0.20504458402668493
        p = p * t - 0.24046901763248457
        p = p * t + 0.28857618350151071
        p = p * t - 0.36067410120335236
        p = p * t + 0.4808978886202126
        p = p * t - 0.72134751601250102
        p = p * t + 1.442695041801229
        let y = m * (Double(e) + t * p)
        // Below 2⁻¹⁰²² the power is zero for every use here (a factor beside others of order 1).
        guard y > -1022 else { return 0 }
        guard y < 1023 else { return .infinity }
        var whole = Int(y)
        if Double(whole) > y { whole -= 1 }
        let f = y - Double(whole)
        var q = 2.1651725182415382e-05
        q = q * f + 0.00014299400859032872
        q = q * f + 0.001342981078286516
        q = q * f + 0.0096135357255985893
        q = q * f + 0.05550529198092042
        q = q * f + 0.24022635776889761
        q = q * f + 0.69314718771032136
        q = q * f + 0.99999999994385447
        return q * Double(bitPattern: UInt64(whole + 1023) << 52)
    }
}
