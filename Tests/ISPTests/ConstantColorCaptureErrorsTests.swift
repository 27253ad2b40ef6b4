import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra
import Testing

/// The device's error sources on a Constant Color capture (`ConstantColorCaptureErrors`): read from the profile,
/// on by default, reproducible from the seed, and switchable off to the error-free capture.
@Suite struct ConstantColorCaptureErrorsTests {
    static func pipeline(errors: Bool) throws -> ConstantColorPipeline {
        let profile = try ConstantColorFixture.device("iphone-15-pro")
        var pipeline = try ConstantColorPipeline(
            device: profile, camera: try profile.camera(ofType: .builtInWideAngleCamera), width: 160, height: 120,
            settings: .init(developsFallback: false))
        if !errors { pipeline.captureErrors = .none }
        return pipeline
    }

    static let scene = ConstantColorFixture.chartScene(illuminant: Illuminants.d65, lux: 400)

    /// The profile keys of the magnitudes.
    static let keys = [
        "flash_intensity_tolerance_percent", "flash_power_w", "flash_thermal_resistance_k_per_w",
        "led_peak_shift_nm_per_k", "mains_frequency_hz", "percent_flicker", "readout_time_s",
        "hand_angular_speed_deg_per_s", "stabilisation_stops", "sensitivity_tolerance_percent",
        "sensitivity_calibrated",
    ]

    @Test func theProfileCarriesItsMagnitudesAndSources() throws {
        let errors = try ConstantColorFixture.device("iphone-15-pro").captureErrors
        #expect(errors.enabled)
        #expect(errors.percentFlicker == 9.6)
        #expect(errors.mainsFrequencyHz == 60)
        #expect(errors.flashIntensityTolerancePercent == 10)
        #expect(errors.flashThermalResistanceKPerW == 9)
        #expect(errors.sensitivityCalibrated)
        // Every magnitude names where it comes from.
        for key in Self.keys {
            #expect(!errors.provenance.of(key).note.isEmpty, "\(key) has no source")
        }
        // A profile without the section captures without errors.
        let text = try String(contentsOfFile: ChartFixture.profiles + "/iphone-15-pro.yaml", encoding: .utf8)
        let section = try #require(text.range(of: "\ncapture_errors:"))
        let without = try DeviceProfileLoader.load(text: String(text[..<section.lowerBound]) + "\n", file: "plain.yaml")
        #expect(!without.captureErrors.enabled)
    }

    /// No shipped device gives an app an ideal Constant Color capture: every profile whose cameras offer it carries
    /// its error sources, each magnitude with a source of its own, and the stabilisation its camera has (sensor-shift
    /// optical stabilisation on the iPhones' wide cameras, none on the iPad's).
    @Test func everyDeviceOfferingConstantColorCarriesItsErrors() throws {
        let catalog = try DeviceCatalog(directory: ChartFixture.profiles)
        var offering: [String: Double] = [:]
        for id in catalog.ids {
            let profile = try catalog.profile(id)
            let offers = profile.cameras.contains { camera in
                camera.formats.contains { camera.supportsConstantColor(with: $0) }
            }
            guard offers else { continue }
            let errors = profile.captureErrors
            #expect(errors.enabled, "\(id) offers Constant Color as an ideal camera")
            for key in Self.keys {
                #expect(!errors.provenance.of(key).note.isEmpty, "\(id): \(key) has no source")
            }
            offering[id] = errors.stabilisationStops
        }
        #expect(offering == ["iphone-14": 3, "iphone-15-pro": 3, "ipad-pro-m4": 0])
    }

