/// Photometric quantities from spectral ones (CIE 15:2018 §7.1; V(λ) = ȳ(λ) of the 1931 observer).
public enum Photometry {
    /// Km, the maximum luminous efficacy of photopic vision, in lm/W (SI definition of the candela:
    /// 683 lm/W at 540 THz).
    public static let maximumLuminousEfficacy = 683.0

    /// Illuminance in lux of a spectral irradiance given in W·m⁻²·nm⁻¹: Ev = Km Σ E(λ) V(λ) Δλ.
    public static func illuminance(irradiance: Spectrum) -> Double {
        maximumLuminousEfficacy * irradiance.integral(times: CIE1931.yBar)
    }

    /// A spectrum scaled so that, read as irradiance in W·m⁻²·nm⁻¹, it gives `lux`.
    public static func scaled(_ s: Spectrum, toIlluminance lux: Double) -> Spectrum {
        let current = illuminance(irradiance: s)
        precondition(current > 0, "a spectrum without visible power cannot be scaled to an illuminance")
        return s * (lux / current)
    }
}
