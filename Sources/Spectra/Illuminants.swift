/// How `Illuminants.make` builds a light of a given CCT.
public enum IlluminantModel: String, CaseIterable, Sendable {
    /// The CIE daylight model (4000…25000 K).
    case daylight
    /// A Planckian radiator.
    case planckian
    /// Planckian below 5000 K, daylight from 5000 K: the reference-illuminant rule of CIE 13.3
    /// (colour rendering), which avoids the daylight formula's extrapolation below 4000 K.
    case auto
}

/// Illuminant spectral power distributions, relative (100 at 560 nm unless stated).
public enum Illuminants {
    /// CIE standard illuminant D65 (CIE 15:2018 Table 5, via colour-science).
    public static let d65 = Spectrum(values: IlluminantData.d65)
    /// CIE standard illuminant A, a 2856 K Planckian radiator (CIE 15:2018 Table 5).
    public static let a = Spectrum(values: IlluminantData.a)

    /// One of the CIE 15:2018 LED illuminants.
    public static func cie(_ led: CIELEDIlluminant) -> Spectrum {
        guard let values = IlluminantData.led[led.rawValue] else {
            preconditionFailure("no table for \(led.rawValue)")
        }
        return Spectrum(values: values)
    }

    /// Below this CCT `IlluminantModel.auto` uses a Planckian radiator (CIE 13.3).
    public static let autoDaylightThreshold = 5000.0

    /// A light of the given CCT and Duv built with the chosen model.
    ///
    /// With Duv = 0 this is the model's own spectrum (its chromaticity is the daylight locus for
    /// `.daylight`, about Duv +0.003). With Duv ≠ 0 the model's spectrum is tinted by the
    /// band recipe of `tinted(cct:duv:)` so that the result hits (CCT, Duv) exactly.
    public static func make(cct: Double, duv: Double = 0, model: IlluminantModel = .auto) throws -> Spectrum {
        let useDaylight: Bool
        switch model {
        case .daylight: useDaylight = true
        case .planckian: useDaylight = false
        case .auto: useDaylight = cct >= autoDaylightThreshold
        }
        if useDaylight {
            guard daylightRange.contains(cct) else {
                throw SpectraError("the daylight model covers 4000…25000 K, got \(cct) K")
            }
            return duv == 0 ? try daylight(cct: cct) : try TintedIlluminant.solve(cct: cct, duv: duv, base: .daylight)
        }
        return duv == 0 ? planckian(cct: cct) : try TintedIlluminant.solve(cct: cct, duv: duv, base: .planckian)
    }

    /// A Planckian-based light tinted green (Duv > 0) or magenta (Duv < 0) that hits (CCT, Duv).
    ///
    /// S(λ) = B(λ; T′)·(1 + k·g(λ)), k > −1, with g a green Gaussian (Duv ≥ 0) or red and blue
    /// wings (Duv < 0) aimed along the isotemperature line, and (T′, k) found by damped Newton
    /// steps on the CIE 1960 uv target; an extension of the project colour spec §1.5 recipe.
    /// |Duv| ≤ 0.05. Throws for targets no light can have (warm and very green, e.g. 3000 K at
    /// Duv +0.05, where x + y > 1).
    public static func tinted(cct: Double, duv: Double) throws -> Spectrum {
        try TintedIlluminant.solve(cct: cct, duv: duv, base: .planckian)
    }
}
