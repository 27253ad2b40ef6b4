import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Every pixel of renders whose size is not a multiple of the four-pixel packet or the 32-pixel tile,
/// with the principal point off-centre, against ray casting and shading written out here in closed form.
///
/// The device sits at the origin looking down −Z, so the ray of pixel (x, y) is t·(u, −v, −1) with
/// u = (x + ½ − cx)/fx, v = (y + ½ − cy)/fy, and t is the depth along the optical axis.
struct FastPathGeometryTests {
    /// A pinhole camera with the fixture's optics and a principal point off-centre.
    struct Intrinsics: Sendable, CustomStringConvertible {
        var width: Int, height: Int, f: Double, cx: Double, cy: Double
        var description: String { "\(width)×\(height)" }

        var camera: CameraModel {
            var c = TestScenes.camera(noise: TestScenes.quiet)
            (c.width, c.height, c.fx, c.fy, c.cx, c.cy) = (width, height, f, f, cx, cy)
            return c
        }

        /// The unnormalised ray direction of pixel (x, y); its −z component is 1, so t is depth.
        func ray(_ x: Int, _ y: Int) -> Vector3 {
            Vector3((Double(x) + 0.5 - cx) / f, -(Double(y) + 0.5 - cy) / f, -1)
        }
    }

    /// 67 = 2 tiles + 3 (3 mod 4), 45 rows; 37 = 1 tile + 5 (1 mod 4); 5×3: one packet and a single tail pixel.
    static let cameras = [
        Intrinsics(width: 67, height: 45, f: 38, cx: 30.3, cy: 25.7),
        Intrinsics(width: 37, height: 29, f: 21, cx: 19.6, cy: 13.1),
        Intrinsics(width: 5, height: 3, f: 2.9, cx: 2.2, cy: 1.3),
    ]

    // MARK: - Reference ray casting

    /// Local-to-world rotation applied by hand from the rotation's rows, and its transpose.
    static func toWorld(_ r: Rotation, _ v: Vector3) -> Vector3 { Vector3(r.row0.dot(v), r.row1.dot(v), r.row2.dot(v)) }
    static func toLocal(_ r: Rotation, _ v: Vector3) -> Vector3 { r.row0 * v.x + r.row1 * v.y + r.row2 * v.z }

    /// The nearest positive ray parameter at which `shape` (grown by `grow` metres on every edge or
    /// radius) meets origin + t·d, and the world normal there facing the ray; nil for a miss.
    static func intersect(
        _ object: SceneObject, origin: Vector3, direction d: Vector3, grow: Double = 0
    ) -> (t: Double, normal: Vector3)? {
        let r = object.transform.rotation
        let o = toLocal(r, origin - object.transform.position)
        let dl = toLocal(r, d)
        var hit: (t: Double, local: Vector3)?
        switch object.shape {
        case let .plane(w, h):
            // Ray-plane z = 0, then the rectangle's bounds.
            guard dl.z != 0 else { return nil }
            let t = -o.z / dl.z
            let p = o + dl * t
            if t > 0, abs(p.x) <= w / 2 + grow, abs(p.y) <= h / 2 + grow { hit = (t, Vector3(0, 0, 1)) }
        case let .disc(radius):
            guard dl.z != 0 else { return nil }
            let t = -o.z / dl.z
            let p = o + dl * t
            if t > 0, (p.x * p.x + p.y * p.y).squareRoot() <= radius + grow { hit = (t, Vector3(0, 0, 1)) }
        case let .sphere(radius):
            // |o + t·d|² = R²: a t² + 2 b t + c = 0.
            let rr = radius + grow
            let a = dl.dot(dl), b = o.dot(dl), c = o.dot(o) - rr * rr
            let disc = b * b - a * c
            guard disc >= 0 else { return nil }
            let s = disc.squareRoot()
            let t = (-b - s) / a > 0 ? (-b - s) / a : (-b + s) / a
            if t > 0 { hit = (t, (o + dl * t) / rr) }
        case let .box(w, h, depth):
            // Slabs (Kay & Kajiya 1986): the latest entry and the earliest exit over the three axes.
            let half = Vector3(w, h, depth) / 2 + Vector3(repeating: grow)
            var tNear = -Double.infinity, tFar = Double.infinity
            var axis = 0
            for k in 0..<3 {
                if dl[k] == 0 {
                    if abs(o[k]) > half[k] { return nil }
                    continue
                }
                let t1 = (-half[k] - o[k]) / dl[k], t2 = (half[k] - o[k]) / dl[k]
                if min(t1, t2) > tNear { (tNear, axis) = (min(t1, t2), k) }
                tFar = min(tFar, max(t1, t2))
            }
            if tNear <= tFar, tNear > 0 {
                var n = Vector3.zero
                n[axis] = dl[axis] > 0 ? -1 : 1
                hit = (tNear, n)
            }
        }
        guard let hit else { return nil }
        var n = toWorld(r, hit.local).normalized
        if n.dot(d) > 0 { n = -n }  // flat shapes are seen from both sides
        return (hit.t, n)
    }

