import Foundation

/// Planck's law for a full radiator (CIE 15:2018 §4.1, ITS-90 radiation constants).
enum Planck {
    /// First radiation constant c1 = 2πhc², W·m².
    static let c1 = 3.741771e-16
    /// Second radiation constant c2 = hc/k, m·K, the value colorimetry has used since ITS-90
    /// (the reason D65 sits at 6504 K rather than 6500 K).
    static let c2 = 1.4388e-2

    /// Spectral exitance M(λ, T) = c1 / (λ⁵ (exp(c2/(λT)) − 1)), W·m⁻³, for λ in nanometres.
    static func exitance(wavelength nm: Double, temperature: Double) -> Double {
        let lambda = nm * 1e-9
        return c1 / (pow(lambda, 5) * expm1(c2 / (lambda * temperature)))
    }
}

extension Illuminants {
    /// A full (Planckian) radiator at `cct` kelvin, normalised to 100 at 560 nm like CIE illuminant A.
    public static func planckian(cct: Double) -> Spectrum {
        precondition(cct > 0, "a Planckian radiator needs a positive temperature, got \(cct) K")
        let reference = Planck.exitance(wavelength: 560, temperature: cct)
        return Spectrum { 100 * Planck.exitance(wavelength: $0, temperature: cct) / reference }
    }
}
