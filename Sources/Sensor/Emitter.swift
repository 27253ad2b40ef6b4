import Foundation
import Imaging
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
        out += flashEmitters(
            flash, cameraPosition: cameraPosition, cameraRotation: cameraRotation, efficiency: efficiency)
        return out
    }
}

extension Emitter {
    /// How near (metres) points must lie to be merged into one: 0.1 mm. A light moves by at most twice this (its
    /// spectrum's centroid onto the beam's, then the beam's centre onto another's). Moving a light by δ changes its
    /// irradiance at a point d away by a relative (2 + m·tan α + tan θ)·δ/d to first order (distance, beam and
    /// incidence): within a beam's half angle and on surfaces up to 60° from square, at most 6·δ/d for an 80° beam
    /// (m = 2.6) and 7·δ/d for a 50° one (m = 7), so at most 3·10⁻³ at 0.5 m for the whole 0.2 mm. A flash's LEDs
    /// are never this close; what lies this close is one cluster's centroids once the unit's LEDs differ in
    /// intensity (iphone-15-pro's first unit, at its ±10 % tolerance: the spectra's centroids and the 50° centre
    /// LED within 0.07 mm of each other). There the differential render test measures the merge within 10⁻³ at
    /// 0.5–1.5 m, and merging keeps the flash two beams at one point (`GeometryPass.BeamGroup`).
    static let mergeReach = 1e-4

    /// The flash's modules as emitters, modules that share a beam merged into one.
    ///
    /// A flash is a cluster of LEDs a few millimetres apart (iphone-15-pro: nine within 3.2 mm),
    /// fired together. Each module as its own emitter costs a shadow ray, a beam power and a
    /// specular lobe per pixel, and two factor slots per pixel in the geometry cache. Modules with
    /// the same beam exponent and axis become one emitter at their intensity-weighted centroid c,
    /// carrying the sum of their spectra: the irradiance Σ I_m·f(p_m) then becomes I·f(c), whose
    /// first-order error Σ I_m·∇f·(p_m − c) vanishes when each spectrum's own centroid is c (the
    /// symmetric arrays of real flashes), leaving a relative error of order (σ/d)², σ the modules'
    /// spread and d the distance: below 10⁻³ beyond 6 cm for a 2 mm spread. Modules whose spectra
    /// are not centred on the group's centroid (within `mergeReach`) are merged only with modules of
    /// the same spectrum.
    /// Shadows and lobes are then those of one point at c: a shadow edge loses the cluster's
    /// penumbra (3.2 mm × occluder gap / distance, far below a pixel at phone distances), and a
    /// near-mirror shows one highlight where the LEDs would show as a tight pattern of dots.
    static func flashEmitters(
        _ flash: FlashModel?, cameraPosition: Vector3, cameraRotation: Rotation, efficiency: Spectrum
    ) -> [Emitter] {
        struct Part {
            var position: Vector3
            var weight: Double
            var spectrum: Spectrum
            var module: FlashModel.Module
        }
        // Groups in order of their first module, so the emitter order is stable.
        var groups: [[Part]] = []
        for module in flash?.modules ?? [] {
            let part = Part(
                position: cameraPosition + cameraRotation.apply(module.positionInCamera),
                weight: module.intensityCandela,
                spectrum: radiometric(module.spectrum, photometric: module.intensityCandela, efficiency: efficiency),
                module: module)
            if let g = groups.firstIndex(where: {
                $0[0].module.beamExponent == module.beamExponent && $0[0].module.axisInCamera == module.axisInCamera
            }) {
                groups[g].append(part)
            } else {
                groups.append([part])
            }
        }
        func centroid(_ parts: [Part]) -> Vector3 {
            let w = parts.reduce(0) { $0 + $1.weight }
            let sum = parts.reduce(Vector3.zero) { $0 + $1.position * $1.weight }
            return w > 0 ? sum / w : parts[0].position
        }
        var merged: [[Part]] = []
        for group in groups {
            var bySpectrum: [[Part]] = []
            for part in group {
                if let s = bySpectrum.firstIndex(where: { $0[0].module.spectrum == part.module.spectrum }) {
                    bySpectrum[s].append(part)
                } else {
                    bySpectrum.append([part])
                }
            }
            let c = centroid(group)
            let centred = bySpectrum.allSatisfy { (centroid($0) - c).length < mergeReach }
            merged += centred ? [group] : bySpectrum
        }
        // Beams centred on one point (iphone-15-pro: the 80° cluster around its 50° centre LED) get
        // one point's exact coordinates: their weighted means differ by rounding, or by the unit's
        // spread of LED intensities (`mergeReach`), and the geometry pass shares the per-pixel terms
        // of lights at one position.
        var centres: [Vector3] = []
        for parts in merged {
            let c = centroid(parts)
            centres.append(centres.first { ($0 - c).length < mergeReach } ?? c)
        }
        return zip(merged, centres).map { parts, centre in
            let module = parts[0].module
            let spectrum = parts.dropFirst().reduce(parts[0].spectrum) { $0 + $1.spectrum }
            return Emitter(
                geometry: .positional(
                    position: centre, axis: cameraRotation.apply(module.axisInCamera).normalized,
                    exponent: max(module.beamExponent, 1e-9)),
                unitSpectrum: spectrum, isFlash: true, hasSpecular: true)
        }
    }
}
