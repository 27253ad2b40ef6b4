import Foundation

extension Illuminants {
    /// A single LED by Ohno's model (Ohno 2005, Opt. Eng. 44:111302):
    /// g = exp(−((λ − λp)/Δ)²), S = (g + 2g⁵)/3, so S(λp) = 1. The full width at half maximum is
    /// about 0.92·Δ.
    public static func led(peakWavelength: Double, halfSpectralWidth: Double) -> Spectrum {
        precondition(halfSpectralWidth > 0, "an LED needs a positive half spectral width, got \(halfSpectralWidth)")
        return Spectrum { lambda in
            let d = (lambda - peakWavelength) / halfSpectralWidth
            let g = exp(-d * d)
            return (g + 2 * pow(g, 5)) / 3
        }
    }

    /// A sum of Ohno LEDs, each scaled by its peak power ratio.
    public static func multiLED(
        peakWavelengths: [Double], halfSpectralWidths: [Double], peakPowerRatios: [Double]
    ) -> Spectrum {
        precondition(
            peakWavelengths.count == halfSpectralWidths.count && peakWavelengths.count == peakPowerRatios.count,
            "multiLED needs as many widths and ratios as peaks")
        var sum = Spectrum.constant(0)
        for i in peakWavelengths.indices {
            sum += led(peakWavelength: peakWavelengths[i], halfSpectralWidth: halfSpectralWidths[i])
                * peakPowerRatios[i]
        }
        return sum
    }
}

/// The LED reference illuminants of CIE 15:2018 (Table 11): phosphor-converted blue (B1–B5),
/// hybrid (BH1), RGB mixture (RGB1) and violet-pumped (V1, V2).
public enum CIELEDIlluminant: String, CaseIterable, Sendable {
    case b1 = "LED-B1", b2 = "LED-B2", b3 = "LED-B3", b4 = "LED-B4", b5 = "LED-B5"
    case bh1 = "LED-BH1", rgb1 = "LED-RGB1", v1 = "LED-V1", v2 = "LED-V2"
}