    @Test func aBadMagnitudeNamesItsFileAndKey() throws {
        let original = try String(
            contentsOfFile: ChartFixture.profiles + "/iphone-15-pro.yaml", encoding: .utf8)
        for (good, bad, fragment) in [
            ("percent_flicker: 9.6", "percent_flicker: 150", "capture_errors.percent_flicker: must be between 0 and 100"),
            ("mains_frequency_hz: 60", "mains_frequency_hz: 55", "capture_errors.mains_frequency_hz: mains run at 50 or 60 Hz"),
            ("flash_power_w: 3.5", "flash_power_w: fast", "capture_errors.flash_power_w: expected a number"),
        ] {
            let text = original.replacingOccurrences(of: good, with: bad)
            #expect(text != original)
            #expect {
                _ = try DeviceProfileLoader.load(text: text, file: "broken-errors.yaml")
            } throws: { error in
                let message = "\(error)"
                return message.contains("broken-errors.yaml") && message.contains(fragment)
            }
        }
    }

    @Test func errorsChangeTheCaptureReproducibly() throws {
        let withErrors = try Self.pipeline(errors: true)
        let a = withErrors.capture(scene: Self.scene, seed: 3)
        let b = withErrors.capture(scene: Self.scene, seed: 3)
        #expect(a.photo.packedElements == b.photo.packedElements, "same seed, same bytes")
        #expect(a.diagnostics.flashFrame.dn == b.diagnostics.flashFrame.dn)
        let ideal = try Self.pipeline(errors: false).capture(scene: Self.scene, seed: 3)
        #expect(a.diagnostics.flashFrame.dn != ideal.diagnostics.flashFrame.dn, "the errors reach the capture")
        #expect(a.photo.packedElements != ideal.photo.packedElements)
        // Another capture of the same unit draws other per-capture errors.
        let c = withErrors.capture(scene: Self.scene, seed: 4)
        let idealC = try Self.pipeline(errors: false).capture(scene: Self.scene, seed: 4)
        #expect(c.photo.packedElements != idealC.photo.packedElements)
    }

    @Test func switchedOffTheCaptureIsTheIdealOne() throws {
        var off = try Self.pipeline(errors: true)
        off.captureErrors.magnitudes.enabled = false
        let a = off.capture(scene: Self.scene, seed: 5)
        let ideal = try Self.pipeline(errors: false).capture(scene: Self.scene, seed: 5)
        #expect(a.photo.packedElements == ideal.photo.packedElements)
        #expect(a.diagnostics.flashFrame.dn == ideal.diagnostics.flashFrame.dn)
    }

    /// The factory's white-balance calibration: over many units, the channels' gains spread by the profile's ±2 %
    /// each, so the red/green and blue/green ratios spread by up to about ±4 %; calibrated, the ratios stay within
    /// five standard deviations of the calibration's photon noise (√(2 / (4096 · full well / 2))) of the nominal
    /// module's, while the common gain keeps its spread.
    @Test func theWhiteBalanceCalibrationLeavesOnlyItsOwnNoiseInTheRatios() throws {
        let profile = try ConstantColorFixture.device("iphone-15-pro")
        let pipeline = try ConstantColorPipeline(
            device: profile, camera: try profile.camera(ofType: .builtInWideAngleCamera), width: 160, height: 120,
            settings: .init(developsFallback: false))
        let camera = pipeline.camera, flash = pipeline.flash
        let nominal = camera.quantumEfficiency
        func ratios(calibrated: Bool, unit: UInt64) -> (red: Double, blue: Double, green: Double) {
            var magnitudes = profile.captureErrors
            magnitudes.sensitivityCalibrated = calibrated
            let draw = ConstantColorCaptureErrors(magnitudes: magnitudes, unit: unit, camera: camera)
                .draw(camera: camera, flash: flash, scene: Self.scene, seed: 1)
            let qe = draw.camera.quantumEfficiency
            let g = qe.green.values[30] / nominal.green.values[30]
            return (qe.red.values[40] / nominal.red.values[40] / g, qe.blue.values[16] / nominal.blue.values[16] / g, g)
        }
        let sigma = (2 / (4096 * camera.noise.fullWellElectrons / 2)).squareRoot()
        var widest = 0.0, widestGreen = 0.0
        for unit in UInt64(0)..<40 {
            let raw = ratios(calibrated: false, unit: unit), fixed = ratios(calibrated: true, unit: unit)
            widest = max(widest, abs(raw.red - 1), abs(raw.blue - 1))
            widestGreen = max(widestGreen, abs(fixed.green - 1))
            #expect(abs(fixed.red - 1) <= 5 * sigma && abs(fixed.blue - 1) <= 5 * sigma, "unit \(unit)")
            #expect(fixed.green == raw.green, "the calibration keeps the unit's sensitivity")
        }
        #expect(widest > 0.02 && widest <= 0.02 * 2 / 0.98 + 1e-9)
        #expect(widestGreen > 0.01)
    }
}
