/// Red, green and blue spectral sensitivities of a camera (relative).
public struct RGBSensitivities: Sendable, Hashable {
    public var red: Spectrum
    public var green: Spectrum
    public var blue: Spectrum

    /// Sensitivities from three spectra.
    public init(red: Spectrum, green: Spectrum, blue: Spectrum) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// Measured camera spectral sensitivities.
public enum CameraSensitivities {
    /// Nikon D5100, measured at the UK National Physical Laboratory (Darrodi et al. 2015,
    /// JOSA A 32:381), as shipped by colour-science.
    public static let nikonD5100 = RGBSensitivities(
        red: Spectrum(values: CameraSensitivityData.nikonD5100Red),
        green: Spectrum(values: CameraSensitivityData.nikonD5100Green),
        blue: Spectrum(values: CameraSensitivityData.nikonD5100Blue))
}
