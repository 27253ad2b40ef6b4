import Devices
import Spectra

/// What the phone believes about its flash: the factory calibration, never the truth.
///
/// A module's spectrum is relative; its calibrated on-axis intensity (cd) fixes its share, as the
/// renderer's emitters do: each module spectrum is scaled to unit luminous intensity
/// (∫ S V = 1, CIE 15:2018) and weighted by its calibrated candela. The sum is the spectral
/// shape of the whole flash on axis.
public struct FlashCalibration: Sendable, Hashable {
    /// The believed relative spectral power of the fired flash.
    public var spectrum: Spectrum
    /// The believed total on-axis luminous intensity, cd.
    public var intensityCandela: Double

    /// A calibration from explicit values (tests, what-if studies).
    public init(spectrum: Spectrum, intensityCandela: Double) {
        self.spectrum = spectrum
        self.intensityCandela = intensityCandela
    }

    /// The calibration stored in a flash's profile; nil when it lists no usable entry.
    public init?(hardware: FlashHardware) {
        var sum = Spectrum.constant(0)
        var total = 0.0
        for entry in hardware.calibration where entry.intensityCD > 0 {
            let s = entry.spectrum.spectrum
            let y = s.integral(times: CIE1931.yBar)
            guard y > 0 else { continue }
            sum += s * (entry.intensityCD / y)
            total += entry.intensityCD
        }
        guard total > 0 else { return nil }
        self.init(spectrum: sum, intensityCandela: total)
    }
}
