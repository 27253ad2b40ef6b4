import Devices
import Foundation
import ISP
import Spectra
import Testing

/// Constant Color under single-colour LED room lights, on the iPhone 15 Pro profile: the confidence
/// map must not promise colours the picture does not have.
struct ConstantColorNarrowBandTests {
    /// Blue, green, amber and red LEDs at 100 and 800 lux (the reduced protocol): no patch trusted at
    /// confidence ≥ 0.8 is off by more than ΔE00 5, and a picture whose mean ΔE00 exceeds 3 is not
    /// trusted as a whole (centre-weighted confidence below 0.8).
    @Test func confidenceNeverOverstates() throws {
        let pipeline = try ConstantColorFixture.chartPipeline(width: 224, height: 168)
        let result = ConstantColorNarrowBandValidation.run(
            pipeline: pipeline, illuminances: ConstantColorNarrowBandValidation.reducedIlluminances)
        #expect(result.conditions.count == 8)
        for c in result.conditions {
            let name = "\(Int(c.led.peak)) nm at \(Int(c.lux)) lux"
            #expect(
                c.worstConfidentDeltaE <= ConstantColorNarrowBandValidation.confidentDeltaELimit,
                "\(name): a patch at confidence ≥ 0.8 is off by ΔE00 \(c.worstConfidentDeltaE)")
            if c.meanDeltaE > ConstantColorNarrowBandValidation.meanDeltaELimit {
                #expect(
                    c.centerWeightedConfidence < ConstantColorValidation.highConfidence,
                    "\(name): mean ΔE00 \(c.meanDeltaE) at centre-weighted confidence \(c.centerWeightedConfidence)")
            }
        }
        #expect(result.confidentOutliers == 0)
    }

    /// With the device's error sources on, as the profile has them by default, the limit holds. The sensor's spread
    /// (each channel's sensitivity off the nominal curve by up to 2 %) casts an uncalibrated unit's pictures, and
    /// took the palest skin tones, which stay trusted, past the limit; the unit's factory white-balance calibration
    /// (`CaptureErrors.sensitivityCalibrated`) is what keeps them within it, so the check runs both ways.
    @Test func confidenceUnderTheDevicesErrors() throws {
        let device = try ConstantColorFixture.device()
        var pipeline = try ConstantColorValidation.chartPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 224, height: 168,
            settings: .init(developsFallback: false))
        let errors = pipeline.captureErrors.magnitudes
        #expect(errors.enabled && errors.sensitivityCalibrated)
        func outliers() -> Int {
            ConstantColorNarrowBandValidation.run(
                pipeline: pipeline, illuminances: ConstantColorNarrowBandValidation.reducedIlluminances
            ).confidentOutliers
        }
        #expect(outliers() == 0)
        pipeline.captureErrors.magnitudes.sensitivityCalibrated = false
        #expect(outliers() > 0, "without the calibration the unit's cast reaches trusted patches")
    }

    /// The LED spectra are what the mode states: the peak where it says and the full width at half
    /// maximum within a grid step (5 nm) of the stated one.
    @Test func ledSpectraHaveTheirStatedShape() {
        for led in ConstantColorNarrowBandValidation.LED.standard {
            let s = led.spectrum
            let values = s.values
            let peakIndex = values.indices.max { values[$0] < values[$1] } ?? 0
            #expect(abs(Spectrum.wavelengths[peakIndex] - led.peak) <= 2.5)
            // Half-maximum crossings, interpolated linearly between grid samples.
            let half = values[peakIndex] / 2
            func crossing(from i: Int, step: Int) -> Double {
                var j = i
                while j + step >= 0, j + step < values.count, values[j + step] >= half { j += step }
                let k = j + step
                guard k >= 0, k < values.count else { return Spectrum.wavelengths[j] }
                let t = (values[j] - half) / (values[j] - values[k])
                return Spectrum.wavelengths[j] + Double(step) * Spectrum.step * t
            }
            let width = crossing(from: peakIndex, step: 1) - crossing(from: peakIndex, step: -1)
            #expect(abs(width - led.fullWidth) <= Spectrum.step, "\(led.peak) nm: FWHM \(width)")
        }
    }
}
