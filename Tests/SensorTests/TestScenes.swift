import Foundation
import Scenes
import Sensor
import Spectra

/// Shared fixtures: a small camera with the illustrative Gaussian QE of color-science spec §3.3.
enum TestScenes {
    static func gaussian(_ centre: Double, _ sigma: Double) -> Spectrum {
        Spectrum { l in 0.6 * exp(-0.5 * ((l - centre) / sigma) * ((l - centre) / sigma)) }
    }

    /// 64×48, f/1.8, 1.4 µm, T = 0.9, ideal pinhole with fx = fy = 40.
    static func camera(noise: NoiseParameters = NoiseParameters(), distortion: LensDistortion? = nil) -> CameraModel {
        CameraModel(
            width: 64, height: 48, fx: 40, fy: 40, cx: 32, cy: 24, distortion: distortion, fNumber: 1.8,
            lensTransmittance: 0.9, pixelPitchMicrometres: 1.4,
            quantumEfficiency: (gaussian(600, 30), gaussian(535, 35), gaussian(460, 25)), noise: noise)
    }

    /// The device at the origin looking down −Z (image right = world +X, image down = world −Y).
    static let device = DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1))

    /// A large matte wall at z = −distance facing the camera.
    static func wall(distance: Double, reflectance: Double = 0.18, rotation: Rotation = .identity) -> SceneObject {
        SceneObject(
            name: "wall", shape: .plane(width: 50, height: 50),
            transform: Transform(position: Vector3(0, 0, -distance), rotation: rotation),
            surface: .uniform(.neutral("grey", reflectance: reflectance)))
    }

    /// D65 arriving straight along the optical axis, `lux` on a surface facing the camera.
    static func frontalD65(lux: Double) -> AmbientLight {
        AmbientLight(spectrum: Illuminants.d65, illuminance: lux, direction: Vector3(0, 0, 1), diffuseFraction: 0)
    }

    static let quiet = NoiseParameters(
        fullWellElectrons: 1e9, readNoiseElectrons: 0, prnu: 0, dsnuElectrons: 0, adcBits: 16, blackLevel: 0,
        whiteLevel: 65535, baseISO: 100)

    static func mean(_ values: [Float], channel: Int) -> Double {
        var s = 0.0
        var n = 0
        for i in stride(from: channel, to: values.count, by: 3) {
            s += Double(values[i])
            n += 1
        }
        return s / Double(n)
    }

    static func variance(_ values: [Float], channel: Int) -> Double {
        let m = mean(values, channel: channel)
        var s = 0.0
        var n = 0
        for i in stride(from: channel, to: values.count, by: 3) {
            s += (Double(values[i]) - m) * (Double(values[i]) - m)
            n += 1
        }
        return s / Double(n - 1)
    }
}
