import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// Auto exposure against the ISO 12232 saturation-based mid-grey, 10/78 of the clipping signal.
struct AutoExposureTests {
    static func wallScene(lux: Double) -> Scene {
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 50, height: 50), transform: Transform(position: Vector3(0, 0, -1)),
            surface: .uniform(.neutral("grey 18", reflectance: 0.18)))
        return Scene(
            objects: [wall],
            ambient: AmbientLight(
                spectrum: Illuminants.d65, illuminance: lux, direction: Vector3(0, 0, 1), diffuseFraction: 0),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }

    /// An 18 % grey wall lands at 10/78 of (white − black) in green once the lens's vignetting is
    /// corrected (the camera's corners get 31 % of the centre's light), in a bright room (time chosen
    /// at base ISO) and a dim one (time capped at 1/30 s, ISO raised).
    @Test(arguments: [2000.0, 20.0])
    func midGreyLandsOnTarget(lux: Double) throws {
        var camera = try ChartFixture.camera()
        camera.noise = NoiseParameters(
            fullWellElectrons: 6500, readNoiseElectrons: 2.2, prnu: 0.007, dsnuElectrons: 1, adcBits: 10,
            blackLevel: 64, whiteLevel: 1023, baseISO: 50)
        let scene = Self.wallScene(lux: lux)
        let metering = Renderer(scene: scene, camera: camera.scaled(toWidth: 40, height: 30), flash: nil)
        let ae = AutoExposure(noise: camera.noise)
        let exposure = ae.solve(meteringRenderer: metering, flash: false, seed: 3)
        let frame = Renderer(scene: scene, camera: camera, flash: nil).render(exposure)
        var sum = 0.0
        for p in 0..<(frame.width * frame.height) {
            let shading = camera.relativeIllumination(x: p % frame.width, y: p / frame.width)
            sum += (Double(frame.dn[3 * p + 1]) - 64) / shading
        }
        let fraction = sum / Double(frame.width * frame.height) / (1023 - 64)
        #expect(abs(fraction / (10.0 / 78) - 1) < 0.03, "fraction \(fraction), exposure \(exposure)")
        if lux < 100 {
            #expect(exposure.time == 1.0 / 30 && exposure.iso > 50)
        } else {
            #expect(exposure.iso == 50 && exposure.time < 1.0 / 30)
        }
    }
}
