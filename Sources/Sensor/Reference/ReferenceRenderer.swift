import Foundation
import Imaging
import Scenes
import Spectra

/// The sensor's physics written out plainly, one pixel at a time: the model `Renderer` implements
/// fast, stated where a reader can check it against the equations.
///
/// Nothing here is tuned for speed: no caches, no culling, no single precision, no tiles, every
/// object tested by every ray, every spectral integral taken per pixel and per light, powers from
/// libm. It produces the noise-free mean electrons of a frame (before shot noise, read noise,
/// fixed pattern and the ADC), so the fast renderer's `ambientElectrons` and `flashElectrons` can be
/// compared with it pixel by pixel.
///
/// **Pixel value.** For channel c with quantum efficiency QE_c(λ), a pixel collects
///
///     e_c = t · A · T / (1 + 4N²) · Σ_lights Σ_λ [g_d·ρ(λ) + g_s·k_s] · E₁(λ) · λ/(h·c₀) · QE_c(λ) · Δλ
///
/// - A is the pixel area (pitch²), T the lens transmittance, N the f-number: the camera equation for
///   a Lambertian surface, sensor irradiance = ρ·E·T/(1 + 4N²) (ISETCam `oiCalculateIrradiance` with
///   magnification → 0; color-science spec §3.3);
/// - λ/(h·c₀) turns joules into photons (h, c₀ the SI 2019 exact constants); Δλ = 5 nm, 380–780 nm,
///   the rectangle rule;
/// - E₁(λ) is the light's spectrum scaled so that it carries its photometric strength:
///   E₁ = S·P/(683 lm/W · Σ S·V Δλ), P in lux (W·m⁻²·nm⁻¹ out) or candela (W·sr⁻¹·nm⁻¹ out), V(λ) the
///   luminous efficiency (CIE 15);
/// - ρ(λ) is the material's diffuse reflectance, k_s its specular strength;
/// - t is the exposure time, or for the flash the time its light reaches the sensor;
/// - the sum is then scaled by the lens's relative illumination at the pixel centre, when the camera
///   has shading (`LensShading`: cos⁴θ and/or a table against image height).
///
/// **Geometric factors** g_d (diffuse) and g_s (specular), for a hit point p with unit normal n
/// facing the camera, unit view vector v (towards the camera):
/// - key light of the ambient (a distant disc towards l): g_d = (1 − f)·max(0, n·l)·V, V the share
///   of the disc's directions that no object blocks (1 or 0 for a point-like key);
/// - the ambient's sky (a uniform hemisphere around l): g_d = f·(1 + n·l)/2, no shadow, no lobe
///   (`AmbientLight`);
/// - directional light: g_d = max(0, n·l)·V;
/// - point light of intensity I at q: g_d = cos θ · V / d², with l = (q − p)/d, cos θ = n·l;
/// - spot light and each flash module, aimed along a: the same times cos^m α, cos α = −a·l, zero
///   where cos α ≤ 0, m = ln ½ / ln cos α½ so the intensity halves at the half angle α½
///   (color-science spec §3.4);
/// - the specular factor of every light but the sky: g_s = g_d·(n_s + 8)/8·cos^{n_s} θ_h, the
///   normalised Blinn–Phong lobe, θ_h the angle between n and the half vector (l + v)/|l + v|,
///   n_s = 2/α² − 2 with α = r² (Walter et al. 2007), α at least 10⁻³ and n_s at most 10⁶.
///
/// **Rays.** Pixel (x, y) looks through its centre (x + ½, y + ½), undistorted through the profile's
/// radial table (solved by bisection), then along the pinhole ray ((u − c_x)/f_x, (v − c_y)/f_y, 1)
/// in the camera frame (+X right, +Y down, +Z forward). Depth is the hit's distance along the
/// optical axis. Flat shapes are seen from both sides; the normal is turned to face the ray.
/// Shadow rays leave the hit point 1 µm along its normal, and any object met before the light
/// blocks it.
///
/// **Modelling choices shared with the fast renderer.** The key's cosine is taken at the disc's
/// centre and the disc only decides visibility; its directions are spread over a flat disc of
/// radius tan(angular radius) across l. Where the two renderers differ by construction, this one
/// keeps the plain model: each flash module is its own light (the fast renderer merges modules
/// that share a beam into one point, an error of order (spread/distance)²), the lobe is never cut
/// (the fast one drops lobes below 2⁻⁵⁸ of their peak), and a soft key's visibility is sampled
/// densely (`keyShadowSamples` directions on a polar grid) where the fast one casts a few rays.
public struct ReferenceRenderer: Sendable {
    /// The scene as rendered.
    public let scene: Scene
    /// The camera.
    public let camera: CameraModel
    /// The flash, if the device has one.
    public let flash: FlashModel?
    /// V(λ), used to turn lux and candela into radiometric units.
    public let luminousEfficiency: Spectrum
    /// Shadow rays per pixel for a key light with a non-zero angular radius.
    public let keyShadowSamples: Int

