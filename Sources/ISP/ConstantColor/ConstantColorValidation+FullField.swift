import Devices
import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// The full-field validation of Constant Color: the validation chart (`ConstantColorValidation`)
/// filling the whole frame of the full sensor, at several distances, so the flash's fall-off across
/// the field, the lens's vignetting and its correction all take part, as they do in a user's picture.
///
/// Per distance it reports accuracy and consistency side by side, over trusted patch pictures: a
/// patch under one light whose confidence in that picture is at least 0.8, the way a user reads the
/// confidence map of the one photo they took (the narrow-band protocol counts the same way):
/// - accuracy, ΔE00 against each patch's CIELAB under D65 (`Colorimetry.lab`), mean and 95th
///   percentile over the trusted patch pictures, for Constant Color and for the baseline photo of the
///   same pictures;
/// - consistency, the CIELAB variance reduction across lights of `ConstantColorValidation`, each
///   patch's variance taken across the lights under which it is trusted (the centre-crop protocol
///   takes every patch and light; across the full field an untrusted patch is the ambient fill, which
///   says nothing of Constant Color). With no patch trusted under two lights it is reported as not
///   meaningful (`Distance.isMeaningful`);
/// - the same ΔE00 with each patch's luminance set to its reference's (chromatic error only): the
///   flash's irradiance falls off across a flat chart (its beam and the card's obliquity), which the
///   pipeline undoes from the depth (`FlashIrradiance`; with `correctsIrradiance` off it does not),
///   and this figure separates what remains of that lightness error from colour error;
/// - a per-patch map (ΔE00 of both photos and the confidence, laid out as on the chart).
///
/// The baseline is the centre-crop protocol's (`ConstantColorValidation.Baseline`): by default a normal photo of the
/// chart by the room light alone, keeping `baselineWarmth` of the light's cast. Photos are scaled so the chart's
/// neutral 5 has its D65 luminance, as in the centre-crop protocol.
public struct FullFieldValidation: Sendable {
    /// What Constant Color is compared with (shared with the centre-crop protocol).
    public typealias Baseline = ConstantColorValidation.Baseline

    /// One patch of the map.
    public struct Cell: Sendable {
        /// The patch's name, column and row on the chart (0-based, row 0 at the top).
        public let name: String
        public let column: Int, row: Int
        /// Mean ΔE00 over every light, Constant Color and baseline.
        public let deltaEConstantColor: Double, deltaEBaseline: Double
        /// Mean confidence over the patch and the lights.
        public let confidence: Double
        /// The lights under which the patch's own confidence in that picture is at least
        /// `ConstantColorValidation.highConfidence`: the pictures in which a user would trust it.
        public let trustedLights: Int
        /// Mean ΔE00 over those pictures only, Constant Color and baseline; NaN with none.
        public let trustedDeltaEConstantColor: Double, trustedDeltaEBaseline: Double
        /// Whether the patch is trusted in at least one picture.
        public var isTrusted: Bool { trustedLights > 0 }
    }

    /// The figures at one distance.
    public struct Distance: Sendable {
        /// Chart distance, metres.
        public let metres: Double
        /// ΔE00 over the trusted patch pictures (a patch under one light, its confidence in that
        /// picture ≥ `ConstantColorValidation.highConfidence`).
        public let accuracyConstantColor: ConstantColorValidation.Statistics
        public let accuracyBaseline: ConstantColorValidation.Statistics
        /// The same at each patch's reference luminance (chromatic error only).
        public let chromaticConstantColor: ConstantColorValidation.Statistics
        public let chromaticBaseline: ConstantColorValidation.Statistics
        /// 1 − mean variance (Constant Color) / mean variance (baseline), each patch's CIELAB variance
        /// taken across the lights under which it is trusted (patches trusted under two or more).
        public let varianceReduction: Double
        /// Trusted patch pictures, over every patch and light.
        public let trustedPictures: Int
        /// Patches trusted under two lights or more: those the variance reduction is taken over.
        public let varianceMeasuredPatches: Int
        /// Mean centre-weighted confidence over the lights.
        public let meanCenterWeightedConfidence: Double
        /// The per-patch map, in chart order.
        public let cells: [Cell]

        /// Whether the variance reduction measures Constant Color at all: with no patch trusted under
        /// two lights the photo is the ambient frame filled in, and a low variance says nothing.
        public var isMeaningful: Bool { varianceMeasuredPatches > 0 }
    }

    /// The distances of the protocol, metres.
    public static let standardDistances = [0.3, 0.5, 1.0, 1.5]
    /// Share of the frame the chart spans in each direction: a little inside the edges, so the lens
    /// distortion's barrel does not show the background in the corners.
    public static let fill = 0.97

    /// The baseline used, and the share of the room light's cast its photo keeps.
    public let baseline: Baseline
    public let baselineWarmth: Double
    /// The lights.
    public let protocolRun: ConstantColorValidation.Conditions
    /// Chart columns and rows.
    public let columns: Int, rows: Int
    /// Per distance, in the order asked.
    public let distances: [Distance]

