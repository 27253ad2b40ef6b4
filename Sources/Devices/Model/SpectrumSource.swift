/// A description of a spectrum in a profile, resolved to a `Spectrum` by `SpectrumSource+Spectrum`.
///
/// Profiles name spectra rather than list 81 samples: a CIE 15:2018 LED table, Ohno's (2005)
/// parametric LED model, a sum of such LEDs, or explicit samples. `peakShiftNM` moves the whole
/// curve along the wavelength axis, which is how a unit's calibration differs from the nominal
/// LED (binning of the blue pump shifts the peak by a nanometre or two).
public enum SpectrumSource: Sendable, Hashable, Codable {
    /// A CIE 15:2018 LED illuminant by name (`LED-B1` … `LED-B5`, `LED-BH1`, `LED-RGB1`,
    /// `LED-V1`, `LED-V2`), shifted by `peakShiftNM` nanometres.
    case cieLED(name: String, peakShiftNM: Double)
    /// One LED after Ohno (2005): peak wavelength and half spectral width in nanometres.
    case ohnoLED(peakNM: Double, halfWidthNM: Double)
    /// A sum of Ohno LEDs with relative peak powers.
    case multiLED(peaksNM: [Double], halfWidthsNM: [Double], peakPowerRatios: [Double])
    /// Samples on an increasing wavelength grid in nanometres.
    case samples(wavelengthsNM: [Double], values: [Double])

    /// The CIE 15:2018 LED illuminant names a profile may use.
    public static let cieLEDNames = [
        "LED-B1", "LED-B2", "LED-B3", "LED-B4", "LED-B5", "LED-BH1", "LED-RGB1", "LED-V1", "LED-V2",
    ]

    /// The peak shift in nanometres (0 unless a CIE LED is shifted).
    public var peakShiftNM: Double {
        if case let .cieLED(_, shift) = self { return shift }
        return 0
    }
}