    /// The most pixels worth rendering this way: about one megapixel (1024×1024). The reference is
    /// for reading and for tests at small sizes; a megapixel already takes seconds per light.
    public static let maximumPixels = 1 << 20

    let lights: [Source]
    let origin: Vector3
    let rotation: Rotation
    /// The first global material index of each object (materials numbered as `Renderer.materials`).
    let materialBase: [Int]

    /// Prepares a scene. The image must be at most `maximumPixels`.
    public init(
        scene: Scene, camera: CameraModel, flash: FlashModel?, luminousEfficiency: Spectrum = CIE1931.yBar,
        keyShadowSamples: Int = 256
    ) {
        precondition(camera.width > 0 && camera.height > 0, "a camera needs a non-empty image")
        precondition(camera.width <= Self.maximumPixels / camera.height, "the reference renders at most 1 MP")
        // Printed codes are drawn as their symbols, as the fast renderer draws them.
        self.scene = scene.printed
        self.camera = camera
        self.flash = flash
        self.luminousEfficiency = luminousEfficiency
        self.keyShadowSamples = max(1, keyShadowSamples)
        // Camera to world: the device's rotation after the camera's pose in the device.
        rotation = scene.device.rotation * camera.rotationInDevice
        origin = scene.device.position + scene.device.rotation.apply(camera.positionInDevice)
        lights = Source.all(
            scene: scene, flash: flash, origin: origin, rotation: rotation, efficiency: luminousEfficiency)
        var base: [Int] = []
        var count = 0
        for object in self.scene.objects {
            base.append(count)
            count += object.surface.materials.count
        }
        materialBase = base
    }

