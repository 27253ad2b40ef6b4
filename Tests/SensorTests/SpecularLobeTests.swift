import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The gloss lobe against normalised Blinn–Phong in closed form.
///
/// A Lambertian surface has BRDF ρ/π; a normalised Blinn–Phong lobe has BRDF
/// k_s·(n + 8)/(8π)·cosⁿ θ_h (Akenine-Möller et al., Real-Time Rendering, 3rd ed. §7.6), with
/// n = 2/α² − 2 and α = r² for perceptual roughness r (Walter et al. 2007). Under one point light
/// both are multiplied by the same irradiance, and the lobe reflects the light's own colour, so on
/// a spectrally flat reflectance the specular-to-diffuse signal ratio is, in every channel,
/// k_s·(n + 8)/8·cosⁿ θ_h / ρ, with θ_h the angle between the normal and the half vector of the
/// directions to the light and to the camera.
struct SpecularLobeTests {
    /// Point light in the camera's plane, placed so that its mirror point on the wall at z = −1 is
    /// the centre of pixel (40, 30): ray (8.5/40, −6.5/40, −1) hits (0.2125, −0.1625, −1), and a
    /// light at twice those x, y with z = 0 reflects there with θ_h = 0.
    static let light = Vector3(0.425, -0.325, 0)
    static let wallDistance = 1.0

    /// Noise-free electrons from the point light (RGB interleaved) of a wall of `material`.
    func signal(_ material: Material, _ engine: Engine) -> [Float] {
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 50, height: 50),
            transform: Transform(position: Vector3(0, 0, -Self.wallDistance), rotation: .identity),
            surface: .uniform(material))
        let lamp = Light(name: "lamp", spectrum: Illuminants.d65, kind: .point(position: Self.light, intensity: 50))
        let scene = Scene(objects: [wall], ambient: nil, lights: [lamp], device: TestScenes.device)
        return engine.render(
            scene, camera: TestScenes.camera(noise: TestScenes.quiet), exposure: Exposure(time: 1, iso: 100)
        )
        .ambientElectrons ?? []
    }

    /// cos θ_h at pixel (x, y) from the geometry alone: camera at the origin looking down −Z
    /// (image right = +X, image down = −Y), fx = fy = 40, principal point (32, 24).
    func cosHalfAngle(_ x: Int, _ y: Int) -> Double {
        let u = (Double(x) + 0.5 - 32) / 40
        let v = (Double(y) + 0.5 - 24) / 40
        let point = Vector3(u, -v, -1) * Self.wallDistance
        let toCamera = (Vector3.zero - point).normalized
        let toLight = (Self.light - point).normalized
        let h = (toCamera + toLight).normalized
        return h.z  // wall normal (0, 0, 1)
    }

    /// The closed form k_s·(n + 8)/8·cosⁿ θ_h / ρ.
    func expectedRatio(_ x: Int, _ y: Int, roughness r: Double, strength: Double, reflectance: Double) -> Double {
        let alpha = r * r
        let n = 2 / (alpha * alpha) - 2
        return strength * (n + 8) / 8 * pow(cosHalfAngle(x, y), n) / reflectance
    }

    /// The mirror pixel and pixels off it, θ_h from 0 to 47° (the lobe of r = 0.3 falls
    /// from 32 to 10⁻⁴⁰ over them, that of r = 0.7 only from 1.8 to 0.16). r = 0.5 gives n = 30, a
    /// whole n/2, whose power the renderer takes by repeated squaring.
    static let pixels = [
        (40, 30), (41, 30), (42, 31), (40, 33), (37, 28), (44, 27), (35, 34), (32, 24), (47, 36), (60, 45), (4, 4),
    ]

    @Test(arguments: [0.3, 0.45, 0.5, 0.7], Engine.allCases)
    func glossMinusMatteFollowsNormalisedBlinnPhong(roughness: Double, engine: Engine) {
        let rho = 0.5
        let ks = 0.04
        let glossy = signal(
            Material(name: "lacquer", reflectance: .constant(rho), specularStrength: ks, roughness: roughness), engine)
        let matte = signal(.neutral("matte", reflectance: rho), engine)
        #expect(glossy.count == 64 * 48 * 3 && matte.count == glossy.count)
        guard glossy.count == 64 * 48 * 3, matte.count == glossy.count else { return }
        var checked = 0
        for (x, y) in Self.pixels {
            let expected = expectedRatio(x, y, roughness: roughness, strength: ks, reflectance: rho)
            // Where the lobe is under 10⁻³ of the diffuse signal, Float rounding of the sum (a few
            // 10⁻⁸ of it) would no longer be far below the tolerance.
            guard expected > 1e-3 else { continue }
            checked += 1
            for ch in 0..<3 {
                let i = (y * 64 + x) * 3 + ch
                let d = Double(matte[i])
                let got = (Double(glossy[i]) - d) / d
                #expect(
                    d > 0 && abs(got / expected - 1) < 1e-3,
                    "r \(roughness) pixel \(x),\(y) ch \(ch): \(got) vs \(expected)")
            }
        }
        #expect(checked >= 5)
    }

    /// A material with no diffuse part reflects only the lobe: its signal over that of a white
    /// matte wall is k_s·(n + 8)/8·cosⁿ θ_h, with no subtraction in between.
    @Test(arguments: Engine.allCases)
    func pureLobeOverWhiteMatte(engine: Engine) {
        let roughness = 0.35
        let ks = 0.9
        let lobe = signal(
            Material(name: "mirror-ish", reflectance: .constant(0), specularStrength: ks, roughness: roughness), engine)
        let white = signal(.neutral("white", reflectance: 1), engine)
        guard lobe.count == 64 * 48 * 3, white.count == lobe.count else {
            Issue.record("no ambient plane")
            return
        }
        for (x, y) in Self.pixels {
            let expected = expectedRatio(x, y, roughness: roughness, strength: ks, reflectance: 1)
            guard expected > 1e-6 else { continue }
            let i = (y * 64 + x) * 3 + 1
            let got = Double(lobe[i]) / Double(white[i])
            #expect(abs(got / expected - 1) < 1e-3, "pixel \(x),\(y): \(got) vs \(expected)")
        }
    }
}