    /// The visible object of a ray: its index, t and facing normal.
    static func cast(
        _ objects: [SceneObject], origin: Vector3 = .zero, direction d: Vector3, grow: Double = 0
    ) -> (id: Int, t: Double, normal: Vector3)? {
        var best: (id: Int, t: Double, normal: Vector3)?
        for (i, object) in objects.enumerated() {
            if let h = intersect(object, origin: origin, direction: d, grow: grow), h.t < (best?.t ?? .infinity) {
                best = (i, h.t, h.normal)
            }
        }
        return best
    }

    /// Whether a pixel's ray passes within `margin` metres of an edge or silhouette: shrinking and
    /// growing every shape by it changes which object the ray sees.
    static func nearEdge(_ objects: [SceneObject], _ d: Vector3, margin: Double = 1e-6) -> Bool {
        cast(objects, direction: d, grow: -margin)?.id != cast(objects, direction: d, grow: margin)?.id
    }

    // MARK: - Scenes

    /// A sphere, a tilted disc, a turned box and a tilted card in front of a wall, overlapping one another.
    static let clutter: [SceneObject] = {
        func grey(_ r: Double) -> Surface { .uniform(.neutral("grey \(r)", reflectance: r)) }
        return [
            SceneObject(
                name: "wall", shape: .plane(width: 40, height: 40), transform: Transform(position: Vector3(0, 0, -6)),
                surface: grey(0.18)),
            SceneObject(
                name: "ball", shape: .sphere(radius: 0.55), transform: Transform(position: Vector3(-0.7, 0.25, -3)),
                surface: grey(0.5)),
            SceneObject(
                name: "coin", shape: .disc(radius: 0.45),
                transform: Transform(
                    position: Vector3(0.8, -0.45, -2.6), rotation: Rotation(axis: Vector3(1, 1, 0), radians: 0.7)),
                surface: grey(0.3)),
            SceneObject(
                name: "crate", shape: .box(width: 0.7, height: 0.5, depth: 0.8),
                transform: Transform(
                    position: Vector3(0.55, 0.45, -3.4), rotation: Rotation(axis: Vector3(0, 1, 1), radians: 0.55)),
                surface: grey(0.4)),
            SceneObject(
                name: "card", shape: .plane(width: 1.3, height: 0.8),
                transform: Transform(
                    position: Vector3(-0.35, -0.5, -3.8), rotation: Rotation(axis: Vector3(1, 0, 0.3), radians: 0.9)),
                surface: grey(0.6)),
        ]
    }()

    static func render(
        _ objects: [SceneObject], _ intrinsics: Intrinsics, ambient: AmbientLight? = nil, lights: [Light] = [],
        flash: FlashModel? = nil
    ) -> RawFrame {
        let scene = Scene(objects: objects, ambient: ambient, lights: lights, device: TestScenes.device)
        let renderer = Renderer(
            scene: scene, camera: intrinsics.camera, flash: flash,
            options: RenderOptions(threadCount: 2, keepsComponents: true))
        return renderer.render(Exposure(time: 1, iso: 100, flash: flash != nil))
    }

