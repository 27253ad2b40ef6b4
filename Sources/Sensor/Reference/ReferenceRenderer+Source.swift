import Foundation
import Imaging
import Scenes
import Spectra

extension ReferenceRenderer {
    /// One light as the reference sees it: where it is, how its beam falls off, and its spectrum
    /// per unit geometric factor (W·m⁻²·nm⁻¹ for distant lights, W·sr⁻¹·nm⁻¹ for lamps).
    struct Source: Sendable {
        enum Kind: Sendable {
            /// A distant disc of angular radius `angularRadius` (radians) towards `towards`.
            case key(towards: Vector3, angularRadius: Double)
            /// A uniform hemisphere centred on `towards`.
            case sky(towards: Vector3)
            /// A point at `position`, isotropic or with a cos^m α beam along `axis`.
            case lamp(position: Vector3, beam: (axis: Vector3, exponent: Double)?)
        }

        var kind: Kind
        var spectrum: Spectrum
        var isFlash: Bool

        /// `spectrum` scaled to carry `photometric` lux or candela: S·P/(683 lm/W · Σ S·V Δλ) (CIE 15).
        static func scaled(_ spectrum: Spectrum, to photometric: Double, efficiency: Spectrum) -> Spectrum {
            var perWatt = 0.0
            for k in 0..<Spectrum.count { perWatt += spectrum.values[k] * efficiency.values[k] * Spectrum.step }
            perWatt *= Photometry.maximumLuminousEfficacy
            precondition(perWatt > 0, "a light spectrum must have visible power")
            return spectrum * (photometric / perWatt)
        }

        /// The scene's ambient (key and sky), its extra lights, and each flash module on its own.
        static func all(
            scene: Scene, flash: FlashModel?, origin: Vector3, rotation: Rotation, efficiency: Spectrum
        ) -> [Source] {
            var out: [Source] = []
            if let a = scene.ambient {
                let full = scaled(a.spectrum, to: a.illuminance, efficiency: efficiency)
                let f = a.diffuseFraction
                let radius = a.keyAngularRadiusDegrees * Double.pi / 180
                if f < 1 {
                    out.append(
                        Source(
                            kind: .key(towards: a.direction, angularRadius: radius), spectrum: full * (1 - f),
                            isFlash: false))
                }
                if f > 0 { out.append(Source(kind: .sky(towards: a.direction), spectrum: full * f, isFlash: false)) }
            }
            for light in scene.lights {
                switch light.kind {
                case let .directional(towards, lux):
                    out.append(
                        Source(
                            kind: .key(towards: towards.normalized, angularRadius: 0),
                            spectrum: scaled(light.spectrum, to: lux, efficiency: efficiency), isFlash: false))
                case let .point(position, candela):
                    out.append(
                        Source(
                            kind: .lamp(position: position, beam: nil),
                            spectrum: scaled(light.spectrum, to: candela, efficiency: efficiency), isFlash: false))
                case let .spot(position, axis, candela, half):
                    out.append(
                        Source(
                            kind: .lamp(
                                position: position,
                                beam: (axis.normalized, BeamPattern.exponent(halfAngleDegrees: half))),
                            spectrum: scaled(light.spectrum, to: candela, efficiency: efficiency), isFlash: false))
                }
            }
            // Flash modules sit and aim in the camera frame: carried into the world by the camera's pose.
            for module in flash?.modules ?? [] {
                out.append(
                    Source(
                        kind: .lamp(
                            position: origin + rotation.apply(module.positionInCamera),
                            beam: (rotation.apply(module.axisInCamera).normalized, module.beamExponent)),
                        spectrum: scaled(module.spectrum, to: module.intensityCandela, efficiency: efficiency),
                        isFlash: true))
            }
            return out
        }
    }
}