    /// Runs the protocol with a pipeline of the full field (its camera is the picture's, scaled from
    /// the full sensor; `init(device:camera:width:height:)` of `ConstantColorPipeline`).
    public static func run(
        pipeline: ConstantColorPipeline, baseline: Baseline = .autoWhiteBalance,
        baselineWarmth: Double = PhotoPipeline.warmth, protocol spec: ConstantColorValidation.Conditions = .apple,
        distances: [Double] = standardDistances,
        seed: UInt64 = 1
    ) throws -> FullFieldValidation {
        var settings = pipeline.settings
        settings.developsFallback = false
        var copy = ConstantColorPipeline(
            camera: pipeline.camera, flash: pipeline.flash, calibration: pipeline.calibration,
            irradiance: pipeline.irradiance, depthSensor: pipeline.depthSensor, settings: settings)
        copy.captureErrors = pipeline.captureErrors
        let chart = Chart()
        let lights = try spec.conditions.map { try Illuminants.make(cct: $0.cct, duv: $0.duv) }
        let out = distances.map { distance in
            let readings = Readings(
                chart: chart, distance: distance, pipeline: copy, conditions: spec.conditions, lights: lights,
                baseline: baseline, warmth: baselineWarmth, seed: seed)
            return readings.summary(chart: chart, distance: distance)
        }
        return FullFieldValidation(
            baseline: baseline, baselineWarmth: baselineWarmth, protocolRun: spec, columns: chart.columns,
            rows: chart.rows, distances: out)
    }

    /// The validation chart's patches and what each is compared with.
    struct Chart {
        let patches = ConstantColorValidation.chartPatches
        let columns = 14
        let rows: Int
        /// The patches padded to whole rows with a dark border.
        let padded: [ReflectancePatch]
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        /// Each patch's CIELAB and luminance (0…1) under D65.
        let reference: [Lab], referenceY: [Double]
        /// Neutral 5, whose D65 luminance every photo is scaled to.
        let greyIndex: Int, greyY: Double

        init() {
            rows = (patches.count + columns - 1) / columns
            var padded = patches
            while padded.count < rows * columns {
                padded.append(
                    ReflectancePatch(name: "chart border", number: padded.count + 1, reflectance: .constant(0.03)))
            }
            self.padded = padded
            reference = patches.map { Colorimetry.lab(reflectance: $0.reflectance, illuminant: Illuminants.d65) }
            referenceY = patches.map {
                Colorimetry.xyz(reflectance: $0.reflectance, illuminant: Illuminants.d65).Y / 100
            }
            greyIndex = ColorChecker.patches.firstIndex { $0.name.hasPrefix("neutral 5") } ?? 21
            greyY = referenceY[greyIndex]
        }

        /// The chart filling the frame of `camera` at `distance` metres, under a 100 lux D65 room light for the
        /// protocol to relight, each patch's pixels as a still camera sees them, and the materials the captures' ids
        /// index.
        func scene(distance: Double, camera: CameraModel) -> (Scene, [[Int]], [Material]) {
            let card = SceneObject(
                name: "validation chart",
                shape: .plane(
                    width: fill * distance * Double(camera.width) / camera.fx,
                    height: fill * distance * Double(camera.height) / camera.fy),
                transform: Transform(position: Vector3(0, 0, -distance)),
                surface: Cards.chart(columns: columns, rows: rows, patches: padded))
            let scene = Scene(
                objects: [card], ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 100),
                device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
            let probe = Renderer(
                scene: scene, camera: camera, flash: nil, options: RenderOptions(keepsComponents: false))
            let ids = probe.render(Exposure(time: 0.01, iso: camera.noise.baseISO)).materialIDs
            let pixelLists = ConstantColorValidation.patchPixels(
                ids: ids, names: patches.map(\.name), materials: probe.materials, width: camera.width,
                height: camera.height)
            return (scene, pixelLists, probe.materials)
        }
    }

    /// Per patch, its CIELAB in every light's Constant Color and baseline photo (scaled so neutral 5 has its D65
    /// luminance, and at the patch's own reference luminance), and its confidence in each Constant Color photo.
    struct Readings {
        var labC: [[Lab]], labB: [[Lab]], chromaC: [[Lab]], chromaB: [[Lab]]
        var confidence: [[Double]]
        var pixelLists: [[Int]]
        /// Σ of the photos' centre-weighted confidence, and how many lights.
        var centre = 0.0, lights = 0

