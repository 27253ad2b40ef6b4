import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The fast renderer against the reference renderer on seeded random scenes: the noise-free flash
/// and ambient electrons of every pixel, its depth and its object.
///
/// Tolerance: 10⁻⁴ of the reference value, plus a floor of 10⁻⁶ of the frame's brightest value in
/// that component. The fast renderer keeps its factors and rates in single precision (6·10⁻⁸ each),
/// takes powers by polynomials good to 10⁻⁷, and inverts distortion from a table; 10⁻⁴ leaves room
/// for those and for nothing else: a wrong factor (a cosine, an exponent, a distance) moves pixels
/// by percents. The floor covers values near zero, where the fast renderer drops specular lobes below
/// 2⁻⁵⁸ of their peak and rounding is relative to the whole sum.
///
/// Excluded pixels: those at a silhouette, a material boundary or a hard shadow edge (the reference
/// sees another object, material or shadow state 10⁻³ pixel away; the fast renderer decides its
/// primary hit in single precision first, so at an edge the two may pick different sides), and
/// those in a soft key's penumbra, which the reference samples densely and the fast renderer with a
/// few rotated rays by design. Nothing else is skipped.
struct DifferentialRenderTests {
    /// 41×31 (one tile and a ragged packet tail), principal point off-centre.
    static func camera(distortion: LensDistortion? = nil) -> CameraModel {
        var c = TestScenes.camera(noise: TestScenes.quiet, distortion: distortion)
        (c.width, c.height, c.fx, c.fy, c.cx, c.cy) = (41, 31, 33, 33, 20.2, 15.9)
        return c
    }

    /// A mild barrel distortion table (2 % at the corners).
    static let barrel = LensDistortion(lookupTable: [0, -0.002, -0.006, -0.012, -0.02], center: SIMD2(20.9, 15.1))

    struct Mismatch: CustomStringConvertible {
        var compared = 0, excluded = 0, lit = 0, flashLit = 0, failures: [String] = []
        var objects = Set<Int>()
        var description: String {
            "compared \(compared), excluded \(excluded), lit \(lit), flash-lit \(flashLit), failures \(failures.count)"
        }
    }

    /// Compares one exposure of the two renderers.
    static func compare(scene: Scene, camera: CameraModel, flash: FlashModel?, exposure: Exposure) -> Mismatch {
        let fast = Renderer(scene: scene, camera: camera, flash: flash, options: RenderOptions(threadCount: 2))
            .render(exposure)
        let reference = ReferenceRenderer(scene: scene, camera: camera, flash: flash, keyShadowSamples: 144)
            .render(exposure, edgeMargin: 1e-3)
        var result = Mismatch()
        let fastAmbient = fast.ambientElectrons ?? [], fastFlash = fast.flashElectrons ?? []
        let n = camera.width * camera.height
        guard fastAmbient.count == 3 * n, fastFlash.count == 3 * n else {
            result.failures.append("the fast renderer kept no components")
            return result
        }
        let floorAmbient = 1e-6 * (reference.ambientElectrons.max() ?? 0)
        let floorFlash = 1e-6 * (reference.flashElectrons.max() ?? 0)
        for i in 0..<n {
            if reference.nearEdge[i] || reference.penumbra[i] {
                result.excluded += 1
                continue
            }
            result.compared += 1
            result.objects.insert(reference.objectIDs[i] ?? -1)
            let (x, y) = (i % camera.width, i / camera.width)
            let object = fast.objectIDs[i] == RawFrame.none ? nil : Int(fast.objectIDs[i])
            if object != reference.objectIDs[i] {
                let want = reference.objectIDs[i].map(String.init) ?? "none"
                result.failures.append(
                    "pixel \(x),\(y): object \(object.map(String.init) ?? "none"), reference \(want)")
                continue
            }
            let z = Double(fast.depth[i]), zr = reference.depth[i]
            if !(zr.isNaN ? z.isNaN : abs(z / zr - 1) < 1e-5) {
                result.failures.append("pixel \(x),\(y): depth \(z), reference \(zr)")
            }
            if reference.ambientElectrons[3 * i + 1] > 1000 * floorAmbient { result.lit += 1 }
            if reference.flashElectrons[3 * i + 1] > 1000 * floorFlash { result.flashLit += 1 }
            for c in 0..<3 {
                let pairs = [
                    ("ambient", Double(fastAmbient[3 * i + c]), reference.ambientElectrons[3 * i + c], floorAmbient),
                    ("flash", Double(fastFlash[3 * i + c]), reference.flashElectrons[3 * i + c], floorFlash),
                ]
                for (name, got, want, floor) in pairs where abs(got - want) > 1e-4 * want + floor {
                    result.failures.append("pixel \(x),\(y) ch \(c) \(name): \(got), reference \(want)")
                }
            }
        }
        return result
    }

