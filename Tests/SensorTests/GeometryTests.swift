import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Depth, shadows and lens distortion against the geometry of the test camera
/// (fx = fy = 40, principal point (32, 24), pixel centres at integer + 0.5).
struct GeometryTests {
    @Test(arguments: Engine.allCases)
    func frontalPlaneDepthIsItsDistance(engine: Engine) {
        let scene = Scene(objects: [TestScenes.wall(distance: 2.5)], ambient: nil, device: TestScenes.device)
        let frame = engine.render(scene, camera: TestScenes.camera(), exposure: Exposure(time: 0.01, iso: 100))
        #expect(frame.depth.allSatisfy { abs($0 - 2.5) < 1e-5 })
        #expect(frame.objectIDs.allSatisfy { $0 == 0 })
    }

    @Test(arguments: Engine.allCases)
    func tiltedPlaneDepthFollowsGeometry(engine: Engine) {
        // Wall through (0, 0, −2) turned 30° about +Y: normal n = (sin 30°, 0, cos 30°).
        let angle = 30 * Double.pi / 180
        let scene = Scene(
            objects: [TestScenes.wall(distance: 2, rotation: Rotation(axis: Vector3(0, 1, 0), radians: angle))],
            ambient: nil, device: TestScenes.device)
        let frame = engine.render(scene, camera: TestScenes.camera(), exposure: Exposure(time: 0.01, iso: 100))
        let n = Vector3(sin(angle), 0, cos(angle))
        for (x, y) in [(0, 0), (63, 47), (10, 30), (32, 24)] {
            // Camera ray (u, −v, −1) in world coordinates meets n·P = n·P0 at Z_cam = n·P0 / n·(u, −v, −1).
            let u = (Double(x) + 0.5 - 32) / 40
            let v = (Double(y) + 0.5 - 24) / 40
            let z = n.dot(Vector3(0, 0, -2)) / n.dot(Vector3(u, -v, -1))
            #expect(abs(Double(frame.depth(x: x, y: y)) - z) < 1e-5, "pixel \(x),\(y)")
        }
    }

