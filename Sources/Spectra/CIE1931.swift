/// The CIE 1931 2° standard colorimetric observer (CIE 15:2018 §3.1), on Obscura's 5 nm grid.
public enum CIE1931 {
    /// x̄(λ).
    public static let xBar = Spectrum(values: CIE1931Data.xBar)
    /// ȳ(λ), identical to the photopic luminous efficiency V(λ).
    public static let yBar = Spectrum(values: CIE1931Data.yBar)
    /// z̄(λ).
    public static let zBar = Spectrum(values: CIE1931Data.zBar)

    /// Plain tristimulus sums X = Σ s(λ)·x̄(λ)·Δλ (and likewise Y, Z), with no normalisation.
    ///
    /// CIE 15:2018 §7.1 allows summation at 5 nm; this is colour-science's "Integration" method.
    public static func tristimulus(_ s: Spectrum) -> XYZ {
        XYZ(s.integral(times: xBar), s.integral(times: yBar), s.integral(times: zBar))
    }
}
