import Devices
import Spectra
import Testing

/// Profile spectrum descriptions resolve to Spectra values; the calibration differs as stated.
@Suite struct SpectrumResolutionTests {
    @Test func peakShiftMovesTheBluePump() {
        // CIE 15:2018 LED-B5 has its blue pump peak at 450 nm (colour-science spec §1.6).
        let nominal = SpectrumSource.cieLED(name: "LED-B5", peakShiftNM: 0).spectrum
        let shifted = SpectrumSource.cieLED(name: "LED-B5", peakShiftNM: 5).spectrum
        func bluePeak(_ s: Spectrum) -> Double {
            let band = Spectrum.wavelengths.indices.filter { Spectrum.wavelengths[$0] < 500 }
            let i = band.max { s.values[$0] < s.values[$1] } ?? 0
            return Spectrum.wavelengths[i]
        }
        #expect(bluePeak(nominal) == 450)
        #expect(bluePeak(shifted) == 455)
    }

    @Test func gaussianLobePeaksAtItsPeakQE() {
        let model = SpectralSensitivities(
            model: .gaussianMixture(
                red: [.init(peakNM: 600, sigmaNM: 30, peakQE: 0.5)],
                green: [.init(peakNM: 535, sigmaNM: 35, peakQE: 0.6)],
                blue: [.init(peakNM: 460, sigmaNM: 25, peakQE: 0.4)]),
            provenance: ProvenanceMap(Provenance(.modelled)))
        let rgb = model.rgb
        #expect(abs(rgb.red.value(at: 600) - 0.5) < 1e-12)
        // One σ away: exp(−1/2) of the peak.
        #expect(abs(rgb.green.value(at: 570) - 0.6 * 0.606_530_659_712_633) < 1e-12)
    }
}