    @Test(arguments: Engine.allCases)
    func pointLightShadowEdgeFallsWhereGeometrySays(engine: Engine) {
        // Light at (0, 0, −0.5); a 0.2 m card spanning x 0.2…0.4 at z = −1; wall at z = −2.
        // The card's right edge projects from the light to x = 1.2 on the wall, seen from the
        // camera at tan = 1.2 / 2 = 0.6, i.e. between pixel columns 55 (0.5875) and 56 (0.6125).
        let card = SceneObject(
            name: "card", shape: .plane(width: 0.2, height: 0.2), transform: Transform(position: Vector3(0.3, 0, -1)),
            surface: .uniform(.neutral("card", reflectance: 0.5)))
        let lamp = Light(
            name: "lamp", spectrum: Illuminants.d65, kind: .point(position: Vector3(0, 0, -0.5), intensity: 10))
        let scene = Scene(
            objects: [TestScenes.wall(distance: 2), card], ambient: nil, lights: [lamp], device: TestScenes.device)
        let frame = engine.render(scene, camera: TestScenes.camera(), exposure: Exposure(time: 0.01, iso: 100))
        let lit = frame.ambientElectrons ?? []
        let y = 24
        for x in 49...55 {
            #expect(frame.objectIDs[y * 64 + x] == 0)
            #expect(lit[(y * 64 + x) * 3 + 1] == 0, "column \(x) should be in the card's shadow")
        }
        for x in 56...63 { #expect(lit[(y * 64 + x) * 3 + 1] > 0, "column \(x) should be lit") }
    }

    @Test(arguments: [0.0, 1.0], Engine.allCases)
    func softKeyShadowFallsWhereGeometrySaysFromEitherSideOfTheCard(keyRadiusDegrees: Double, engine: Engine) {
        // Key light towards (1, 0, 0.5); wall at z = −2; a 0.4 m card at z = −1.5 spanning x 1.2…1.6, just
        // outside the view, turned to face the wall so the light reaches it from behind. A wall point x_w meets
        // the card's plane at x_w + 1, so the umbra covers x_w 0.2…0.6, columns 36…44 (32 + 20·x_w); a 1° key
        // blurs each edge by under a pixel. Columns 37…42 must be dark, 20…33 and 47…63 lit.
        let card = SceneObject(
            name: "card", shape: .plane(width: 0.4, height: 0.4),
            transform: Transform(
                position: Vector3(1.4, 0, -1.5), rotation: Rotation(axis: Vector3(0, 1, 0), radians: .pi)),
            surface: .uniform(.neutral("card", reflectance: 0.5)))
        let key = AmbientLight(
            spectrum: Illuminants.d65, illuminance: 1000, direction: Vector3(1, 0, 0.5), diffuseFraction: 0,
            keyAngularRadiusDegrees: keyRadiusDegrees)
        let scene = Scene(objects: [TestScenes.wall(distance: 2), card], ambient: key, device: TestScenes.device)
        let frame = engine.render(scene, camera: TestScenes.camera(), exposure: Exposure(time: 0.01, iso: 100))
        let lit = frame.ambientElectrons ?? []
        let y = 24
        for x in 37...42 {
            #expect(frame.objectIDs[y * 64 + x] == 0)
            #expect(lit[(y * 64 + x) * 3 + 1] == 0, "column \(x) should be in the card's shadow")
        }
        for x in Array(20...33) + Array(47...63) {
            #expect(lit[(y * 64 + x) * 3 + 1] > 0, "column \(x) should be lit")
        }
    }

    @Test func straightLineBendsAsTheDistortionTableSays() {
        // Pincushion table: m rises linearly from 0 at the centre to 0.3 at the far corner.
        let table = (0..<16).map { 0.3 * Double($0) / 15 }
        let distortion = LensDistortion(lookupTable: table, center: SIMD2(32, 24))
        // An image card over x −0.1…0.9 m: left half texel 0, right half texel 1; its middle is the line x = 0.4 m at z = −1,
        // which the undistorted camera sees at column u0 = 32 + 40 · 0.4 = 48.
        let palette = [Material.neutral("dark", reflectance: 0.05), Material.neutral("light", reflectance: 0.9)]
        let card = SceneObject(
            name: "edge", shape: .plane(width: 1, height: 3), transform: Transform(position: Vector3(0.4, 0, -1)),
            surface: .image(width: 2, height: 1, indices: [0, 1], palette: palette))
        let scene = Scene(objects: [card], ambient: nil, device: TestScenes.device)
        let frame = Renderer(scene: scene, camera: TestScenes.camera(distortion: distortion), flash: nil)
            .render(Exposure(time: 0.01, iso: 100))
        let rMax = (32.0 * 32 + 24 * 24).squareRoot()
        // Independent forward map of spec §10 for points on the undistorted line.
        func distorted(_ vy: Double) -> (Double, Double) {
            let dx = 48.0 - 32
            let r = (dx * dx + vy * vy).squareRoot()
            let t = r * 15 / rMax
            let m = 0.3 * t / 15
            return (32 + dx * (1 + m), 24 + vy * (1 + m))
        }
        var transitions: [Double] = []
        for vy in [-19.0, -10, 0, 10, 19] {
            let (xd, yd) = distorted(vy)
            let row = Int(yd)
            guard row >= 0 && row < 48 else { continue }
            let ids = (0..<64).map { frame.materialIDs[row * 64 + $0] }
            guard let first = ids.firstIndex(of: 1) else {
                Issue.record("no edge in row \(row)")
                continue
            }
            // The first light column's centre lies within one pixel right of the distorted edge.
            #expect(
                Double(first) + 0.5 >= xd - 0.05 && Double(first) + 0.5 <= xd + 1.05, "row \(row): \(first) vs \(xd)")
            transitions.append(Double(first))
        }
        // The line bows outward away from the centre row (pincushion): corners sit farther right.
        #expect((transitions.first ?? 0) > (transitions[transitions.count / 2]))
    }

    @Test func geometryIsSharedBetweenFlashAndNoFlashFrames() {
        let flash = FlashModel(modules: [.init(spectrum: Illuminants.d65, intensityCandela: 100)])
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 50), device: TestScenes.device)
        let renderer = Renderer(scene: scene, camera: TestScenes.camera(noise: TestScenes.quiet), flash: flash)
        let off = renderer.render(Exposure(time: 0.1, iso: 100, flash: false))
        let on = renderer.render(Exposure(time: 0.1, iso: 100, flash: true))
        #expect(off.ambientElectrons == on.ambientElectrons)
        #expect((off.flashElectrons ?? []).allSatisfy { $0 == 0 })
        #expect((on.flashElectrons ?? []).allSatisfy { $0 > 0 })
    }
}