    /// Renders the noise-free components of one exposure.
    ///
    /// - Parameter edgeMargin: when above zero, also marks pixels whose value could depend on how
    ///   the pixel centre is sampled: rays `edgeMargin` pixels to either side, across and down, see
    ///   another object or material, or another shadow state (`ReferenceFrame.nearEdge`).
    public func render(_ exposure: Exposure, edgeMargin: Double = 0) -> ReferenceFrame {
        let (w, h) = (camera.width, camera.height)
        var frame = ReferenceFrame(width: w, height: h)
        let flashTime = exposure.flash ? min(exposure.flashDuration ?? exposure.time, exposure.time) : 0
        let photons = photonsPerJoule()
        for y in 0..<h {
            for x in 0..<w {
                let i = y * w + x
                let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                guard let sample = shade(at: centre) else { continue }
                // Vignetting dims all light through the lens alike, at the pixel centre (`LensShading`).
                let shading = camera.relativeIllumination(x: x, y: y)
                frame.depth[i] = sample.depth
                frame.objectIDs[i] = sample.object
                frame.materialIDs[i] = sample.material
                for (light, g) in zip(lights, sample.factors) {
                    let time = light.isFlash ? flashTime : exposure.time
                    guard time > 0, g.diffuse > 0 || g.specular > 0 else { continue }
                    let m = sample.surface
                    // [g_d·ρ(λ) + g_s·k_s]·E₁(λ): the spectral irradiance the surface returns towards the lens.
                    let returned =
                        (m.reflectance * g.diffuse + Spectrum.constant(g.specular * m.specularStrength))
                        * light.spectrum
                    let e = electronRate(returned, photons) * (time * shading)
                    for c in 0..<3 {
                        if light.isFlash {
                            frame.flashElectrons[3 * i + c] += e[c]
                        } else {
                            frame.ambientElectrons[3 * i + c] += e[c]
                        }
                    }
                    if g.visibility > 0 && g.visibility < 1 { frame.penumbra[i] = true }
                }
                // The flash's modules are one light spread over millimetres: where some reach the point and
                // others are blocked, the point is in the flash's penumbra.
                let flashVisibility = zip(lights, sample.factors).filter { $0.0.isFlash }.map { $0.1.visibility }
                if flashVisibility.contains(0) && flashVisibility.contains(1) { frame.penumbra[i] = true }
                if edgeMargin > 0 {
                    let offsets = [
                        SIMD2(edgeMargin, 0), SIMD2(-edgeMargin, 0), SIMD2(0, edgeMargin), SIMD2(0, -edgeMargin),
                    ]
                    frame.nearEdge[i] = offsets.contains { offset in
                        guard let other = shade(at: centre + offset) else { return true }
                        return other.object != sample.object || other.material != sample.material
                            || zip(other.factors, sample.factors).contains { $0.visibility != $1.visibility }
                    }
                }
            }
        }
        // Background pixels see no surface; a neighbour that does makes them an edge too.
        if edgeMargin > 0 {
            for y in 0..<h {
                for x in 0..<w where frame.objectIDs[y * w + x] == nil {
                    let centre = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                    frame.nearEdge[y * w + x] = [
                        SIMD2(edgeMargin, 0), SIMD2(-edgeMargin, 0), SIMD2(0, edgeMargin),
                        SIMD2(0, -edgeMargin),
                    ].contains { shade(at: centre + $0) != nil }
                }
            }
        }
        return frame
    }

    /// A noise-free raw frame: the mean electrons plus dark current, clipped at full well, through
    /// the conversion gain to rounded DN above the black level. For teaching renders of the model.
    public func noiseFreeFrame(_ exposure: Exposure) -> RawFrame {
        let r = render(exposure)
        let noise = camera.noise
        let dark = noise.darkCurrentElectronsPerSecond * exposure.time
        let gain = noise.gain(iso: exposure.iso)
        let ceiling = min(noise.whiteLevel, Double((1 << min(noise.adcBits, 16)) - 1))
        var electrons = [Float](repeating: 0, count: r.ambientElectrons.count)
        var dn = [UInt16](repeating: 0, count: electrons.count)
        for i in electrons.indices {
            let e = min(r.ambientElectrons[i] + r.flashElectrons[i] + dark, noise.fullWellElectrons)
            electrons[i] = Float(e)
            dn[i] = UInt16(min(max((noise.blackLevel + gain * e).rounded(), 0), ceiling))
        }
        let flash = r.flashElectrons.map { Float($0) }, ambient = r.ambientElectrons.map { Float($0) }
        return RawFrame(
            width: r.width, height: r.height, exposure: exposure, electrons: electrons, dn: dn,
            depth: r.depth.map { Float($0) }, objectIDs: r.objectIDs.map { $0.map { UInt16($0) } ?? RawFrame.none },
            materialIDs: r.materialIDs.map { $0.map { UInt16($0) } ?? RawFrame.none },
            flashElectrons: flash, ambientElectrons: ambient,
            meanFlashElectrons: ComponentSums.mean(flash), meanAmbientElectrons: ComponentSums.mean(ambient))
    }

    // MARK: - One pixel

    /// What one ray sees and how each light reaches it.
    struct Sample {
        var depth: Double
        var object: Int
        var material: Int
        var surface: Material
        var factors: [Factor]
    }

    /// A light's geometric factors at a hit point, and the share of the light that is not shadowed
    /// (1 where the light cannot reach the point anyway: facing away, outside its beam).
    struct Factor: Equatable {
        var diffuse = 0.0
        var specular = 0.0
        var visibility = 1.0
    }

