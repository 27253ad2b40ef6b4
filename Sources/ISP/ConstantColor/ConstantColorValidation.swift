import Devices
import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// Apple's validation of Constant Color (WWDC24 session 10162; color-science spec §0), reproduced on
/// the simulator: a chart of the ColorChecker 24 and all 140 skin patches, photographed under many
/// room lights by Constant Color and, as the baseline, by the ordinary pipeline (`Baseline`).
///
/// Our metric (Apple does not publish its formula): for patch p and condition c, Lab(p, c) of the
/// photo decoded as a viewer would (Display P3; CIELAB with the D65 white); variance_p =
/// mean_c ‖Lab(p, c) − mean_c Lab(p, ·)‖²; reduction = 1 − mean_p var(Constant Color) /
/// mean_p var(ordinary). Each photo is first scaled so that the ColorChecker's neutral 5 has its
/// D65 luminance: exposure is not what the protocol tests, hue and relative lightness are.
/// ΔE00 (CIE DE2000) is against the reflectance's CIELAB under D65 from the CIE 1931 observer
/// (`Colorimetry.lab`), which owes nothing to the camera or the pipeline.
///
/// Chart geometry (our choice, as a lab would set it up): the flash's irradiance falls off away
/// from its axis (cos^m α beam times cos³ α on a flat card, color-science spec §3.4), which a phone
/// cannot tell from a darker paint, so a lab keeps the card small and centred in the beam. The
/// chart therefore fills 85 % of a *central crop* of the sensor at its native pixel pitch
/// (`chartPipeline`, a digital zoom: each patch still covers many pixels), 0.5 m away; on the
/// iPhone 15 Pro wide camera a 224-pixel crop spans ±1.2° around the axis, where the flash varies by
/// less than 0.3 %. A full-field chart would instead measure the beam pattern, not the colour.
public struct ConstantColorValidation: Sendable {
    /// The lighting conditions.
    public struct Conditions: Sendable, Hashable {
        /// Room illuminances, lux.
        public var illuminances: [Double]
        /// Correlated colour temperatures, kelvin.
        public var temperatures: [Double]
        /// Distances from the Planckian locus (negative: magenta, positive: green).
        public var tints: [Double]

        /// Apple's: 10–800 lux, 3000–7500 K, on the locus and ±0.02 Duv (tint size our choice).
        public static let apple = Conditions(
            illuminances: [10, 50, 100, 200, 400, 800], temperatures: [3000, 4000, 5000, 6000, 7500],
            tints: [-0.02, 0, 0.02])
        /// A reduced set for tests: the extremes.
        public static let reduced = Conditions(illuminances: [10, 800], temperatures: [3000, 7500], tints: [-0.02, 0.02])

        /// A protocol.
        public init(illuminances: [Double], temperatures: [Double], tints: [Double]) {
            self.illuminances = illuminances
            self.temperatures = temperatures
            self.tints = tints
        }

        /// Every (lux, CCT, Duv) combination.
        public var conditions: [(lux: Double, cct: Double, duv: Double)] {
            illuminances.flatMap { lux in temperatures.flatMap { t in tints.map { (lux, t, $0) } } }
        }
    }

    /// One patch's figures.
    public struct Patch: Sendable {
        /// Its name.
        public let name: String
        /// Its CIELAB under D65 (the truth).
        public let reference: Lab
        /// Mean CIELAB over the conditions, ordinary and Constant Color.
        public let meanOrdinary: Lab, meanConstantColor: Lab
        /// CIELAB variance across conditions.
        public let varianceOrdinary: Double, varianceConstantColor: Double
        /// Mean ΔE00 against the reference over the conditions.
        public let deltaEOrdinary: Double, deltaEConstantColor: Double
        /// Mean confidence over the patch and the conditions, 0…1.
        public let confidence: Double
    }