    static func check(_ result: Mismatch, _ label: String, flash: Bool = true) {
        for failure in result.failures.prefix(12) { Issue.record("\(label): \(failure)") }
        #expect(result.failures.isEmpty, "\(label): \(result)")
        // Edges and penumbrae are a thin share of the frame; most pixels are compared, and lit.
        #expect(result.excluded * 5 < result.compared, "\(label): \(result)")
        // The scenes put three to six objects in view: the edges between them are exercised too.
        #expect(result.objects.count >= 3, "\(label) saw objects \(result.objects.sorted())")
        #expect(result.lit * 2 > result.compared, "\(label): only \(result.lit) lit of \(result.compared)")
        // The flash reaches a good share of the frame when it fires (its beam is at least 20° wide).
        #expect(flash ? result.flashLit * 4 > result.compared : result.flashLit == 0, "\(label): \(result)")
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func randomSceneWithFlashMatchesTheReference(seed: UInt64) {
        var random = RandomScenes(seed: seed)
        let scene = random.scene(objects: 3 + Int(seed % 4))
        let flash = random.flash()
        let exposure = Exposure(time: 0.02, iso: 100, flash: true, flashDuration: seed % 2 == 0 ? nil : 0.005)
        Self.check(Self.compare(scene: scene, camera: Self.camera(), flash: flash, exposure: exposure), "seed \(seed)")
    }

    @Test(arguments: 100..<104 as Range<UInt64>)
    func randomSceneThroughADistortedLensMatchesTheReference(seed: UInt64) {
        var random = RandomScenes(seed: seed)
        let scene = random.scene(objects: 4)
        let flash = random.flash()
        let exposure = Exposure(time: 0.01, iso: 100, flash: true)
        Self.check(
            Self.compare(scene: scene, camera: Self.camera(distortion: Self.barrel), flash: flash, exposure: exposure),
            "seed \(seed)")
    }

    /// An image card on a turned sphere (a painted head) and on a plane: each hit shows the texel its local x and y
    /// pick, in both renderers, lit and shaded like any surface.
    @Test(arguments: 200..<203 as Range<UInt64>)
    func imageCardsOnASphereAndAPlaneMatchTheReference(seed: UInt64) {
        var random = RandomScenes(seed: seed)
        var scene = random.scene(objects: 3)
        let palette = (0..<3).map { random.material("texel \($0)") }
        let indices = (0..<20).map { _ in UInt16(Int(random.uniform(0...2.999))) }
        let card = Surface.image(width: 5, height: 4, indices: indices, palette: palette)
        scene.objects += [
            SceneObject(
                name: "painted ball", shape: .sphere(radius: 0.45),
                transform: Transform(position: Vector3(-0.25, 0, -1.9), rotation: random.rotation()), surface: card),
            SceneObject(
                name: "painted card", shape: .plane(width: 0.5, height: 0.4),
                transform: Transform(position: Vector3(0.45, 0.2, -1.6), rotation: Rotation(axis: Vector3(0, 1, 0), radians: 0.4)),
                surface: card),
        ]
        let flash = random.flash()
        let exposure = Exposure(time: 0.02, iso: 100, flash: true)
        Self.check(Self.compare(scene: scene, camera: Self.camera(), flash: flash, exposure: exposure), "seed \(seed)")
    }

    /// Without the flash firing, its component is zero in both, and the ambient still matches.
    @Test func flashThatDoesNotFireAddsNothing() {
        var random = RandomScenes(seed: 7)
        let scene = random.scene(objects: 4)
        let flash = random.flash()
        let result = Self.compare(
            scene: scene, camera: Self.camera(), flash: flash, exposure: Exposure(time: 0.02, iso: 100, flash: false))
        Self.check(result, "no flash", flash: false)
    }
}

/// A real device's flash: the fast renderer merges the modules that share a beam into one point at
/// their intensity-weighted centre; the reference lights each module on its own. The merge is exact
/// to first order, leaving a relative error of order (spread/distance)²: below 10⁻³ beyond 6 cm for
/// a 2 mm spread (`Emitter.flashEmitters`), so this comparison allows 10⁻³ where the random scenes
/// allow 10⁻⁴. Pixels in the cluster's own penumbra (some modules blocked, others not) are excluded.
struct MergedFlashDifferentialTests {
    @Test(arguments: ["iphone-15-pro", "iphone-7-plus"], 0..<2 as Range<UInt64>)
    func deviceFlashMatchesTheReferenceModuleByModule(device id: String, seed: UInt64) throws {
        let device = try DeviceProfileAdapterTests.profile(id)
        let wide = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        let flash = try #require(FlashModel(device: device, camera: wide))
        let camera = try CameraModel(device: device, camera: wide, width: 48, height: 36)
        try Self.compare(camera: camera, id: id, flash: flash, seed: seed)
    }

