import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// Lens-shading correction in the develop step: a uniformly lit flat wall, dimmed to 31 % in the
/// corners by the iPhone 15 Pro wide lens (cos⁴ law), comes out flat.
struct LensShadingCorrectionTests {
    static func wall() -> Scene {
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 20, height: 20), transform: Transform(position: Vector3(0, 0, -1)),
            surface: .uniform(.neutral("grey", reflectance: 0.5)))
        return Scene(
            objects: [wall],
            ambient: AmbientLight(
                spectrum: Illuminants.d65, illuminance: 500, direction: Vector3(0, 0, 1), diffuseFraction: 0),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }

    /// Corner and centre 8×8 blocks of linear green agree within 0.1 %. The frame puts ~2·10⁶ e⁻ in
    /// the centre and ~6·10⁵ e⁻ in the corner (quiet noise: shot noise only, 16-bit ADC at 0.016 DN/e⁻);
    /// the corner block's mean is then known to √(6·10⁵)/(6·10⁵·8) = 0.016 % and the centre's to
    /// 0.009 % (1σ), so 0.1 % is over 5σ of their ratio. Uncorrected, the ratio is the lens's 0.31.
    @Test func flatFieldIsFlatAfterCorrection() throws {
        let camera = try ChartFixture.camera()
        #expect(camera.shading != nil)
        let renderer = Renderer(scene: Self.wall(), camera: camera, flash: nil)
        let probe = renderer.render(Exposure(time: 0.001, iso: 100)).ambientElectrons ?? []
        let centreRate = Double(probe[(60 * 160 + 80) * 3 + 1]) / 0.001
        let frame = renderer.render(Exposure(time: 2e6 / centreRate, iso: 100, seed: 5))
        func ratio(_ develop: BasicDevelop) -> Double {
            let linear = develop.linearRGB(frame)
            func block(_ x0: Int, _ y0: Int) -> Double {
                var sum = 0.0
                for y in y0..<(y0 + 8) { for x in x0..<(x0 + 8) { sum += Double(linear[(y * 160 + x) * 3 + 1]) } }
                return sum / 64
            }
            return block(0, 0) / block(76, 56)
        }
        let balance = WhiteBalance(illuminant: Illuminants.d65, camera: camera)
        let settings = BasicDevelop.Settings(toneCurve: .linear, exposureScale: 1)
        let corrected = ratio(BasicDevelop(camera: camera, whiteBalance: balance, settings: settings))
        #expect(abs(corrected - 1) < 0.001, "corner/centre after correction \(corrected)")
        var unshaded = camera
        unshaded.shading = nil
        let raw = ratio(BasicDevelop(camera: unshaded, whiteBalance: balance, settings: settings))
        #expect(raw < 0.35, "corner/centre without correction \(raw)")
    }

    /// Lens-shading correction in Constant Color: a grey wall photographed through the vignetting
    /// lens and through the same lens without vignetting gives the same picture wherever the flash
    /// is trusted. The corner 8×8 block's mean decoded luminance agrees within 3 %: its flash-only
    /// signal there is ~2,000 e⁻ per pixel through the shaded lens (σ ≈ 2.5 % per pixel with the
    /// ambient frame's noise), 64 pixels bring that to 0.3 %, and 8-bit coding adds 0.4 % at the
    /// block's level; 3 % leaves room for the exposure, set from the whole picture, to differ slightly.
    @Test func constantColorCorrectsLensShading() throws {
        let shaded = try ConstantColorFixture.pipeline(width: 160, height: 120)
        #expect(shaded.camera.shading != nil)
        var flatCamera = shaded.camera
        flatCamera.shading = nil
        let flat = ConstantColorPipeline(
            camera: flatCamera, flash: shaded.flash, calibration: shaded.calibration, settings: shaded.settings)
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 4, height: 4), transform: Transform(position: Vector3(0, 0, -0.5)),
            surface: .uniform(.neutral("grey", reflectance: 0.4)))
        let scene = Scene(
            objects: [wall], ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 10),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
        func corner(_ pipeline: ConstantColorPipeline) -> Double {
            let photo = pipeline.capture(scene: scene, seed: 3).photo
            var sum = 0.0
            for y in 4..<12 { for x in 4..<12 { sum += pow(Double(photo[x, y, 1]) / 255, 2.2) } }
            return sum / 64
        }
        let a = corner(shaded), b = corner(flat)
        #expect(abs(a / b - 1) < 0.03, "corner with vignetting corrected \(a), without vignetting \(b)")
    }
}
