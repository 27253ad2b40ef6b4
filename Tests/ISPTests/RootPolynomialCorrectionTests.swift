import Foundation
import ISP
import Sensor
import Spectra
import Testing

/// The Constant Color mapping (root-polynomial, Finlayson et al. 2015) without noise: camera RGB
/// under the calibrated flash against CIE 15 colorimetry of the same reflectance under D65.
struct RootPolynomialCorrectionTests {
    /// ΔE00 of each patch through the pipeline's fitted mapping, noise-free.
    static func errors(_ patches: [ReflectancePatch], pipeline: ConstantColorPipeline) -> [Double] {
        let light = pipeline.calibration.spectrum
        let neutral = CameraResponse.neutral(illuminant: light, camera: pipeline.camera)
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        return patches.map { patch in
            let c = CameraResponse.rgb(reflectance: patch.reflectance, illuminant: light, camera: pipeline.camera)
            let lab = Lab(XYZ(pipeline.correction.apply(c / neutral) * 100), white: white)
            return DeltaE.ciede2000(lab, Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65))
        }
    }

    static func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }

    /// Exposure invariance: every term has degree 1, so φ(k·c) = k·φ(c) and the output scales by k.
    @Test func mappingIsExposureInvariant() throws {
        let pipeline = try ConstantColorFixture.chartPipeline()
        let c = SIMD3<Double>(0.31, 0.52, 0.18)
        let k = 3.7
        let a = pipeline.correction.apply(c * k), b = pipeline.correction.apply(c) * k
        #expect(abs(a.x - b.x) < 1e-12 && abs(a.y - b.y) < 1e-12 && abs(a.z - b.z) < 1e-12)
    }

    /// White (and so every grey) maps exactly to the D65 white (CIE 15 white point, Y = 1).
    @Test func whiteIsExact() throws {
        let pipeline = try ConstantColorFixture.chartPipeline()
        let w = pipeline.correction.apply(SIMD3(1, 1, 1))
        let d65 = Colorimetry.whitePoint(of: Illuminants.d65).vector / 100
        #expect(abs(w.x - d65.x) < 1e-9 && abs(w.y - d65.y) < 1e-9 && abs(w.z - d65.z) < 1e-9)
    }

    /// Held-out accuracy. The ColorChecker is not in the training set at all; the odd-numbered skin
    /// patches are not either (only the even ones are). Measured with the degree-3 mapping and skin
    /// weight 40: ColorChecker mean 1.27, max 4.15 (degree 2 with weight 10: 0.99, 3.79; the 3×3
    /// matrix fitted on ColorChecker + skin gave 2.11, red 6.9), held-out skin 1.49. Tolerances:
    /// those with a 0.2–0.25 margin, and held-out skin no worse than trained skin + 0.3 (so the
    /// overlap of the validation with the training set cannot flatter the validation).
    @Test func heldOutPatchesAreAccurate() throws {
        let pipeline = try ConstantColorFixture.chartPipeline()
        let chart = Self.errors(ColorChecker.patches, pipeline: pipeline)
        let skin = SkinTones.patches.enumerated()
        let heldOut = Self.errors(skin.filter { $0.offset % 2 == 1 }.map(\.element), pipeline: pipeline)
        let trained = Self.errors(skin.filter { $0.offset % 2 == 0 }.map(\.element), pipeline: pipeline)
        #expect(Self.mean(chart) <= 1.45, "ColorChecker mean ΔE00 \(Self.mean(chart))")
        #expect((chart.max() ?? 99) <= 4.4, "ColorChecker max ΔE00 \(chart.max() ?? .nan)")
        #expect(Self.mean(heldOut) <= 1.7, "held-out skin mean ΔE00 \(Self.mean(heldOut))")
        #expect(Self.mean(heldOut) <= Self.mean(trained) + 0.3)
    }

    /// Mid skin tones keep their D65 hue: the degree-3 terms follow the haemoglobin bands that the
    /// degree-2 mapping turned about 10° towards red. Measured noise-free: at most 5.2° on patches
    /// 41–60 (degree 2: 11.6°). Tolerance 6°.
    @Test func midSkinTonesKeepTheirHue() throws {
        let pipeline = try ConstantColorFixture.chartPipeline()
        let light = pipeline.calibration.spectrum
        let neutral = CameraResponse.neutral(illuminant: light, camera: pipeline.camera)
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        for patch in SkinTones.patches[40..<60] {
            let c = CameraResponse.rgb(reflectance: patch.reflectance, illuminant: light, camera: pipeline.camera)
            let lab = Lab(XYZ(pipeline.correction.apply(c / neutral) * 100), white: white)
            let reference = Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65)
            var dh = abs(lab.lch.h - reference.lch.h)
            if dh > 180 { dh = 360 - dh }
            #expect(dh < 6, "\(patch.name) hue off by \(dh)°")
        }
    }
}