    /// The surface the ray through image point `point` meets and every light's factors there.
    func shade(at point: SIMD2<Double>) -> Sample? {
        let c = cameraVector(through: point)
        let d = rotation.apply(c).normalized
        guard let hit = Tracer.nearest(scene.objects, origin: origin, direction: d, tMin: 1e-9, tMax: .infinity)
        else { return nil }
        let p = origin + d * hit.t
        var n = hit.normal
        if n.dot(d) > 0 { n = -n }
        let object = scene.objects[hit.object]
        let local = Tracer.materialIndex(object, localPoint: hit.localPoint)
        let material = object.surface.materials[local]
        let v = -d
        let factors = lights.map { factor($0, point: p, normal: n, view: v, material: material) }
        // |c| = 1/cos of the angle to the optical axis, so depth along the axis is t/|c|.
        return Sample(
            depth: hit.t / c.length, object: hit.object, material: materialBase[hit.object] + local,
            surface: material, factors: factors)
    }

    /// The camera-frame ray (z = 1) of a point of the distorted image.
    func cameraVector(through q: SIMD2<Double>) -> Vector3 {
        var p = q
        if let distortion = camera.distortion {
            // Invert r ↦ r·(1 + m(r)) by bisection: the table's map increases over the image.
            let rMax = distortion.maximumRadius(width: camera.width, height: camera.height)
            let offset = q - distortion.center
            let rd = (offset * offset).sum().squareRoot()
            if rd > 0 {
                func forward(_ r: Double) -> Double {
                    r * (1 + distortion.magnification(radius: r, maximumRadius: rMax))
                }
                var (lo, hi) = (0.0, max(rd, 1.0))
                while forward(hi) < rd { hi *= 2 }
                for _ in 0..<200 where hi - lo > 1e-13 * hi {
                    let mid = (lo + hi) / 2
                    if forward(mid) < rd { lo = mid } else { hi = mid }
                }
                p = distortion.center + offset * ((lo + hi) / 2 / rd)
            }
        }
        return Vector3((p.x - camera.cx) / camera.fx, (p.y - camera.cy) / camera.fy, 1)
    }

    /// g_d, g_s and the visibility of one light at a hit point.
    func factor(_ light: Source, point p: Vector3, normal n: Vector3, view v: Vector3, material: Material) -> Factor {
        let start = p + n * 1e-6
        var f = Factor()
        let l: Vector3
        switch light.kind {
        case let .sky(towards):
            f.diffuse = (1 + n.dot(towards)) / 2
            return f
        case let .key(towards, angularRadius):
            l = towards
            let cosTheta = n.dot(l)
            guard cosTheta > 0 else { return f }
            f.visibility = keyVisibility(from: start, towards: l, angularRadius: angularRadius)
            f.diffuse = cosTheta * f.visibility
        case let .lamp(position, beam):
            let toLight = position - p
            let d2 = toLight.dot(toLight)
            l = toLight / d2.squareRoot()
            let cosTheta = n.dot(l)
            var falloff = 1.0
            if let beam {
                let cosAlpha = -beam.axis.dot(l)
                guard cosAlpha > 0 else { return f }
                falloff = pow(cosAlpha, beam.exponent)
            }
            guard cosTheta > 0 else { return f }
            let blocked =
                Tracer.nearest(scene.objects, origin: start, direction: l, tMin: 0, tMax: d2.squareRoot()) != nil
            f.visibility = blocked ? 0 : 1
            f.diffuse = falloff * cosTheta * f.visibility / d2
        }
        // Normalised Blinn–Phong on every light with a direction.
        if material.specularStrength > 0 && f.diffuse > 0 {
            let half = (l + v).normalized
            let cosHalf = n.dot(half)
            let exponent = Self.blinnPhongExponent(roughness: material.roughness)
            if cosHalf > 0 { f.specular = f.diffuse * (exponent + 8) / 8 * pow(cosHalf, exponent) }
        }
        return f
    }

