import Spectra

extension SpectrumSource {
    /// The spectrum on Spectra's 380–780 nm grid, relative (as the source defines it).
    ///
    /// A peak shift of Δ nm moves the curve along the wavelength axis: S'(λ) = S(λ − Δ), sampled by
    /// linear interpolation with the end values held beyond the grid.
    public var spectrum: Spectrum {
        switch self {
        case let .cieLED(name, shift):
            // The loader accepts only the names of `cieLEDNames`, which are Spectra's raw values.
            let led = CIELEDIlluminant(rawValue: name) ?? .b4
            let base = Illuminants.cie(led)
            return shift == 0 ? base : Spectrum { base.value(at: $0 - shift) }
        case let .ohnoLED(peak, width):
            return Illuminants.led(peakWavelength: peak, halfSpectralWidth: width)
        case let .multiLED(peaks, widths, ratios):
            return Illuminants.multiLED(peakWavelengths: peaks, halfSpectralWidths: widths, peakPowerRatios: ratios)
        case let .samples(wavelengths, values):
            return Spectrum(wavelengths: wavelengths, values: values)
        }
    }
}

extension SpectralSensitivities {
    /// The three quantum-efficiency curves on Spectra's grid.
    ///
    /// A named set is scaled so that its green peak equals `peakQE`; unknown names fall back to the
    /// Nikon D5100 set (the loader reports unknown names before this is reached).
    public var rgb: RGBSensitivities {
        switch model {
        case let .gaussianMixture(red, green, blue):
            func curve(_ lobes: [Lobe]) -> Spectrum { Spectrum { λ in lobes.reduce(0) { $0 + $1.value(at: λ) } } }
            return RGBSensitivities(red: curve(red), green: curve(green), blue: curve(blue))
        case let .named(_, peakQE):
            let set = CameraSensitivities.nikonD5100
            let k = peakQE / set.green.maximum
            return RGBSensitivities(red: set.red * k, green: set.green * k, blue: set.blue * k)
        case let .samples(wavelengths, red, green, blue):
            return RGBSensitivities(
                red: Spectrum(wavelengths: wavelengths, values: red),
                green: Spectrum(wavelengths: wavelengths, values: green),
                blue: Spectrum(wavelengths: wavelengths, values: blue))
        }
    }

    /// The measured sets `model: named` may use.
    public static let namedSets = ["nikon-d5100"]
}
