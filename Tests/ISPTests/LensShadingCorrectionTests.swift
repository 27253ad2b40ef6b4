import Devices
import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra
import Testing

/// Lens-shading correction in the develop step: a uniformly lit flat wall, dimmed to 31 % in the
/// corners by the iPhone 15 Pro wide lens (cos⁴ law), gets back the profile's fraction f = 0.8 of the
/// lost light, R + f·(1 − R), and comes out flat with f = 1.
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

    /// The chart fixture's camera with the profile's own correction (the fixture corrects completely).
    static func camera() throws -> CameraModel {
        let device = try DeviceCatalog(directory: ChartFixture.profiles).profile("iphone-15-pro")
        let profileCamera = try device.camera(ofType: .builtInWideAngleCamera)
        var camera = try ChartFixture.camera()
        camera.shading?.correctedFraction = try #require(profileCamera.shading?.correction)
        return camera
    }

    /// cos⁴θ at the centre of pixel (x, y), from the angle itself.
    static func cosineFourth(_ camera: CameraModel, x: Int, y: Int) -> Double {
        let u = (Double(x) + 0.5 - camera.cx) / camera.fx, v = (Double(y) + 0.5 - camera.cy) / camera.fy
        return pow(cos(atan((u * u + v * v).squareRoot())), 4)
    }

    /// The frame and the linear green of its develop through `camera`'s correction.
    static func developed(_ camera: CameraModel, _ frame: RawFrame) -> [Float] {
        let balance = WhiteBalance(illuminant: Illuminants.d65, camera: camera)
        let settings = BasicDevelop.Settings(toneCurve: .linear, exposureScale: 1)
        return BasicDevelop(camera: camera, whiteBalance: balance, settings: settings).linearRGB(frame)
    }

    /// Corner and centre 8×8 blocks of linear green against the closed form, within 0.1 %. The frame puts
    /// ~2·10⁶ e⁻ in the centre and ~6·10⁵ e⁻ in the corner (quiet noise: shot noise only, 16-bit ADC at
    /// 0.016 DN/e⁻); the corner block's mean is then known to √(6·10⁵)/(6·10⁵·8) = 0.016 % and the
    /// centre's to 0.009 % (1σ), so 0.1 % is over 5σ of their ratio. Uncorrected, the ratio is the lens's 0.31.
    @Test func flatFieldKeepsTheProfilesShareOfTheFallOff() throws {
        let camera = try Self.camera()
        let fraction = try #require(camera.shading?.correctedFraction)
        #expect(fraction == 0.8, "the catalogue's correction")
        let renderer = Renderer(scene: Self.wall(), camera: camera, flash: nil)
        let probe = renderer.render(Exposure(time: 0.001, iso: 100)).ambientElectrons ?? []
        let centreRate = Double(probe[(60 * 160 + 80) * 3 + 1]) / 0.001
        let frame = renderer.render(Exposure(time: 2e6 / centreRate, iso: 100, seed: 5))
        func block(_ values: (Int, Int) -> Double, _ x0: Int, _ y0: Int) -> Double {
            var sum = 0.0
            for y in y0..<(y0 + 8) { for x in x0..<(x0 + 8) { sum += values(x, y) } }
            return sum / 64
        }
        func ratio(_ linear: [Float]) -> Double {
            let green = { (x: Int, y: Int) in Double(linear[(y * 160 + x) * 3 + 1]) }
            return block(green, 0, 0) / block(green, 76, 56)
        }
        func law(_ f: Double) -> Double {
            let kept = { (x: Int, y: Int) -> Double in
                let r = Self.cosineFourth(camera, x: x, y: y)
                return r + f * (1 - r)
            }
            return block(kept, 0, 0) / block(kept, 76, 56)
        }
        let partial = ratio(Self.developed(camera, frame))
        #expect(abs(partial / law(fraction) - 1) < 0.001, "corner/centre \(partial), closed form \(law(fraction))")
        #expect(partial < 0.9, "the corner keeps some fall-off")
        var complete = camera
        complete.shading?.correctedFraction = 1
        let flat = ratio(Self.developed(complete, frame))
        #expect(abs(flat - 1) < 0.001, "corner/centre after a full correction \(flat)")
        var unshaded = camera
        unshaded.shading = nil
        let raw = ratio(Self.developed(unshaded, frame))
        #expect(raw < 0.35, "corner/centre without correction \(raw)")
    }

    /// The correction multiplies each pixel, its noise with it, by g = 1 + f·(1/R − 1): 2.8× at a corner
    /// where the full correction's 1/R is 3.2×. Against the uncorrected develop of the same frame, every
    /// pixel's ratio is g within single precision (1e-5).
    @Test func eachPixelIsMultipliedByThePartialGain() throws {
        let camera = try Self.camera()
        let f = try #require(camera.shading?.correctedFraction)
        let renderer = Renderer(scene: Self.wall(), camera: camera, flash: nil)
        let probe = renderer.render(Exposure(time: 0.001, iso: 100)).ambientElectrons ?? []
        let centreRate = Double(probe[(60 * 160 + 80) * 3 + 1]) / 0.001
        let frame = renderer.render(Exposure(time: 2e6 / centreRate, iso: 100, seed: 2))
        var unshaded = camera
        unshaded.shading = nil
        let corrected = Self.developed(camera, frame), plain = Self.developed(unshaded, frame)
        var cornerGain = 0.0
        for (x, y) in [(0, 0), (159, 0), (0, 119), (159, 119), (80, 60), (40, 90), (120, 20)] {
            let r = Self.cosineFourth(camera, x: x, y: y)
            let g = 1 + f * (1 / r - 1)
            if x == 0, y == 0 { cornerGain = g }
            for c in 0..<3 {
                let i = (y * 160 + x) * 3 + c
                let ratio = Double(corrected[i] / plain[i])
                #expect(abs(ratio / g - 1) < 1e-5, "(\(x), \(y)) channel \(c): \(ratio), gain \(g)")
            }
        }
        #expect(cornerGain > 2.6 && cornerGain < 2.9, "corner gain \(cornerGain)")
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

    /// The DNG's gain map carries this correction: at every 97th pixel across and down, its interpolated gain is
    /// 1 + f·(1 − cos⁴θ)/cos⁴θ at the pixel's own field angle, to the bilinear interpolation's error on a grid of
    /// 33 points across (a few thousandths against gains up to 2.9 in the corners).
    @Test func theDNGGainMapIsTheCorrection() throws {
        let camera = try Self.camera()
        let map = try #require(DNGFile.GainMap.lensShadingCorrection(camera: camera))
        let f = try #require(camera.shading?.correctedFraction)
        #expect(map.pointsH == 33 && map.bottom == camera.height && map.right == camera.width)
        var worst = 0.0
        for y in stride(from: 0, to: camera.height, by: 97) {
            for x in stride(from: 0, to: camera.width, by: 97) {
                let r = Self.cosineFourth(camera, x: x, y: y)
                let exact = 1 + f * (1 / r - 1)
                worst = max(worst, abs(Double(map.gain(column: x, row: y, width: camera.width, height: camera.height)) - exact))
            }
        }
        #expect(worst < 0.01, "worst \(worst)")
    }
}