    /// The share of a key light's disc seen from `start`: directions l + tan(ρ)·(a·e₁ + b·e₂) over a
    /// polar grid of equal-area cells, each direction blocked or not by brute force.
    func keyVisibility(from start: Vector3, towards l: Vector3, angularRadius: Double) -> Double {
        func open(_ dir: Vector3) -> Bool {
            Tracer.nearest(scene.objects, origin: start, direction: dir, tMin: 0, tMax: .infinity) == nil
        }
        guard angularRadius > 0 else { return open(l) ? 1 : 0 }
        let e1 = (abs(l.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)).cross(l).normalized
        let e2 = l.cross(e1)
        let radius = tan(angularRadius)
        let rings = max(1, Int(Double(keyShadowSamples).squareRoot().rounded()))
        let spokes = max(1, keyShadowSamples / rings)
        var seen = 0
        for i in 0..<rings {
            // Ring radii at the square root of evenly spaced areas: every cell has the same area.
            let r = radius * ((Double(i) + 0.5) / Double(rings)).squareRoot()
            for j in 0..<spokes {
                let a = 2 * Double.pi * (Double(j) + 0.5 * Double(i % 2)) / Double(spokes)
                if open((l + (e1 * cos(a) + e2 * sin(a)) * r).normalized) { seen += 1 }
            }
        }
        return Double(seen) / Double(rings * spokes)
    }

    /// The Blinn–Phong exponent of a perceptual roughness r: α = max(r², 10⁻³), n = 2/α² − 2 within [0, 10⁶].
    static func blinnPhongExponent(roughness r: Double) -> Double {
        let alpha = max(r * r, 1e-3)
        return min(max(2 / (alpha * alpha) - 2, 0), 1e6)
    }

    // MARK: - Photon counting

    /// t-free part of the camera equation per wavelength: A·T/(1 + 4N²)·λ/(h·c₀)·Δλ.
    func photonsPerJoule() -> [Double] {
        let area = camera.pixelPitchMicrometres * camera.pixelPitchMicrometres * 1e-12
        let throughput = camera.lensTransmittance / (1 + 4 * camera.fNumber * camera.fNumber)
        return Spectrum.wavelengths.map {
            area * throughput * $0 * 1e-9 / (CameraEquation.planck * CameraEquation.speedOfLight) * Spectrum.step
        }
    }

    /// Electrons per second in each channel from the spectral irradiance a surface returns.
    func electronRate(_ returned: Spectrum, _ photons: [Double]) -> SIMD3<Double> {
        let qe = [camera.quantumEfficiency.red, camera.quantumEfficiency.green, camera.quantumEfficiency.blue]
        var out = SIMD3<Double>.zero
        for c in 0..<3 {
            for k in 0..<Spectrum.count { out[c] += returned.values[k] * photons[k] * qe[c].values[k] }
        }
        return out
    }
}

/// The noise-free output of `ReferenceRenderer`: mean electrons per pixel, RGB interleaved, plus
/// what each pixel sees.
public struct ReferenceFrame: Sendable {
    /// Width and height, pixels.
    public let width: Int, height: Int
    /// Mean electrons from every light but the flash (no dark current).
    public internal(set) var ambientElectrons: [Double]
    /// Mean electrons from the flash.
    public internal(set) var flashElectrons: [Double]
    /// Distance along the optical axis, metres; NaN where the ray meets nothing.
    public internal(set) var depth: [Double]
    /// Index into `Scene.objects` of the visible surface; nil for background.
    public internal(set) var objectIDs: [Int?]
    /// Index of the visible material, numbered as `Renderer.materials`; nil for background.
    public internal(set) var materialIDs: [Int?]
    /// Pixels where some light is partly shadowed: a soft key's penumbra, or some of the flash's modules
    /// blocked and others not.
    public internal(set) var penumbra: [Bool]
    /// Pixels at a silhouette, a material boundary or a shadow edge, as asked of `render(_:edgeMargin:)`.
    public internal(set) var nearEdge: [Bool]

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        let n = width * height
        ambientElectrons = [Double](repeating: 0, count: 3 * n)
        flashElectrons = ambientElectrons
        depth = [Double](repeating: .nan, count: n)
        objectIDs = [Int?](repeating: nil, count: n)
        materialIDs = objectIDs
        penumbra = [Bool](repeating: false, count: n)
        nearEdge = penumbra
    }
}
