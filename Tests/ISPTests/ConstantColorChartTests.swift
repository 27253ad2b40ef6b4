import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

struct ConstantColorChartTests {
    /// Mean ΔE00 of the ColorChecker's chromatic patches between the photo and the reflectance's
    /// CIELAB under D65 (CIE 15 colorimetry, independent of camera and pipeline).
    static func chartErrors(light: Spectrum, lux: Double, pipeline: ConstantColorPipeline, seed: UInt64 = 3)
        -> (errors: [Double], labs: [Lab?])
    {
        let scene = ConstantColorFixture.chartScene(illuminant: light, lux: lux, distance: 0.6)
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
    /// patch's CIELAB under D65. The tolerance is the 3×3 matrix's own limit (mean ΔE00 ≈ 2 for these
    /// sensitivities) plus noise, the flash's fall-off across the chart and 8-bit encoding.
    @Test func chartUnderColouredLightGivesD65Lab() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let (errors, labs) = Self.chartErrors(light: try Illuminants.make(cct: 3000, duv: 0.02), lux: 200, pipeline: pipeline)
        #expect(errors.count == 24)
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(mean < 5)
        // The greys stay neutral although the room light is 3000 K with a green tint.
        for i in 19..<23 {
            let lab = try #require(labs[i])
            #expect((lab.a * lab.a + lab.b * lab.b).squareRoot() < 2.5)
        }
    }

    /// The same chart under very different room lights gives nearly the same colours.
    @Test func chartIsConsistentAcrossRoomLights() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let warm = Self.chartErrors(light: try Illuminants.make(cct: 3000, duv: -0.02), lux: 400, pipeline: pipeline)
        let cool = Self.chartErrors(light: try Illuminants.make(cct: 7500, duv: 0.02), lux: 50, pipeline: pipeline)
        var differences: [Double] = []
        for i in 0..<24 {
            guard let a = warm.labs[i], let b = cool.labs[i] else { continue }
            differences.append(DeltaE.ciede2000(a, b))
        }
        #expect(differences.count == 24)
        #expect(differences.reduce(0, +) / Double(differences.count) < 2.5)
    }

    /// A calibration whose spectra sit 10 nm short of the truth believes a flash with a lower
    /// blue/green camera response than it has (the phosphor hump moves into green, the pump below
    /// the blue channel's peak): the pipeline divides blue by too small a neutral, so a grey comes
    /// out bluer and b* falls.
    @Test func calibrationErrorShiftsColoursAsPredicted() throws {
        let good = try ConstantColorFixture.pipeline()
        var profile = try ConstantColorFixture.device()
        guard var flash = profile.flash else { Issue.record("no flash"); return }
        flash.calibration = flash.calibration.map { entry in
            var e = entry
            if case let .cieLED(name, shift) = e.spectrum { e.spectrum = .cieLED(name: name, peakShiftNM: shift - 10) }
            return e
        }
        profile.flash = flash
        let bad = try ConstantColorFixture.pipeline(device: profile)
        // Predicted direction: the believed neutral's blue/green ratio exceeds the true one.
        #expect(bad.flashNeutral.z < good.flashNeutral.z - 0.01)
        let light = try Illuminants.make(cct: 4000)
        let a = Self.chartErrors(light: light, lux: 100, pipeline: good).labs
        let b = Self.chartErrors(light: light, lux: 100, pipeline: bad).labs
        let grey = try #require(a[20]), shifted = try #require(b[20])
        #expect(shifted.b - grey.b < -1.5)
    }
}