    /// Summary statistics of a set of ΔE00 values.
    public struct Statistics: Sendable {
        /// Mean, median and 95th percentile.
        public let mean: Double, median: Double, p95: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            mean = sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
            median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
            p95 = sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
        }
    }

    /// The protocol run.
    public let protocolRun: Conditions
    /// How many units of the device took it (`run(…units:)`); every figure pools their photos.
    public let units: Int
    /// What Constant Color was compared with, and the share of each light's cast its photo kept.
    public let baseline: Baseline
    public let baselineWarmth: Double
    /// Per patch, ColorChecker first, then skin.
    public let patches: [Patch]
    /// 1 − mean variance (Constant Color) / mean variance (ordinary).
    public let varianceReduction: Double
    /// ΔE00 over every patch and condition.
    public let deltaEOrdinary: Statistics, deltaEConstantColor: Statistics
    /// ΔE00 of Constant Color over high-confidence patches only.
    public let deltaEConstantColorHighConfidence: Statistics
    /// Patches whose mean confidence is at least `highConfidence`.
    public let highConfidenceCount: Int
    /// The threshold: 0.8, the low end of Apple's recommended 0.8–0.9.
    public static let highConfidence = 0.8
    /// Mean centre-weighted confidence over the conditions.
    public let meanCenterWeightedConfidence: Double
    /// Per condition, the Constant Color and ordinary pictures of the chart (for a report).
    public let samples: [(condition: String, constantColor: PixelPlane<UInt8>, ordinary: PixelPlane<UInt8>)]

    /// The patches on the validation chart.
    public static let chartPatches: [ReflectancePatch] = ColorChecker.patches + SkinTones.patches

    /// The validation pipeline of a profile camera: the pipeline of the full sensor, its camera
    /// cropped to the central `width × height` pixels (see the type's note on geometry).
    public static func chartPipeline(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int,
        settings: ConstantColorPipeline.Settings = .init()
    ) throws -> ConstantColorPipeline {
        guard let sensor = camera.optics?.sensor else {
            throw ConstantColorError(description: "\(device.sourceFile): camera \(camera.id) lists no sensor_px")
        }
        let full = try ConstantColorPipeline(
            device: device, camera: camera, width: sensor.width, height: sensor.height, settings: settings)
        guard width <= full.camera.width, height <= full.camera.height else {
            throw ConstantColorError(
                description: "\(device.sourceFile): chart picture \(width)x\(height) exceeds the sensor "
                    + "\(full.camera.width)x\(full.camera.height) of \(camera.id)")
        }
        var crop = ConstantColorPipeline(
            camera: full.camera.centreCropped(width: width, height: height), flash: full.flash,
            calibration: full.calibration, irradiance: full.irradiance, depthSensor: full.depthSensor, settings: settings)
        crop.captureErrors = full.captureErrors
        return crop
    }

    /// Runs the protocol with a pipeline (its camera size is the chart picture's; see
    /// `chartPipeline` for the camera the protocol expects), against `baseline` keeping `baselineWarmth` of each
    /// light's cast.
    ///
    /// With `units` above 1, that many units of the device take the protocol (the pipeline's own unit key and the
    /// ones after it, `ConstantColorCaptureErrors.unit`), and each patch's figures pool all their photos: a patch's
    /// variance then holds the spread between the units' constant errors (their flash LEDs and sensor curves) as well
    /// as the spread across the lights. Apple measured "the iPhone 15 family" and does not say whether it pooled
    /// phones; one unit is the default, several are our reading of a family.
    public static func run(
        pipeline: ConstantColorPipeline, protocol spec: Conditions = .apple, baseline: Baseline = .autoWhiteBalance,
        baselineWarmth: Double = PhotoPipeline.warmth, keepSamples: Int = 6, seed: UInt64 = 1, units: Int = 1
    ) throws -> ConstantColorValidation {
        let camera = pipeline.camera
        let chart = ChartLayout(camera: camera)
        let (patches, reference, white, greyIndex, greyY) =
            (chart.patches, chart.reference, chart.white, chart.greyIndex, chart.greyY)
        let (probeScene, pixelLists) = (chart.probeScene, chart.pixelLists)

        var labO = [[Lab]](repeating: [], count: patches.count)
        var labC = [[Lab]](repeating: [], count: patches.count)
        var confidence = [Double](repeating: 0, count: patches.count)
        var centre = 0.0
        var samples: [(String, PixelPlane<UInt8>, PixelPlane<UInt8>)] = []
        let conditions = spec.conditions
        // Each unit takes every condition, with the same captures' seeds; the first unit is the pipeline's own.
        let takes = (0..<max(1, units)).flatMap { unit in conditions.indices.map { (unit, $0) } }
        for (unit, index) in takes {
            let condition = conditions[index]
            let light = try Illuminants.make(cct: condition.cct, duv: condition.duv)
            var scene = probeScene
            scene.ambient = AmbientLight(
                spectrum: light, illuminance: condition.lux, direction: Vector3(0.3, 0.5, 1), diffuseFraction: 0.5)
            var phone = pipeline
            phone.captureErrors.unit = pipeline.captureErrors.unit &+ UInt64(unit)
            let result = phone.capture(scene: scene, seed: seed &+ UInt64(index))
            centre += result.centerWeightedMeanConfidence
            let shown = chart.shownPixels(of: result)
            let cc = linearXYZ(result.photo, pixels: shown, decode: { pow($0, 2.2) })
            let baselinePhoto = baseline.photo(
                of: result, scene: scene, camera: camera, warmth: baselineWarmth, seed: seed &+ UInt64(index))
            let ordinary = linearXYZ(baselinePhoto, pixels: pixelLists, decode: { TransferFunction.sRGB.decode($0) })
            for (values, store) in [(cc, 0), (ordinary, 1)] {
                let k = values[greyIndex].y > 0 ? greyY / values[greyIndex].y : 1
                for p in 0..<patches.count {
                    let lab = Lab(XYZ(values[p] * k * 100), white: white)
                    if store == 0 { labC[p].append(lab) } else { labO[p].append(lab) }
                }
            }
            for p in 0..<patches.count {
                let list = shown[p]
                guard !list.isEmpty else { continue }
                var sum = 0.0
                for i in list {
                    sum += result.confidenceMap.value(
                        x: Double(i % camera.width) + 0.5, y: Double(i / camera.width) + 0.5)
                }
                confidence[p] += sum / Double(list.count) / Double(takes.count)
            }
            if unit == 0, samples.count < keepSamples, index % max(1, conditions.count / max(1, keepSamples)) == 0 {
                let name = "\(Int(condition.lux)) lux, \(Int(condition.cct)) K, Duv \(condition.duv)"
                samples.append((name, result.photo, baselinePhoto))
            }
        }

        var out: [Patch] = []
        var allO: [Double] = [], allC: [Double] = [], highC: [Double] = []
        for p in 0..<patches.count {
            let (mO, vO) = spread(labO[p])
            let (mC, vC) = spread(labC[p])
            let eO = labO[p].map { DeltaE.ciede2000($0, reference[p]) }
            let eC = labC[p].map { DeltaE.ciede2000($0, reference[p]) }
            allO += eO
            allC += eC
            if confidence[p] >= highConfidence { highC += eC }
            out.append(
                Patch(
                    name: patches[p].name, reference: reference[p], meanOrdinary: mO, meanConstantColor: mC,
                    varianceOrdinary: vO, varianceConstantColor: vC, deltaEOrdinary: eO.reduce(0, +) / Double(eO.count),
                    deltaEConstantColor: eC.reduce(0, +) / Double(eC.count), confidence: confidence[p]))
        }
        let meanVO = out.map(\.varianceOrdinary).reduce(0, +) / Double(out.count)
        let meanVC = out.map(\.varianceConstantColor).reduce(0, +) / Double(out.count)
        return ConstantColorValidation(
            protocolRun: spec, units: max(1, units), baseline: baseline, baselineWarmth: baselineWarmth, patches: out,
            varianceReduction: meanVO > 0 ? 1 - meanVC / meanVO : .nan,
            deltaEOrdinary: Statistics(allO), deltaEConstantColor: Statistics(allC),
            deltaEConstantColorHighConfidence: Statistics(highC),
            highConfidenceCount: confidence.filter { $0 >= highConfidence }.count,
            meanCenterWeightedConfidence: centre / Double(takes.count), samples: samples)
    }

    /// Mean Lab and mean squared distance from it.
    static func spread(_ labs: [Lab]) -> (Lab, Double) {
        guard !labs.isEmpty else { return (Lab(L: 0, a: 0, b: 0), .nan) }
        let n = Double(labs.count)
        let m = Lab(
            L: labs.map(\.L).reduce(0, +) / n, a: labs.map(\.a).reduce(0, +) / n, b: labs.map(\.b).reduce(0, +) / n)
        let v = labs.map { pow($0.L - m.L, 2) + pow($0.a - m.a, 2) + pow($0.b - m.b, 2) }.reduce(0, +) / n
        return (m, v)
    }

    /// Pixel indices of each named patch whose 4-neighbours show the same patch.
    static func patchPixels(ids: [UInt16], names: [String], materials: [Material], width: Int, height: Int) -> [[Int]] {
        var lists = [[Int]](repeating: [], count: names.count)
        var byMaterial = [Int: Int]()
        for (p, name) in names.enumerated() {
            if let m = materials.firstIndex(where: { $0.name == name }) { byMaterial[m] = p }
        }
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let i = y * width + x
                let id = ids[i]
                guard id != RawFrame.none, let p = byMaterial[Int(id)], ids[i - 1] == id, ids[i + 1] == id,
                    ids[i - width] == id, ids[i + width] == id
                else { continue }
                lists[p].append(i)
            }
        }
        return lists
    }

    /// Each patch's pixels where a Constant Color photo shows it (`patchPixels`, from the flash frame's own material
    /// ids); `still`, the pixels where a still camera sees it, where the capture kept no truth planes or for a patch
    /// the turn took out of the picture.
    ///
    /// The photo keeps the flash frame's geometry, and the hand may turn the phone between the two frames
    /// (`ConstantColorCaptureErrors`): the chart lies a fraction of a pixel away from where a still camera sees it
    /// (`still`, the probe's lists) behind optical stabilisation, and several pixels away without it, where fixed
    /// lists would read the neighbouring patches. A laboratory finds the chart in each photo it measures, and so does
    /// the protocol: the ids are the render's truth, which the evaluation reads and the pipeline never does.
    static func shownPixels(
        of result: ConstantColorResult, names: [String], materials: [Material], still: [[Int]]
    ) -> [[Int]] {
        let frame = result.diagnostics.flashFrame
        guard frame.materialIDs.count == frame.width * frame.height else { return still }
        let shown = patchPixels(
            ids: frame.materialIDs, names: names, materials: materials, width: frame.width, height: frame.height)
        return zip(shown, still).map { $0.isEmpty ? $1 : $0 }
    }

    /// Mean XYZ (Display P3 primaries, Y = 1 white) of each patch in an encoded picture.
    static func linearXYZ(_ photo: PixelPlane<UInt8>, pixels: [[Int]], decode: (Double) -> Double) -> [SIMD3<Double>] {
        let table = (0..<256).map { decode(Double($0) / 255) }
        let w = photo.width
        return pixels.map { list in
            guard !list.isEmpty, photo.width > 1 else { return SIMD3(0, 0, 0) }
            var sum = SIMD3<Double>(0, 0, 0)
            for i in list {
                let x = i % w, y = i / w
                sum += SIMD3(table[Int(photo[x, y, 0])], table[Int(photo[x, y, 1])], table[Int(photo[x, y, 2])])
            }
            return RGBColorSpace.displayP3.toXYZ * (sum / Double(list.count))
        }
    }
}

