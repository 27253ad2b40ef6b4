import Foundation
import ObscuraAV
import Scenes
import Sensor
import Spectra
import Testing

/// The renderers kept between photos (`RendererShelf`): a request that differs from a kept one only in where the
/// lens is focused reuses that renderer's geometry instead of tracing the scene again.
struct RendererShelfTests {
    static let camera = CameraModel(
        width: 64, height: 48, fx: 60, fy: 60, cx: 32, cy: 24, fNumber: 1.8, lensTransmittance: 0.9,
        pixelPitchMicrometres: 1.4,
        quantumEfficiency: (Spectrum.constant(0.5), Spectrum.constant(0.5), Spectrum.constant(0.5)),
        noise: NoiseParameters(
            fullWellElectrons: 6000, readNoiseElectrons: 2, prnu: 0, dsnuElectrons: 0, adcBits: 10, blackLevel: 64,
            whiteLevel: 1023, baseISO: 50))

    static func scene(grey: Double) -> Scene {
        Scene(
            objects: [
                SceneObject(
                    name: "card", shape: .plane(width: 1, height: 1), transform: Transform(position: Vector3(0, 0, -1)),
                    surface: .uniform(.neutral("card", reflectance: grey)))
            ],
            ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 200, direction: Vector3(0, 0, 1)),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }

    static func lens(_ distance: Double) -> LensFocus {
        LensFocus(focalLength: 0.006, fNumber: 1.8, focusDistance: distance)
    }

    @Test func refocusingSharesTheGeometryOfTheKeptRenderer() {
        let shelf = RendererShelf<String>(capacity: 4)
        var builds = 0
        func renderer(_ key: String, _ focus: LensFocus?) -> Renderer {
            shelf.renderer(for: key, focus: focus) {
                builds += 1
                return Renderer(scene: Self.scene(grey: key == "grey" ? 0.2 : 0.8), camera: Self.camera, flash: nil)
                    .focused(focus)
            }
        }
        let near = renderer("grey", Self.lens(0.3))
        let far = renderer("grey", Self.lens(2))
        let sharp = renderer("grey", nil)
        #expect(builds == 1)
        #expect(far.sharesGeometry(with: near) && sharp.sharesGeometry(with: near))
        #expect(far.focus == Self.lens(2) && sharp.focus == nil)
        // Asked again, the kept renderer itself comes back.
        #expect(renderer("grey", Self.lens(2)).focus == Self.lens(2))
        #expect(builds == 1)
        // Another scene is traced anew.
        let white = renderer("white", Self.lens(0.3))
        #expect(builds == 2)
        #expect(!white.sharesGeometry(with: near))
    }

    @Test func theOldestRendererMakesRoomForTheNewest() {
        let shelf = RendererShelf<Int>(capacity: 2)
        var builds = 0
        func renderer(_ key: Int) -> Renderer {
            shelf.renderer(for: key, focus: nil) {
                builds += 1
                return Renderer(scene: Self.scene(grey: 0.1 * Double(key + 1)), camera: Self.camera, flash: nil)
            }
        }
        _ = renderer(0)
        _ = renderer(1)
        _ = renderer(2)
        #expect(builds == 3)
        _ = renderer(2)
        _ = renderer(1)
        #expect(builds == 3)
        _ = renderer(0)
        #expect(builds == 4)
    }

    /// The shelf counts geometries, not renderers: the focus distances of one scene, which share one geometry, do
    /// not push another scene off it, and the scene used last stays longest.
    @Test func focusDistancesOfOneSceneDoNotPushAnotherSceneOff() {
        let shelf = RendererShelf<Int>(capacity: 2)
        var builds = 0
        func renderer(_ key: Int, _ distance: Double? = nil) -> Renderer {
            shelf.renderer(for: key, focus: distance.map(Self.lens)) {
                builds += 1
                return Renderer(scene: Self.scene(grey: 0.1 * Double(key + 1)), camera: Self.camera, flash: nil)
                    .focused(distance.map(Self.lens))
            }
        }
        _ = renderer(0)
        _ = renderer(1)
        for distance in [0.2, 0.4, 0.6, 0.8] { _ = renderer(1, distance) }
        #expect(builds == 2)
        _ = renderer(0)
        #expect(builds == 2)
        // Scene 0 was used after scene 1, so a third scene takes scene 1's place.
        _ = renderer(2)
        #expect(builds == 3)
        _ = renderer(0)
        #expect(builds == 3)
        _ = renderer(1, 0.4)
        #expect(builds == 4)
    }
}
