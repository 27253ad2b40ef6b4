/// A material's Blinn–Phong lobe terms, fixed per material, so the light loops' lobe
/// (`GeometryPass.lobe`) reads one entry instead of deriving them per pixel.
///
/// The lobe is (n + 8)/8·cosⁿ θ_h = (n + 8)/8·(cos² θ_h)^(n/2). Where n/2 is a small whole
/// number (roughness ½ gives n = 30, the common default) the power is taken by repeated squaring:
/// at most 2·log₂ 64 = 12 roundings, relative error below 1.4·10⁻¹⁵, against the ~10⁻⁷ of the
/// general path's single-precision-accurate logarithm and exponential (`InlinePower`).
struct LobeTerm: Sendable {
    /// n; infinite for a matte material (no lobe).
    let exponent: Double
    /// (n + 8)/8.
    let scale: Double
    /// n/2 where it is a whole number in 1...64, 0 where the general path applies, −1 for a
    /// matte material.
    let halfPower: Int
    /// A cos θ_h at or below which the lobe is surely cut: n·(1 − cos² θ_h) ≥ 80·(1 + 10⁻⁹) + 10⁻⁹·n,
    /// that is cos θ_h ≤ √(1 − 80·(1 + 10⁻⁹)/n − 10⁻⁹); −2 (never) where no angle is cut.
    /// `GeometryPass.LobeBound` compares a group's bound of cos θ_h with it.
    let cutCosine: Double

    init(exponent n: Double) {
        exponent = n
        scale = (n + 8) / 8
        let sine2 = GeometryPass.LobeBound.cut / n + 1e-9
        cutCosine = n > 0 && sine2 < 1 ? (1 - sine2).squareRoot() : -2
        if !n.isFinite {
            halfPower = -1
        } else if n / 2 >= 1 && n / 2 <= 64 && (n / 2).rounded() == n / 2 {
            halfPower = Int(n / 2)
        } else {
            halfPower = 0
        }
    }

    /// xᵏ for k ≥ 1 by repeated squaring.
    @inline(__always) static func power(_ x: Double, _ k: Int) -> Double {
        // k = 15 (roughness ½, the scene files' default) by the chain x² x³ x⁶ x¹² x¹⁵: five products.
        if k == 15 {
            let x3 = x * x * x
            let x6 = x3 * x3
            return x6 * x6 * x3
        }
        var result = x
        var base = x
        var e = k >> 1
        // The lowest bit first: result starts at x for odd k, at 1 (then the first square) for even k.
        if k & 1 == 0 { result = 1 }
        while e != 0 {
            base *= base
            if e & 1 != 0 { result *= base }
            e >>= 1
        }
        return result
    }
}