/// The validation chart as the protocol's camera sees it: the ColorChecker and skin-tone card filling
/// about 85 % of the central crop `ConstantColorValidation.chartPipeline` gives, 0.5 m in front of
/// the camera, each patch's pixels (eroded by one pixel, from a geometry-only render) and its
/// reference colour under D65. Shared by the white-light and narrow-band protocols.
struct ChartLayout {
    let patches: [ReflectancePatch]
    /// CIELAB of each patch under D65.
    let reference: [Lab]
    let white: XYZ
    /// The neutral 5 patch, which sets exposure (exposure is not under test), and its D65 luminance.
    let greyIndex: Int
    let greyY: Double
    /// The card under a 100 lux D65 room light, for the protocols to relight.
    let probeScene: Scene
    /// Pixel indices of each patch, as a still camera sees the card.
    let pixelLists: [[Int]]
    /// The probe's materials, which the captures' material ids index too (they render the same card).
    let materials: [Material]

    init(camera: CameraModel) {
        let patches = ConstantColorValidation.chartPatches
        let columns = 14
        let rows = (patches.count + columns - 1) / columns
        var padded = patches
        while padded.count < rows * columns {
            padded.append(ReflectancePatch(name: "chart border", number: padded.count + 1, reflectance: .constant(0.03)))
        }
        let distance = 0.5
        let width = min(0.85 * distance * Double(camera.width) / camera.fx,
            0.85 * distance * Double(camera.height) / camera.fy * Double(columns) / Double(rows))
        let card = SceneObject(
            name: "validation chart", shape: .plane(width: width, height: width * Double(rows) / Double(columns)),
            transform: Transform(position: Vector3(0, 0, -distance)),
            surface: Cards.chart(columns: columns, rows: rows, patches: padded))
        self.patches = patches
        white = Colorimetry.whitePoint(of: Illuminants.d65)
        reference = patches.map { Colorimetry.lab(reflectance: $0.reflectance, illuminant: Illuminants.d65) }
        greyIndex = ColorChecker.patches.firstIndex { $0.name.hasPrefix("neutral 5") } ?? 21
        greyY = Colorimetry.xyz(reflectance: patches[greyIndex].reflectance, illuminant: Illuminants.d65).Y / 100
        probeScene = Scene(
            objects: [card], ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 100),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
        let probe = Renderer(scene: probeScene, camera: camera, flash: nil, options: RenderOptions(keepsComponents: false))
        let ids = probe.render(Exposure(time: 0.01, iso: camera.noise.baseISO)).materialIDs
        materials = probe.materials
        pixelLists = ConstantColorValidation.patchPixels(
            ids: ids, names: patches.map(\.name), materials: materials, width: camera.width, height: camera.height)
    }

    /// Each patch's pixels in a capture's Constant Color photo (`ConstantColorValidation.shownPixels`).
    func shownPixels(of result: ConstantColorResult) -> [[Int]] {
        ConstantColorValidation.shownPixels(
            of: result, names: patches.map(\.name), materials: materials, still: pixelLists)
    }
}
