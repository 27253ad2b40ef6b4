import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

struct ConstantColorChartTests {
    /// Closed form: flash-lit ColorChecker patches under a strong, green-tinted 3000 K room light
    /// come out with their reflectance's CIELAB under D65 (CIE 15 colorimetry of the reflectance,
    /// independent of the camera and the pipeline).
    @Test func chartUnderColouredLightGivesD65Lab() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let light = try Illuminants.make(cct: 3000, duv: 0.02)
        let scene = ConstantColorFixture.chartScene(illuminant: light, lux: 200)
        let result = pipeline.capture(scene: scene, seed: 3)
        let renderer = Renderer(scene: scene, camera: pipeline.camera, flash: nil)
        let labs = ConstantColorFixture.chartLab(
            result.photo, frame: result.diagnostics.flashFrame, materials: renderer.materials)
        var errors: [Double] = []
        for (i, patch) in ColorChecker.patches.enumerated() {
            guard let lab = labs[i] else { continue }
            let reference = Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65)
            errors.append(DeltaE.ciede2000(lab, reference))
            print(patch.name, lab, reference, DeltaE.ciede2000(lab, reference))
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        print("mean", mean, "max", errors.max() ?? 0, "conf", result.centerWeightedMeanConfidence, result.diagnostics.plan)
        #expect(errors.count == 24)
        #expect(mean < 3)
    }
}
