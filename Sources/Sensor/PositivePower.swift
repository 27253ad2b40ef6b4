import Foundation

/// xᵐ for 0 < x ≤ 1 and m > 0, as 2^(m·log₂ x).
///
/// The beam falloff cos^m α and the Blinn–Phong lobe cos^n θ_h are evaluated per pixel and per
/// light; `pow` spends most of its time on the general case (negative bases, integer exponents,
/// overflow) that these never reach. log₂ and exp2 in double precision keep the relative error
/// near 10⁻¹⁵·|m·log₂ x|, far inside any tolerance the physics needs.
enum PositivePower {
    @inline(__always) static func of(_ x: Double, _ m: Double) -> Double {
        if m < 1024 {
            // Single precision: rounding x to Float moves log₂ x by ≤ 9·10⁻⁸ (x ≥ ½) or 6·10⁻⁸ of
            // itself (x < ½), so the result moves by at most m·9·10⁻⁸ ≤ 10⁻⁴ of itself (and
            // log2f/exp2f add a few 10⁻⁷): well inside what the beam and lobe models claim, at
            // a third of the cost of the double-precision pair.
            let y = Float(m) * log2f(Float(x))
            return y < -149 ? 0 : Double(exp2f(y))
        }
        let y = m * log2(x)
        // Below 2⁻¹⁰⁷⁴ the result is zero; skipping exp2 there also avoids its underflow path.
        return y < -1074 ? 0 : exp2(y)
    }
}
