import Devices
import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Vignetting against the cos⁴ law: a uniformly lit flat wall facing the camera has the same radiance
/// everywhere, so the sensor irradiance at a pixel is the centre's times the lens's relative
/// illumination there, cos⁴θ for an ideal lens, with tan θ the pixel centre's distance from the
/// principal point over the focal length.
struct LensShadingTests {
    /// cos⁴θ at the centre of pixel (x, y) of the test camera, from the angle itself.
    static func cosineFourth(_ camera: CameraModel, x: Int, y: Int) -> Double {
        let u = (Double(x) + 0.5 - camera.cx) / camera.fx, v = (Double(y) + 0.5 - camera.cy) / camera.fy
        return pow(cos(atan((u * u + v * v).squareRoot())), 4)
    }

    static func shadedCamera(noise: NoiseParameters = TestScenes.quiet) -> CameraModel {
        var camera = TestScenes.camera(noise: noise)
        camera.shading = LensShading(naturalCosineFourth: true, cornerTangent: 1)
        return camera
    }

    static func flatField(_ camera: CameraModel) -> Renderer {
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        return Renderer(scene: scene, camera: camera, flash: nil)
    }

    /// The noise-free corner/centre ratio equals cos⁴θ_corner / cos⁴θ_centre to single precision
    /// (the corner of this 64×48, f = 40 px camera lies at θ = 44°, cos⁴θ = 0.259).
    @Test func flatFieldFallsOffAsCosineFourth() {
        let camera = Self.shadedCamera()
        let frame = Self.flatField(camera).render(Exposure(time: 0.01, iso: 100))
        let ambient = frame.ambientElectrons ?? []
        let centre = ambient[(24 * 64 + 32) * 3 + 1]
        for (x, y) in [(0, 0), (63, 0), (0, 47), (63, 47), (10, 30)] {
            let ratio = Double(ambient[(y * 64 + x) * 3 + 1] / centre)
            let expected = Self.cosineFourth(camera, x: x, y: y) / Self.cosineFourth(camera, x: 32, y: 24)
            #expect(abs(ratio / expected - 1) < 1e-5, "(\(x), \(y)): \(ratio) vs cos⁴ \(expected)")
        }
        #expect(Self.cosineFourth(camera, x: 0, y: 0) < 0.26)
    }

    /// With shot and read noise, the 8×8 corner block's mean over the centre block's mean matches the
    /// blocks' mean cos⁴ ratio within 4σ. At ~10⁵ e⁻ in the centre and 2.6·10⁴ e⁻ in the corner, 64
    /// pixels give the corner mean to σ = √(2.6·10⁴ + 9)/8 ≈ 20 e⁻ (0.08 %) and the centre's to 0.04 %:
    /// the ratio's relative σ is their quadrature sum, 0.09 %, so the bound is 0.36 %.
    @Test func noisyFlatFieldFallsOffAsCosineFourthWithinNoise() {
        let noise = NoiseParameters(
            fullWellElectrons: 1e7, readNoiseElectrons: 3, prnu: 0, dsnuElectrons: 0, adcBits: 16, blackLevel: 0,
            whiteLevel: 65535, baseISO: 100)
        let camera = Self.shadedCamera(noise: noise)
        let renderer = Self.flatField(camera)
        let probe = renderer.render(Exposure(time: 1, iso: 100)).ambientElectrons ?? []
        let rate = Double(probe[(24 * 64 + 32) * 3 + 1])
        let frame = renderer.render(Exposure(time: 1e5 / rate, iso: 100, seed: 9))
        func block(_ x0: Int, _ y0: Int) -> (measured: Double, law: Double) {
            var e = 0.0, law = 0.0
            for y in y0..<(y0 + 8) {
                for x in x0..<(x0 + 8) {
                    e += Double(frame.electrons[(y * 64 + x) * 3 + 1])
                    law += Self.cosineFourth(camera, x: x, y: y)
                }
            }
            return (e / 64, law / 64)
        }
        let corner = block(0, 0), centre = block(28, 20)
        let ratio = corner.measured / centre.measured, expected = corner.law / centre.law
        #expect(abs(ratio / expected - 1) < 0.0036, "corner/centre \(ratio), cos⁴ \(expected)")
    }

    /// A table alone is read linearly in normalised image height h = tan θ / tan θ_corner.
    @Test func tableIsInterpolatedInImageHeight() {
        var camera = TestScenes.camera(noise: TestScenes.quiet)
        let corner = (31.5 * 31.5 + 23.5 * 23.5).squareRoot() / 40
        camera.shading = LensShading(
            naturalCosineFourth: false, imageHeights: [0, 0.5, 1], values: [1, 0.8, 0.5], cornerTangent: corner)
        // Pixel (0, 0) is the corner itself (h = 1); the centre of pixel (48, 24) lies at (16.5, 0.5) px from
        // the principal point.
        #expect(abs(camera.relativeIllumination(x: 0, y: 0) - 0.5) < 1e-12)
        let h = (16.5 * 16.5 + 0.5 * 0.5).squareRoot() / 40 / corner
        let expected = h < 0.5 ? 1 - 0.4 * h : 0.8 - 0.6 * (h - 0.5)
        #expect(abs(camera.relativeIllumination(x: 48, y: 24) - expected) < 1e-12)
        #expect(TestScenes.camera().relativeIllumination(x: 0, y: 0) == 1)
    }

    /// The plain reference renderer states the same fall-off: the fast renderer agrees with it.
    @Test func referenceRendererAgrees() {
        let camera = Self.shadedCamera()
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        let exposure = Exposure(time: 0.01, iso: 100)
        let fast = Renderer(scene: scene, camera: camera, flash: nil).render(exposure).ambientElectrons ?? []
        let reference = ReferenceRenderer(scene: scene, camera: camera, flash: nil).render(exposure).ambientElectrons
        for i in stride(from: 1, to: reference.count, by: 3 * 37) {
            #expect(abs(Double(fast[i]) / reference[i] - 1) < 1e-4, "value \(i)")
        }
    }

    /// The catalogue's iPhone 15 Pro wide camera follows the natural law at its own field of view: at
    /// its farthest reference corner tan θ = 21.63 mm / 24 mm (the 35 mm-equivalent half diagonal over
    /// the equivalent focal length), cos⁴θ = 0.305.
    @Test func profileWideCameraUsesTheCosineFourthLaw() throws {
        let profile = try DeviceProfileAdapterTests.profile("iphone-15-pro")
        let camera = try CameraModel(
            device: profile, camera: try profile.camera(ofType: .builtInWideAngleCamera, position: .back),
            width: 8064, height: 6048)
        let shading = try #require(camera.shading)
        let law = pow(cos(atan(43.27 / 2 / 24)), 4)
        #expect(abs(shading.relativeIllumination(tangentSquared: shading.cornerTangent * shading.cornerTangent) - law)
            < 0.003)
    }
}
