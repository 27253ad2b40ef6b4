import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// The ColorChecker photographed by Constant Color, as a lab would: a small card centred in the flash
/// beam (`ConstantColorFixture.chartPipeline`, a central crop of the sensor), 0.5 m away.
struct ConstantColorChartTests {
    static let distance = 0.5

    /// ΔE00 of every ColorChecker patch between the photo and the reflectance's CIELAB under D65
    /// (CIE 15 colorimetry, independent of camera and pipeline), and the photo's CIELAB.
    static func chartErrors(light: Spectrum, lux: Double, pipeline: ConstantColorPipeline, seed: UInt64 = 3)
        -> (errors: [Double], labs: [Lab?])
    {
        let scene = ConstantColorFixture.chartScene(
            illuminant: light, lux: lux, distance: distance,
            width: ConstantColorFixture.chartWidth(camera: pipeline.camera, distance: distance))
        let result = pipeline.capture(scene: scene, seed: seed)
        let renderer = Renderer(scene: scene, camera: pipeline.camera, flash: nil)
        let labs = ConstantColorFixture.chartLab(
            result.photo, frame: result.diagnostics.flashFrame, materials: renderer.materials)
        var errors: [Double] = []
        for (i, patch) in ColorChecker.patches.enumerated() {
            guard let lab = labs[i] else { continue }
            errors.append(DeltaE.ciede2000(lab, Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65)))
        }
        return (errors, labs)
    }

    /// Closed form: a flash-lit ColorChecker under a strong green-tinted 3000 K room light gives each
    /// patch's CIELAB under D65. The noise-free limit of the colour mapping on this chart is a mean
    /// ΔE00 of 1.27 (`RootPolynomialCorrectionTests`); noise, 8-bit encoding and the flash
    /// calibration's own error add a few tenths. Tolerance: mean ≤ 2 (the validation's target), each
    /// patch ≤ 5.
    @Test func chartUnderColouredLightGivesD65Lab() throws {
        let pipeline = try ConstantColorFixture.chartPipeline()
        let (errors, labs) = Self.chartErrors(
            light: try Illuminants.make(cct: 3000, duv: 0.02), lux: 200, pipeline: pipeline)
        #expect(errors.count == 24)
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean <= 2, "mean ΔE00 \(mean)")
        #expect((errors.max() ?? 99) <= 5, "max ΔE00 \(errors.max() ?? .nan)")
        // The greys stay neutral although the room light is 3000 K with a green tint.
        for i in 19..<23 {
            let lab = try #require(labs[i])
            #expect((lab.a * lab.a + lab.b * lab.b).squareRoot() < 1.5)
        }
    }

    /// The same chart under very different room lights gives nearly the same colours: what differs
    /// between the two photos is noise and the ambient subtraction, not the mapping. Tolerance:
    /// mean ΔE00 ≤ 1.
    @Test func chartIsConsistentAcrossRoomLights() throws {
        let pipeline = try ConstantColorFixture.chartPipeline()
        let warm = Self.chartErrors(light: try Illuminants.make(cct: 3000, duv: -0.02), lux: 400, pipeline: pipeline)
        let cool = Self.chartErrors(light: try Illuminants.make(cct: 7500, duv: 0.02), lux: 50, pipeline: pipeline)
        var differences: [Double] = []
        for i in 0..<24 {
            guard let a = warm.labs[i], let b = cool.labs[i] else { continue }
            differences.append(DeltaE.ciede2000(a, b))
        }
        #expect(differences.count == 24)
        let mean = differences.reduce(0, +) / Double(differences.count)
        #expect(mean <= 1, "mean ΔE00 between lights \(mean)")
    }

    /// Camera response of the perfect white under a light, from the spectra alone:
    /// C_k = Σ E(λ) QE_k(λ) λ (photon counting).
    static func whiteResponse(_ light: Spectrum, camera: CameraModel) -> SIMD3<Double> {
        let qe = camera.quantumEfficiency
        var c = SIMD3<Double>(0, 0, 0)
        for i in 0..<Spectrum.count {
            let s = light.values[i] * Spectrum.wavelengths[i]
            c += SIMD3(s * qe.red.values[i], s * qe.green.values[i], s * qe.blue.values[i])
        }
        return c
    }

    /// The b* a grey gets when the phone divides the real flash's white response by a believed one,
    /// predicted without the pipeline: the residual cast nTrue ⊘ nBelieved (a von Kries step in camera
    /// space) carried to XYZ by the camera's least-squares Luther matrix L (photon-weighted QE onto
    /// the CIE 1931 colour-matching functions), with white balance diag(L⁻¹ W_D65) so an exact
    /// calibration gives the D65 white. `luminance` is the grey's Y (0…100): b* scales with it.
    static func predictedGreyB(
        true nTrue: SIMD3<Double>, believed: SIMD3<Double>, luminance: Double, camera: CameraModel
    ) throws -> Double {
        let qe = camera.quantumEfficiency
        var a = [[Double]](repeating: [0, 0, 0], count: 3)
        var b = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<Spectrum.count {
            let l = Spectrum.wavelengths[i]
            let q = [qe.red.values[i] * l, qe.green.values[i] * l, qe.blue.values[i] * l]
            let cmf = [CIE1931.xBar.values[i], CIE1931.yBar.values[i], CIE1931.zBar.values[i]]
            for j in 0..<3 {
                for k in 0..<3 { a[j][k] += q[j] * q[k] }
                for row in 0..<3 { b[row][j] += cmf[row] * q[j] }
            }
        }
        let inverse = try #require(Matrix3(rows: a).inverse)
        let luther = Matrix3(
            rows: inverse * SIMD3(b[0][0], b[0][1], b[0][2]), inverse * SIMD3(b[1][0], b[1][1], b[1][2]),
            inverse * SIMD3(b[2][0], b[2][1], b[2][2]))
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        let balance = try #require(luther.inverse) * (white.vector / 100)
        let cast = nTrue / believed
        let xyz = luther * (balance * cast)
        return Lab(XYZ(xyz / xyz.y * luminance), white: white).b
    }

    /// A calibration whose LED spectra sit 10 nm short of the truth shifts a grey's b* by the amount
    /// and in the direction predicted from the spectra alone (`predictedGreyB`), not from a run.
    @Test func calibrationErrorShiftsColoursAsPredicted() throws {
        let good = try ConstantColorFixture.chartPipeline()
        var profile = try ConstantColorFixture.device()
        guard var flash = profile.flash else { Issue.record("no flash"); return }
        flash.calibration = flash.calibration.map { entry in
            var e = entry
            if case let .cieLED(name, shift) = e.spectrum { e.spectrum = .cieLED(name: name, peakShiftNM: shift - 10) }
            return e
        }
        profile.flash = flash
        let bad = try ConstantColorFixture.chartPipeline(device: profile)

        // The real flash on axis: each module at unit luminous intensity times its candela.
        var truth = Spectrum.constant(0)
        for module in good.flash.modules {
            truth += module.spectrum * (module.intensityCandela / module.spectrum.integral(times: CIE1931.yBar))
        }
        let camera = good.camera
        let nTrue = Self.whiteResponse(truth, camera: camera)
        let nGood = Self.whiteResponse(good.calibration.spectrum, camera: camera)
        let nBad = Self.whiteResponse(bad.calibration.spectrum, camera: camera)

        let light = try Illuminants.make(cct: 4000)
        let a = Self.chartErrors(light: light, lux: 100, pipeline: good).labs
        let b = Self.chartErrors(light: light, lux: 100, pipeline: bad).labs
        for i in 19..<23 {
            let y = Colorimetry.xyz(reflectance: ColorChecker.patches[i].reflectance, illuminant: Illuminants.d65).Y
            let predicted = try Self.predictedGreyB(true: nTrue, believed: nBad, luminance: y, camera: camera)
                - Self.predictedGreyB(true: nTrue, believed: nGood, luminance: y, camera: camera)
            // The prediction must be large enough to test something.
            #expect(abs(predicted) > 1.5, "patch \(i): predicted Δb* \(predicted)")
            let grey = try #require(a[i]), shifted = try #require(b[i])
            let measured = shifted.b - grey.b
            // Same sign, and the size within a factor 1.5 either way (the Luther matrix is only an
            // approximation of the pipeline's fitted mapping).
            #expect(measured * predicted > 0, "patch \(i): measured Δb* \(measured), predicted \(predicted)")
            #expect(abs(measured) > abs(predicted) / 1.5 && abs(measured) < abs(predicted) * 1.5,
                "patch \(i): measured Δb* \(measured), predicted \(predicted)")
        }
    }
}
