import Foundation
import Scenes
import Spectra

/// A light flattened for rendering: a geometric model plus the spectral irradiance (or
/// intensity) it delivers per unit of geometric factor.
///
/// Geometric factor g, per pixel: directional and key lights `cos θ · visibility`; the ambient
/// hemisphere `(1 + n·d)/2`; positional lights `cos^m α · cos θ · visibility / d²`. The physical
/// spectral irradiance on the surface is then `g · unitSpectrum` (W·m⁻²·nm⁻¹).
struct Emitter: Sendable {
    enum Geometry: Sendable {
        case directional(towardsLight: Vector3, angularRadius: Double)
        case hemisphere(towardsSky: Vector3)
        case positional(position: Vector3, axis: Vector3, exponent: Double)
    }

    var geometry: Geometry
    /// Spectral irradiance (directional, hemisphere: W·m⁻²·nm⁻¹) or radiant intensity
    /// (positional: W·sr⁻¹·nm⁻¹) at unit geometric factor.
    var unitSpectrum: Spectrum
    var isFlash: Bool
    /// Whether the specular lobe applies (not for the hemisphere, whose lobe would be diffuse).
    var hasSpecular: Bool
}

extension Emitter {
    /// `spectrum` scaled so that it carries `photometric` lux (or cd) with V(λ) = `efficiency`.
    static func radiometric(_ spectrum: Spectrum, photometric: Double, efficiency: Spectrum) -> Spectrum {
        let perWatt = Photometry.maximumLuminousEfficacy * spectrum.integral(times: efficiency)
        precondition(perWatt > 0, "a light spectrum must have visible power")
        return spectrum * (photometric / perWatt)
    }

    /// Every light of a scene plus the flash, in camera-independent world coordinates.
    static func flatten(
        scene: Scene, flash: FlashModel?, cameraPosition: Vector3, cameraRotation: Rotation, efficiency: Spectrum
    ) -> [Emitter] {
        var out: [Emitter] = []
        if let a = scene.ambient {
            let full = radiometric(a.spectrum, photometric: a.illuminance, efficiency: efficiency)
            if a.diffuseFraction < 1 {
                out.append(
                    Emitter(
                        geometry: .directional(
                            towardsLight: a.direction, angularRadius: a.keyAngularRadiusDegrees * Double.pi / 180),
                        unitSpectrum: full * (1 - a.diffuseFraction), isFlash: false, hasSpecular: true))
            }
            if a.diffuseFraction > 0 {
                out.append(
                    Emitter(
                        geometry: .hemisphere(towardsSky: a.direction), unitSpectrum: full * a.diffuseFraction,
                        isFlash: false, hasSpecular: false))
            }
        }
        for light in scene.lights {
            switch light.kind {
            case let .directional(towards, lux):
                out.append(
                    Emitter(
                        geometry: .directional(towardsLight: towards.normalized, angularRadius: 0),
                        unitSpectrum: radiometric(light.spectrum, photometric: lux, efficiency: efficiency),
                        isFlash: false, hasSpecular: true))
            case let .point(position, cd):
                out.append(
                    Emitter(
                        geometry: .positional(position: position, axis: Vector3(0, 0, 1), exponent: 0),
                        unitSpectrum: radiometric(light.spectrum, photometric: cd, efficiency: efficiency),
                        isFlash: false, hasSpecular: true))
            case let .spot(position, axis, cd, half):
                out.append(
                    Emitter(
                        geometry: .positional(
                            position: position, axis: axis.normalized,
                            exponent: max(BeamPattern.exponent(halfAngleDegrees: half), 1e-9)),
                        unitSpectrum: radiometric(light.spectrum, photometric: cd, efficiency: efficiency),
                        isFlash: false, hasSpecular: true))
            }
        }
        for module in flash?.modules ?? [] {
            out.append(
                Emitter(
                    geometry: .positional(
                        position: cameraPosition + cameraRotation.apply(module.positionInCamera),
                        axis: cameraRotation.apply(module.axisInCamera).normalized,
                        exponent: max(module.beamExponent, 1e-9)),
                    unitSpectrum: radiometric(module.spectrum, photometric: module.intensityCandela, efficiency: efficiency),
                    isFlash: true, hasSpecular: true))
        }
        return out
    }
}