    /// One unit's LEDs, each off its nominal intensity by up to the ±10 % a maker's tester holds (the
    /// iphone-15-pro profile's `flash_intensity_tolerance_percent`, drawn as the Constant Color capture draws a
    /// unit's LEDs). The centroids of the cluster's two spectra then part by a few hundredths of a millimetre,
    /// which the merge bridges (`Emitter.mergeReach`); the picture still matches the module-by-module reference
    /// within the same 10⁻³.
    @Test(arguments: 0..<3 as Range<UInt64>)
    func unitSpreadOfLEDIntensitiesMatchesTheReference(unit: UInt64) throws {
        let device = try DeviceProfileAdapterTests.profile("iphone-15-pro")
        let wide = try device.camera(ofType: .builtInWideAngleCamera, position: .back)
        var flash = try #require(FlashModel(device: device, camera: wide))
        // The stream `ConstantColorCaptureErrors` draws a unit's LED intensities from.
        let stream: UInt64 = 0x4345_0001
        for i in flash.modules.indices {
            flash.modules[i].intensityCandela *=
                1 + 0.1 * (2 * SeededDraw.uniform(seed: unit, stream: stream, index: i) - 1)
        }
        // The case the reach is for: the 80° cluster's spectra no longer share a centroid (they did to rounding
        // before the spread), yet lie within the reach of each other.
        let cluster = flash.modules.filter { $0.beamHalfAngleDegrees > 30 }
        func centroid(_ modules: [FlashModel.Module]) -> Vector3 {
            let w = modules.reduce(0) { $0 + $1.intensityCandela }
            return modules.reduce(Vector3.zero) { $0 + $1.positionInCamera * $1.intensityCandela } / w
        }
        let spectra = Dictionary(grouping: cluster) { $0.spectrum.values }.values.map(centroid)
        let apart = (spectra.first! - spectra.last!).length
        #expect(spectra.count == 2 && apart > 1e-6 && apart < 2e-4, "centroids \(apart) m apart")
        let camera = try CameraModel(device: device, camera: wide, width: 48, height: 36)
        try Self.compare(camera: camera, id: "iphone-15-pro unit \(unit)", flash: flash, seed: unit)
    }

    /// The fast render of a random scene 0.5–1.5 m away against the reference, value by value.
    static func compare(camera: CameraModel, id: String, flash: FlashModel, seed: UInt64) throws {
        var random = RandomScenes(seed: 40 + seed)
        var scene = random.scene(objects: 4)
        // Nearer than the random scenes: 0.5–1.5 m, where the flash matters.
        scene.objects = scene.objects.map { object in
            var o = object
            o.transform.position *= 0.35
            return o
        }
        let exposure = Exposure(time: 0.01, iso: 100, flash: true)
        let fast = Renderer(scene: scene, camera: camera, flash: flash).render(exposure).flashElectrons ?? []
        let reference = ReferenceRenderer(scene: scene, camera: camera, flash: flash).render(exposure, edgeMargin: 1e-3)
        #expect(fast.count == reference.flashElectrons.count)
        guard fast.count == reference.flashElectrons.count else { return }
        let floor = 1e-6 * (reference.flashElectrons.max() ?? 0)
        var compared = 0, failures = 0
        for i in fast.indices where !reference.nearEdge[i / 3] && !reference.penumbra[i / 3] {
            compared += 1
            let (got, want) = (Double(fast[i]), reference.flashElectrons[i])
            if abs(got - want) > 1e-3 * want + floor {
                failures += 1
                if failures <= 10 { Issue.record("\(id) value \(i): \(got), reference \(want)") }
            }
        }
        #expect(failures == 0 && compared > 48 * 36 * 3 * 4 / 5, "\(id): \(failures) of \(compared) off")
    }
}
