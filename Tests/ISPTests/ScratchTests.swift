import Foundation
import ISP
import Sensor
import Spectra
import Testing

struct ScratchTests {
    @Test func matrixOnly() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let white = Colorimetry.whitePoint(of: Illuminants.d65)
        var errs: [Double] = []
        for patch in ColorChecker.patches {
            let c = CameraResponse.rgb(reflectance: patch.reflectance, illuminant: pipeline.calibration.spectrum, camera: pipeline.camera)
            let n = CameraResponse.neutral(illuminant: pipeline.calibration.spectrum, camera: pipeline.camera)
            let xyz = pipeline.matrix.matrix * (c / n)
            let lab = Lab(XYZ(xyz * 100), white: white)
            let ref = Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65)
            errs.append(DeltaE.ciede2000(lab, ref))
        }
        print("matrix-only mean", errs.reduce(0, +) / 24, errs.map { Int($0.rounded()) })
    }
}

extension ScratchTests {
    @Test func chartDebug() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let light = try Illuminants.make(cct: 3000, duv: 0.02)
        let scene = ConstantColorFixture.chartScene(illuminant: light, lux: 200)
        let result = pipeline.capture(scene: scene, seed: 3)
        let map = result.confidenceMap
        for y in 0..<map.plane.height {
            print((0..<map.plane.width).map { String(format: "%3.0f", map.snr[y * map.plane.width + $0]) }.joined(separator: " "))
        }
        print("reg", result.diagnostics.registration, "ratio", result.diagnostics.ambientToFlash, result.diagnostics.ambientFromFlashPair, "noise", pipeline.camera.noise)
        let renderer = Renderer(scene: scene, camera: pipeline.camera, flash: nil)
        let labs = ConstantColorFixture.chartLab(result.flashOnly, frame: result.diagnostics.flashFrame, materials: renderer.materials)
        for (i, patch) in ColorChecker.patches.enumerated() {
            let reference = Colorimetry.lab(reflectance: patch.reflectance, illuminant: Illuminants.d65)
            print("pure", patch.name, labs[i].map { DeltaE.ciede2000($0, reference) } ?? -1, labs[i].map { "\($0.L) \($0.a) \($0.b)" } ?? "", reference.L, reference.a, reference.b)
        }
    }
}