    /// e⁻/s per channel per lux on a white Lambertian surface: a frontal wall under a frontal key, which
    /// must be uniform. Its green value is checked against the spec's 4,620 e⁻/s for 100 lux D65 on
    /// 18 % grey (color-science spec §3.3, the figure `FlashFalloffTests` uses too), to 1 %.
    static func electronsPerLux(_ intrinsics: Intrinsics) -> SIMD3<Double> {
        let lux = 100.0, rho = 0.18
        let frame = render(
            [TestScenes.wall(distance: 2, reflectance: rho)], intrinsics, ambient: TestScenes.frontalD65(lux: lux))
        let plane = frame.ambientElectrons ?? []
        #expect(plane.count == intrinsics.width * intrinsics.height * 3)
        guard plane.count >= 3 else { return .zero }
        let k = SIMD3(Double(plane[0]), Double(plane[1]), Double(plane[2])) / (lux * rho)
        for i in 0..<plane.count where abs(Double(plane[i]) / (k[i % 3] * lux * rho) - 1) > 1e-6 {
            Issue.record("calibration not uniform at \(i / 3): \(plane[i])")
            break
        }
        #expect(abs(k.y * 100 * 0.18 / 4620 - 1) < 0.01, "green \(k.y * 18) e⁻/s for 100 lux on 18 %")
        return k
    }

    // MARK: - 1. Depth and object id

