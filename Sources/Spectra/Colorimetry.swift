/// Colour of reflecting surfaces under an illuminant (CIE 15:2018 §7.1, eq. 7.1–7.3).
public enum Colorimetry {
    /// Tristimulus values of a surface, normalised so the perfect diffuser has Y = 100:
    /// X = k Σ R S x̄ Δλ with k = 100 / Σ S ȳ Δλ.
    public static func xyz(reflectance: Spectrum, illuminant: Spectrum) -> XYZ {
        let k = 100 / illuminant.integral(times: CIE1931.yBar)
        return XYZ(CIE1931.tristimulus(reflectance * illuminant).vector * k)
    }

    /// The white point of an illuminant: the perfect diffuser's XYZ, Y = 100.
    public static func whitePoint(of illuminant: Spectrum) -> XYZ {
        let t = CIE1931.tristimulus(illuminant)
        return XYZ(t.vector * (100 / t.Y))
    }

    /// CIELAB of a surface, with the illuminant's perfect diffuser as reference white.
    public static func lab(reflectance: Spectrum, illuminant: Spectrum) -> Lab {
        Lab(xyz(reflectance: reflectance, illuminant: illuminant), white: whitePoint(of: illuminant))
    }
}