        init(
            chart: Chart, distance: Double, pipeline: ConstantColorPipeline,
            conditions: [(lux: Double, cct: Double, duv: Double)], lights: [Spectrum], baseline: Baseline,
            warmth: Double, seed: UInt64
        ) {
            let camera = pipeline.camera, count = chart.patches.count
            let (probeScene, pixelLists, materials) = chart.scene(distance: distance, camera: camera)
            let names = chart.patches.map(\.name)
            labC = [[Lab]](repeating: [], count: count)
            (labB, chromaC, chromaB) = (labC, labC, labC)
            confidence = [[Double]](repeating: [], count: count)
            self.pixelLists = pixelLists
            self.lights = conditions.count
            for (index, condition) in conditions.enumerated() {
                var scene = probeScene
                scene.ambient = AmbientLight(
                    spectrum: lights[index], illuminance: condition.lux, direction: Vector3(0.3, 0.5, 1),
                    diffuseFraction: 0.5)
                let result = pipeline.capture(scene: scene, seed: seed &+ UInt64(index))
                centre += result.centerWeightedMeanConfidence
                let ordinary = baseline.photo(
                    of: result, scene: scene, camera: camera, warmth: warmth, seed: seed &+ UInt64(index))
                let shown = ConstantColorValidation.shownPixels(
                    of: result, names: names, materials: materials, still: pixelLists)
                add(
                    ConstantColorValidation.linearXYZ(result.photo, pixels: shown, decode: { pow($0, 2.2) }),
                    constantColor: true, chart: chart)
                add(
                    ConstantColorValidation.linearXYZ(
                        ordinary, pixels: pixelLists, decode: { TransferFunction.sRGB.decode($0) }),
                    constantColor: false, chart: chart)
                for p in 0..<count where !shown[p].isEmpty {
                    var sum = 0.0
                    for i in shown[p] {
                        sum += result.confidenceMap.value(
                            x: Double(i % camera.width) + 0.5, y: Double(i / camera.width) + 0.5)
                    }
                    confidence[p].append(sum / Double(shown[p].count))
                }
            }
        }

        /// One photo's patches (linear XYZ), scaled so neutral 5 has its D65 luminance and, apart, to each patch's
        /// reference luminance.
        mutating func add(_ values: [SIMD3<Double>], constantColor: Bool, chart: Chart) {
            let k = values[chart.greyIndex].y > 0 ? chart.greyY / values[chart.greyIndex].y : 1
            for p in 0..<chart.patches.count {
                let lab = Lab(XYZ(values[p] * k * 100), white: chart.white)
                let y = values[p].y
                let matched = Lab(XYZ(values[p] * (y > 0 ? chart.referenceY[p] / y : 1) * 100), white: chart.white)
                if constantColor {
                    labC[p].append(lab)
                    chromaC[p].append(matched)
                } else {
                    labB[p].append(lab)
                    chromaB[p].append(matched)
                }
            }
        }

        /// The figures at `distance` (see the type's description), over the pictures each patch is trusted in.
        func summary(chart: Chart, distance: Double) -> Distance {
            var cells: [Cell] = []
            var highC: [Double] = [], highB: [Double] = [], matchedC: [Double] = [], matchedB: [Double] = []
            var varC = 0.0, varB = 0.0, measured = 0, trustedPictures = 0
            for p in 0..<chart.patches.count where !pixelLists[p].isEmpty {
                let reference = chart.reference[p]
                let eC = labC[p].map { DeltaE.ciede2000($0, reference) }
                let eB = labB[p].map { DeltaE.ciede2000($0, reference) }
                // The pictures in which the patch's own confidence trusts it.
                let trusted = confidence[p].indices.filter {
                    confidence[p][$0] >= ConstantColorValidation.highConfidence
                }
                let tC = trusted.map { eC[$0] }, tB = trusted.map { eB[$0] }
                cells.append(
                    Cell(
                        name: chart.patches[p].name, column: p % chart.columns, row: p / chart.columns,
                        deltaEConstantColor: eC.reduce(0, +) / Double(eC.count),
                        deltaEBaseline: eB.reduce(0, +) / Double(eB.count),
                        confidence: confidence[p].reduce(0, +) / Double(lights),
                        trustedLights: trusted.count,
                        trustedDeltaEConstantColor: trusted.isEmpty ? .nan : tC.reduce(0, +) / Double(trusted.count),
                        trustedDeltaEBaseline: trusted.isEmpty ? .nan : tB.reduce(0, +) / Double(trusted.count)))
                trustedPictures += trusted.count
                highC += tC
                highB += tB
                matchedC += trusted.map { DeltaE.ciede2000(chromaC[p][$0], reference) }
                matchedB += trusted.map { DeltaE.ciede2000(chromaB[p][$0], reference) }
                if trusted.count >= 2 {
                    varC += ConstantColorValidation.spread(trusted.map { labC[p][$0] }).1
                    varB += ConstantColorValidation.spread(trusted.map { labB[p][$0] }).1
                    measured += 1
                }
            }
            return Distance(
                metres: distance, accuracyConstantColor: .init(highC), accuracyBaseline: .init(highB),
                chromaticConstantColor: .init(matchedC), chromaticBaseline: .init(matchedB),
                varianceReduction: measured > 0 && varB > 0 ? 1 - varC / varB : .nan,
                trustedPictures: trustedPictures, varianceMeasuredPatches: measured,
                meanCenterWeightedConfidence: centre / Double(lights), cells: cells)
        }
    }
}
