import Foundation

extension Illuminants {
    /// The valid CCT range of the CIE daylight model, in kelvin (CIE 15:2018 §4.1.2).
    public static let daylightRange: ClosedRange<Double> = 4000...25000

    /// The CIE daylight illuminant at a correlated colour temperature (CIE 15:2018 §4.1.2):
    /// S(λ) = S0(λ) + M1·S1(λ) + M2·S2(λ), which is 100 at 560 nm.
    ///
    /// M1 and M2 are rounded to three decimals as CIE 15 prescribes, so 6504 K reproduces the
    /// tabulated D65. Throws outside 4000…25000 K, where the daylight locus is not defined.
    public static func daylight(cct: Double) throws -> Spectrum {
        guard daylightRange.contains(cct) else {
            throw SpectraError(
                "the CIE daylight model is defined for 4000…25000 K, got \(cct) K; "
                    + "use Illuminants.planckian(cct:) or make(cct:model: .auto) for lower temperatures")
        }
        return daylight(chromaticity: daylightLocus(cct: cct))
    }

    /// The chromaticity of the daylight locus at a CCT (CIE 15:2018 eq. 4.7–4.9), 4000…25000 K.
    static func daylightLocus(cct t: Double) -> Chromaticity {
        let t2 = t * t, t3 = t2 * t
        let x = t <= 7000
            ? -4.6070e9 / t3 + 2.9678e6 / t2 + 0.09911e3 / t + 0.244063
            : -2.0064e9 / t3 + 1.9018e6 / t2 + 0.24748e3 / t + 0.237040
        return Chromaticity(x: x, y: -3.000 * x * x + 2.870 * x - 0.275)
    }

    /// The daylight SPD for a chromaticity on (or near) the daylight locus (CIE 15:2018 eq. 4.10–4.12).
    static func daylight(chromaticity c: Chromaticity) -> Spectrum {
        let m = 0.0241 + 0.2562 * c.x - 0.7341 * c.y
        let m1 = roundedToThousandths((-1.3515 - 1.7703 * c.x + 5.9114 * c.y) / m)
        let m2 = roundedToThousandths((0.0300 - 31.4424 * c.x + 30.0717 * c.y) / m)
        return Spectrum(values: (0..<Spectrum.count).map {
            IlluminantData.daylightS0[$0] + m1 * IlluminantData.daylightS1[$0] + m2 * IlluminantData.daylightS2[$0]
        })
    }

    private static func roundedToThousandths(_ v: Double) -> Double {
        (v * 1000).rounded(.toNearestOrEven) / 1000
    }
}
