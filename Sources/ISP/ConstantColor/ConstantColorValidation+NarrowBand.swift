import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// Constant Color under single-colour LED room lights: does the confidence map tell the truth?
///
/// Under a narrow-band light the ambient frame carries one channel's worth of information and the
/// flash must out-shine it in every channel: a green-only SNR would stay high while red is buried in
/// the room light's shot noise. This mode photographs the validation chart (the same card, crop and
/// distance as `ConstantColorValidation.run`) under LEDs at 460, 530, 590 and 630 nm and checks two
/// promises a developer relies on when following Apple's advice to trust confidence above 0.8–0.9:
/// - no patch whose mean confidence is at least 0.8 is off by more than ΔE00 5 in that picture;
/// - whenever a picture's mean ΔE00 exceeds 3, its centre-weighted confidence is below 0.8.
/// Both thresholds are our choice (ΔE00 5 is a clearly visible difference, 3 a noticeable one).
public struct ConstantColorNarrowBandValidation: Sendable {
    /// One single-colour LED.
    public struct LED: Sendable, Hashable {
        /// Peak wavelength, nm.
        public let peak: Double
        /// Full width at half maximum, nm.
        public let fullWidth: Double

        /// An LED.
        public init(peak: Double, fullWidth: Double) {
            self.peak = peak
            self.fullWidth = fullWidth
        }

        /// Its spectrum by Ohno's LED model (Ohno 2005, Opt. Eng. 44:111302), whose full width at
        /// half maximum is 0.92 Δ.
        public var spectrum: Spectrum {
            Illuminants.led(peakWavelength: peak, halfSpectralWidth: fullWidth / 0.92)
        }

        /// Blue, green, amber and red. Widths are typical of power-LED datasheets (modelled): InGaN
        /// blue about 20–25 nm and green about 30–35 nm, AlInGaP amber and red about 15–20 nm
        /// (e.g. Schubert, "Light-Emitting Diodes", 2nd ed., 2006, ch. 12 and 16).
        public static let standard = [
            LED(peak: 460, fullWidth: 22), LED(peak: 530, fullWidth: 33), LED(peak: 590, fullWidth: 17),
            LED(peak: 630, fullWidth: 18),
        ]
    }

    /// One picture: an LED at an illuminance.
    public struct Condition: Sendable {
        /// The LED.
        public let led: LED
        /// Room illuminance, lux.
        public let lux: Double
        /// Mean ΔE00 of the chart's patches against their CIELAB under D65.
        public let meanDeltaE: Double
        /// The map's centre-weighted mean, 0…1.
        public let centerWeightedConfidence: Double
        /// Patches whose mean confidence is at least 0.8.
        public let confidentPatches: Int
        /// Largest ΔE00 of a patch whose mean confidence is at least 0.8 (0 if there is none).
        public let worstConfidentDeltaE: Double
        /// Per patch: ΔE00 and mean confidence.
        public let patches: [(deltaE: Double, confidence: Double)]

        /// Whether the picture keeps both promises.
        public var meetsTargets: Bool {
            worstConfidentDeltaE <= ConstantColorNarrowBandValidation.confidentDeltaELimit
                && (meanDeltaE <= ConstantColorNarrowBandValidation.meanDeltaELimit
                    || centerWeightedConfidence < ConstantColorValidation.highConfidence)
        }
    }

    /// Largest ΔE00 allowed for a patch trusted at confidence ≥ 0.8.
    public static let confidentDeltaELimit = 5.0
    /// Mean ΔE00 above which the centre-weighted level must fall below 0.8.
    public static let meanDeltaELimit = 3.0
    /// The full set of illuminances, lux.
    public static let illuminances: [Double] = [100, 200, 400, 800]
    /// The reduced set: the extremes.
    public static let reducedIlluminances: [Double] = [100, 800]

    /// Every picture, LED by LED, then by illuminance.
    public let conditions: [Condition]
    /// Patch names, in the order of `Condition.patches`.
    public let patchNames: [String]
    /// Patches over all pictures at confidence ≥ 0.8 with ΔE00 above `confidentDeltaELimit`.
    public var confidentOutliers: Int {
        conditions.map { c in
            c.patches.filter {
                $0.confidence >= ConstantColorValidation.highConfidence && $0.deltaE > Self.confidentDeltaELimit
            }.count
        }.reduce(0, +)
    }
    /// Whether every picture keeps both promises.
    public var meetsTargets: Bool { conditions.allSatisfy(\.meetsTargets) }

    /// Runs the LEDs at the illuminances with a pipeline whose camera is the chart picture's (see
    /// `ConstantColorValidation.chartPipeline`).
    public static func run(
        pipeline: ConstantColorPipeline, leds: [LED] = LED.standard, illuminances: [Double] = illuminances,
        seed: UInt64 = 1
    ) -> ConstantColorNarrowBandValidation {
        // The geometry and references of `ConstantColorValidation.run`.
        let chart = ChartLayout(camera: pipeline.camera)
        let camera = pipeline.camera
        let (patches, reference, white) = (chart.patches, chart.reference, chart.white)
        let (greyIndex, greyY) = (chart.greyIndex, chart.greyY)
        let probeScene = chart.probeScene

        var out: [Condition] = []
        var index: UInt64 = 0
        for led in leds {
            let spectrum = led.spectrum
            for lux in illuminances {
                var scene = probeScene
                scene.ambient = AmbientLight(
                    spectrum: spectrum, illuminance: lux, direction: Vector3(0.3, 0.5, 1), diffuseFraction: 0.5)
                let result = pipeline.capture(scene: scene, seed: seed &+ index)
                index += 1
                // Exposure is not under test (as in the white-light protocol): neutral 5 is set to its D65 luminance.
                let shown = chart.shownPixels(of: result)
                let values = ConstantColorValidation.linearXYZ(result.photo, pixels: shown, decode: { pow($0, 2.2) })
                let k = values[greyIndex].y > 0 ? greyY / values[greyIndex].y : 1
                var rows: [(deltaE: Double, confidence: Double)] = []
                for p in patches.indices {
                    let lab = Lab(XYZ(values[p] * k * 100), white: white)
                    let list = shown[p]
                    var sum = 0.0
                    for i in list {
                        sum += result.confidenceMap.value(
                            x: Double(i % camera.width) + 0.5, y: Double(i / camera.width) + 0.5)
                    }
                    let confidence = list.isEmpty ? 0 : sum / Double(list.count)
                    rows.append((DeltaE.ciede2000(lab, reference[p]), confidence))
                }
                let confident = rows.filter { $0.confidence >= ConstantColorValidation.highConfidence }
                out.append(
                    Condition(
                        led: led, lux: lux, meanDeltaE: rows.map(\.deltaE).reduce(0, +) / Double(max(1, rows.count)),
                        centerWeightedConfidence: result.centerWeightedMeanConfidence,
                        confidentPatches: confident.count, worstConfidentDeltaE: confident.map(\.deltaE).max() ?? 0,
                        patches: rows))
            }
        }
        return ConstantColorNarrowBandValidation(conditions: out, patchNames: patches.map(\.name))
    }
}
