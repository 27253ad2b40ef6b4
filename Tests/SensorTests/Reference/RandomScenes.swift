import Foundation
import Scenes
import Sensor
import Spectra

/// Seeded random scenes for comparing the two renderers: a wall behind a handful of spheres,
/// boxes, discs and cards (some glossy, one a chart) in front of the camera, an ambient with a key
/// (sometimes soft) and a sky, extra point, spot and directional lights, and a flash of one or two
/// modules.
struct RandomScenes {
    /// SplitMix64 (Steele, Lea & Flood 2014): a tiny generator whose stream is fixed by its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    var random: Generator

    init(seed: UInt64) { random = Generator(state: seed) }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }

    mutating func direction() -> Vector3 {
        Vector3(uniform(-1...1), uniform(-1...1), uniform(-1...1)).normalized
    }

    mutating func rotation() -> Rotation { Rotation(axis: direction(), radians: uniform(0...Double.pi)) }

    /// A smooth reflectance: a floor plus a Gaussian bump somewhere in the visible.
    mutating func material(_ name: String) -> Material {
        let floor = uniform(0.03...0.3)
        let peak = uniform(0.1...0.6)
        let centre = uniform(420...680)
        let width = uniform(30...120)
        let reflectance = Spectrum { l in floor + peak * exp(-0.5 * ((l - centre) / width) * ((l - centre) / width)) }
        let glossy = Bool.random(using: &random)
        return Material(
            name: name, reflectance: reflectance, specularStrength: glossy ? uniform(0.05...0.6) : 0,
            roughness: uniform(0.25...0.85))
    }

    /// A light spectrum: D65, illuminant A, or a coloured LED-like bump on a little white.
    mutating func spectrum() -> Spectrum {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return Illuminants.d65
        case 1: return Illuminants.a
        default:
            let centre = uniform(450...640)
            return Spectrum { l in 0.05 + exp(-0.5 * ((l - centre) / 25) * ((l - centre) / 25)) }
        }
    }

    /// A point in front of the camera at depth z (camera at the origin looking down −Z), inside a
    /// view of about ±30° across and ±22° up and down.
    mutating func inView(depth z: Double) -> Vector3 { Vector3(uniform(-0.55...0.55) * z, uniform(-0.4...0.4) * z, -z) }

    mutating func scene(objects count: Int) -> Scene {
        var objects = [
            SceneObject(
                name: "wall", shape: .plane(width: 30, height: 30),
                transform: Transform(position: Vector3(0, 0, -6), rotation: Rotation(axis: direction(), radians: 0.3)),
                surface: .uniform(material("wall")))
        ]
        for i in 0..<count {
            let position = inView(depth: uniform(1.6...4.5))
            let shape: Shape
            switch Int.random(in: 0..<4, using: &random) {
            case 0: shape = .sphere(radius: uniform(0.15...0.6))
            case 1: shape = .box(width: uniform(0.2...0.8), height: uniform(0.2...0.8), depth: uniform(0.2...0.8))
            case 2: shape = .disc(radius: uniform(0.15...0.5))
            default: shape = .plane(width: uniform(0.3...1.2), height: uniform(0.3...1.0))
            }
            var surface = Surface.uniform(material("m\(i)"))
            if case .plane = shape, i % 2 == 0 {
                surface = .grid(
                    columns: 3, rows: 2, patches: (0..<6).map { material("patch \($0)") }, border: material("border"),
                    gap: 0.2)
            }
            objects.append(
                SceneObject(
                    name: "object \(i)", shape: shape, transform: Transform(position: position, rotation: rotation()),
                    surface: surface))
        }
        // The key comes from the camera's side of the scene, so most of what the camera sees is lit.
        var key = direction()
        key.z = abs(key.z) + 0.3
        let soft = Int.random(in: 0..<3, using: &random) == 0
        let ambient = AmbientLight(
            spectrum: spectrum(), illuminance: uniform(50...800), direction: key.normalized,
            diffuseFraction: uniform(0...0.6), keyAngularRadiusDegrees: soft ? uniform(1...4) : 0)
        var lights: [Light] = []
        for j in 0..<Int.random(in: 1...3, using: &random) {
            let position = Vector3(uniform(-1.5...1.5), uniform(-1.2...1.2), uniform(-1.5...0.5))
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                lights.append(
                    Light(
                        name: "lamp \(j)", spectrum: spectrum(),
                        kind: .point(position: position, intensity: uniform(5...80))))
            case 1:
                let aim = (inView(depth: uniform(2...5)) - position).normalized
                lights.append(
                    Light(
                        name: "spot \(j)", spectrum: spectrum(),
                        kind: .spot(
                            position: position, axis: aim, intensity: uniform(20...200),
                            beamHalfAngleDegrees: uniform(10...60))))
            default:
                var towards = direction()
                towards.z = abs(towards.z)
                lights.append(
                    Light(
                        name: "sun \(j)", spectrum: spectrum(),
                        kind: .directional(towardsLight: towards, illuminance: uniform(20...500))))
            }
        }
        return Scene(objects: objects, ambient: ambient, lights: lights, device: TestScenes.device)
    }

    /// One or two modules a few centimetres from the lens. Two modules get different beams, so the
    /// fast renderer keeps them apart as the reference does (it merges only modules of one beam).
    mutating func flash() -> FlashModel {
        let modules = (0..<Int.random(in: 1...2, using: &random)).map { k in
            FlashModel.Module(
                spectrum: spectrum(), intensityCandela: uniform(50...300),
                beamHalfAngleDegrees: 20 + 25 * Double(k) + uniform(0...10),
                positionInCamera: Vector3(uniform(-0.03...0.03), uniform(-0.03...0.03), 0),
                axisInCamera: Vector3(uniform(-0.1...0.1), uniform(-0.1...0.1), 1))
        }
        return FlashModel(modules: modules)
    }
}