    @Test(arguments: FastPathGeometryTests.cameras)
    func depthAndObjectIDOfEveryPixel(intrinsics: Intrinsics) {
        let frame = Self.render(Self.clutter, intrinsics)
        let (w, h) = (intrinsics.width, intrinsics.height)
        #expect(frame.depth.count == w * h && frame.objectIDs.count == w * h)
        guard frame.depth.count == w * h, frame.objectIDs.count == w * h else { return }
        var ambiguous = 0, seen = Set<Int>(), wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let d = intrinsics.ray(x, y)
                let i = y * w + x
                if Self.nearEdge(Self.clutter, d) {
                    ambiguous += 1
                    continue
                }
                let expected = Self.cast(Self.clutter, direction: d)
                let id = expected.map { UInt16($0.id) } ?? RawFrame.none
                seen.insert(Int(id))
                let z = Double(frame.depth[i])
                let depthOK = expected.map { abs(z / $0.t - 1) < 1e-5 } ?? z.isNaN
                if frame.objectIDs[i] != id || !depthOK {
                    wrong += 1
                    if wrong <= 20 {
                        let got = "id \(frame.objectIDs[i]) depth \(z)"
                        let want = "id \(id) depth \(expected?.t ?? .nan)"
                        Issue.record("\(intrinsics) pixel \(x),\(y): \(got), expected \(want)")
                    }
                }
            }
        }
        #expect(wrong == 0, "\(intrinsics): \(wrong) pixels wrong")
        // Rays within 10⁻⁶ m of an edge are a few in a million: none is expected in these grids.
        #expect(ambiguous <= 2, "\(intrinsics): \(ambiguous) pixels near an edge")
        // The big grids see every object, so each shape's path is exercised.
        if w > 30 { #expect(seen.isSuperset(of: [0, 1, 2, 3, 4]), "\(intrinsics) saw \(seen.sorted())") }
    }

    // MARK: - 2. Lambert and inverse square

    @Test(arguments: FastPathGeometryTests.cameras)
    func matteComponentsFollowCosineAndInverseSquare(intrinsics: Intrinsics) {
        let k = Self.electronsPerLux(intrinsics)
        // A grey plane through (0.2, −0.1, −3) turned 35° about (0.3, 1, 0): it fills the view. A 40 cd
        // point lamp and a 300 lux directional light in front of it, a 150 cd flash with a 40° half-angle
        // 2 cm to the camera's right.
        let rho = 0.45
        let rotation = Rotation(axis: Vector3(0.3, 1, 0), radians: 35 * Double.pi / 180)
        let plane = SceneObject(
            name: "plane", shape: .plane(width: 40, height: 40),
            transform: Transform(position: Vector3(0.2, -0.1, -3), rotation: rotation),
            surface: .uniform(.neutral("grey", reflectance: rho)))
        let lampPosition = Vector3(0.9, 0.6, -1.2), lampCandela = 40.0
        let sunTowards = Vector3(-0.3, 0.5, 1).normalized, sunLux = 300.0
        let flashCandela = 150.0, flashHalfAngle = 40.0
        let flashOffset = Vector3(0.02, 0, 0)  // camera frame: +X right, +Y down, +Z forward
        let lights = [
            Light(
                name: "lamp", spectrum: Illuminants.d65, kind: .point(position: lampPosition, intensity: lampCandela)),
            Light(
                name: "sun", spectrum: Illuminants.d65,
                kind: .directional(towardsLight: sunTowards, illuminance: sunLux)),
        ]
        let flash = FlashModel(modules: [
            .init(
                spectrum: Illuminants.d65, intensityCandela: flashCandela, beamHalfAngleDegrees: flashHalfAngle,
                positionInCamera: flashOffset)
        ])
        let frame = Self.render([plane], intrinsics, lights: lights, flash: flash)
        let ambient = frame.ambientElectrons ?? [], flashed = frame.flashElectrons ?? []
        let (w, h) = (intrinsics.width, intrinsics.height)
        #expect(ambient.count == w * h * 3 && flashed.count == w * h * 3)
        guard ambient.count == w * h * 3, flashed.count == w * h * 3 else { return }
        // Camera to world for this device: (x, y, z) → (x, −y, −z). The beam falls off as cos^m α with
        // m = ln ½ / ln cos 40° (color-science spec §3.4).
        let flashPosition = Vector3(flashOffset.x, -flashOffset.y, -flashOffset.z)
        let flashAxis = Vector3(0, 0, -1)
        let m = log(0.5) / log(cos(flashHalfAngle * Double.pi / 180))
        var failures = 0
        for y in 0..<h {
            for x in 0..<w {
                guard let hit = Self.cast([plane], direction: intrinsics.ray(x, y)) else {
                    Issue.record("\(intrinsics) pixel \(x),\(y) misses the plane")
                    continue
                }
                let p = intrinsics.ray(x, y) * hit.t
                let n = hit.normal
                // E = I·cos θ / d² (point), E⊥·cos θ (directional), I·cos^m α·cos θ / d² (flash).
                let toLamp = lampPosition - p
                let lamp = lampCandela * max(0, n.dot(toLamp.normalized)) / toLamp.dot(toLamp)
                let sun = sunLux * max(0, n.dot(sunTowards))
                let toFlash = flashPosition - p
                let cosAlpha = max(0, flashAxis.dot(-toFlash.normalized))
                let beam = flashCandela * pow(cosAlpha, m) * max(0, n.dot(toFlash.normalized)) / toFlash.dot(toFlash)
                for ch in 0..<3 {
                    let i = (y * w + x) * 3 + ch
                    let expectedAmbient = k[ch] * rho * (lamp + sun)
                    let expectedFlash = k[ch] * rho * beam
                    let ea = Double(ambient[i]) / expectedAmbient - 1
                    let ef = Double(flashed[i]) / expectedFlash - 1
                    // 10⁻⁵: the planes are Float (6·10⁻⁸) and each light's rate is one spectral integral
                    // shared by every pixel, so any larger error is the geometry's.
                    if abs(ea) > 1e-5 || abs(ef) > 1e-5 {
                        failures += 1
                        if failures <= 20 {
                            let pairs =
                                "ambient \(ambient[i]) vs \(expectedAmbient), flash \(flashed[i]) vs \(expectedFlash)"
                            Issue.record("\(intrinsics) pixel \(x),\(y) ch \(ch): \(pairs)")
                        }
                    }
                }
            }
        }
        #expect(failures == 0, "\(intrinsics): \(failures) values off")
    }

    // MARK: - 3. Specular lobe under a directional key

    /// Target pixels for the highlight: in the three-column tail of the 67-wide image, in a full tile, and
    /// at the last column and row; the key light is aimed so the mirror direction lands there.
    static let glossCases: [(Intrinsics, Int, Int)] = [
        (cameras[0], 65, 20), (cameras[0], 12, 40), (cameras[0], 66, 44), (cameras[1], 34, 27), (cameras[1], 3, 5),
        (cameras[2], 4, 2),
    ]

    /// Roughness 0.12 (n ≈ 9,643, a one-pixel highlight), 0.25 (n = 510) and 0.7 (n ≈ 6.3, lit to the limb)
    /// take the general power; 0.5 (n = 30) the whole-n/2 one.
    @Test(arguments: [0.12, 0.25, 0.5, 0.7], 0..<6)
    func glossySpherePixelsFollowTheLobeUnderAKey(roughness: Double, caseIndex: Int) {
        let (intrinsics, hx, hy) = Self.glossCases[caseIndex]
        let k = Self.electronsPerLux(intrinsics)
        // A sphere of radius 0.9 m whose centre is 3 m down the highlight pixel's ray, then moved 0.35 m
        // left and 0.25 m up, so the highlight is off the sphere's centre.
        let centre = intrinsics.ray(hx, hy) * 3 + Vector3(-0.35, 0.25, 0)
        let radius = 0.9
        let ks = 0.8
        let sphere = SceneObject(
            name: "ball", shape: .sphere(radius: radius), transform: Transform(position: centre),
            surface: .uniform(
                Material(name: "gloss", reflectance: .constant(0), specularStrength: ks, roughness: roughness)))
        // Mirror the view direction at the target pixel's hit: l = 2(n·v)n − v.
        guard let target = Self.cast([sphere], direction: intrinsics.ray(hx, hy)) else {
            Issue.record("target pixel misses the sphere")
            return
        }
        let v0 = -intrinsics.ray(hx, hy).normalized
        let towards = (target.normal * (2 * target.normal.dot(v0)) - v0).normalized
        let lux = 2000.0
        let key = AmbientLight(spectrum: Illuminants.d65, illuminance: lux, direction: towards, diffuseFraction: 0)
        let frame = Self.render([sphere], intrinsics, ambient: key)
        let (w, h) = (intrinsics.width, intrinsics.height)
        let plane = frame.ambientElectrons ?? []
        #expect(plane.count == w * h * 3)
        guard plane.count == w * h * 3 else { return }
        // Normalised Blinn–Phong as SpecularLobeTests states it:
        // signal = K·E·k_s·cos θ_i·(n + 8)/8·cosⁿ θ_h, n = 2/α² − 2, α = r².
        let alpha = roughness * roughness
        let n = 2 / (alpha * alpha) - 2
        let peak = (n + 8) / 8
        var failures = 0, lit = 0, ambiguous = 0, brightest = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let d = intrinsics.ray(x, y)
                if Self.nearEdge([sphere], d) {
                    ambiguous += 1
                    continue
                }
                var lobe = 0.0
                if let hit = Self.cast([sphere], direction: d) {
                    let v = -d.normalized
                    let half = (towards + v).normalized
                    let cosI = hit.normal.dot(towards)
                    let cosH = hit.normal.dot(half)
                    lobe = cosI > 0 && cosH > 0 ? cosI * peak * pow(cosH, n) : 0
                }
                brightest = max(brightest, lobe)
                if lobe > 1e-6 * peak { lit += 1 }
                for ch in 0..<3 {
                    let expected = k[ch] * lux * ks * lobe
                    let got = Double(plane[(y * w + x) * 3 + ch])
                    // Relative 10⁻⁴ (the general power path is single-precision accurate), plus 10⁻¹² of
                    // the peak for the lobe's documented cut below 2⁻⁵⁸ of (n + 8)/8.
                    if abs(got - expected) > 1e-4 * expected + 1e-12 * k[ch] * lux * ks * peak {
                        failures += 1
                        if failures <= 20 {
                            Issue.record(
                                "\(intrinsics) r \(roughness) pixel \(x),\(y) ch \(ch): \(got) vs \(expected)")
                        }
                    }
                }
            }
        }
        #expect(failures == 0, "\(intrinsics) r \(roughness): \(failures) values off")
        #expect(ambiguous <= 2)
        // The highlight is in the image: the target pixel is at the lobe's peak, θ_h = 0.
        #expect(brightest > 0.99 * target.normal.dot(towards) * peak && lit >= 1)
    }
}
