import Devices
import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// TrueDepth: absolute depth with structured-light holes.
struct TrueDepthModelTests {
    @Test func depthIsAbsoluteWithinStatedAccuracy() {
        // σ_Z = 1 % · Z² = 6.4 mm at 0.8 m.
        let model = TrueDepthModel()
        let map = model.depth(DepthFixtures.renderer([TestScenes.wall(distance: 0.8)]), seed: 5, format: .depthFloat32)
        #expect(map.accuracy == .absolute && map.holeFraction == 0)
        let sigma = 0.01 * 0.8 * 0.8
        let errors = map.values.map { Double($0) - 0.8 }
        let mean = errors.reduce(0, +) / Double(errors.count)
        #expect(abs(mean) < 4 * sigma / Double(errors.count).squareRoot())
        #expect(errors.allSatisfy { abs($0) < 5 * sigma })
        #expect(abs(DepthFixtures.standardDeviation(map.values) / sigma - 1) < 0.05)
    }

    @Test func outOfRangeDarkAndGlossySurfacesAreHoles() {
        let model = TrueDepthModel()
        let far = model.depth(DepthFixtures.renderer([TestScenes.wall(distance: 2)]), seed: 1)
        #expect(far.holeFraction == 1 && far.quality == .low)
        // Infrared return 0.01 · cos 0 / 1 m² is below the 0.02 m⁻² the camera needs.
        let dark = model.depth(DepthFixtures.renderer([TestScenes.wall(distance: 1, reflectance: 0.01)]), seed: 1)
        #expect(dark.holeFraction == 1)
        let glossy = Material(name: "chrome", reflectance: .constant(0.5), specularStrength: 0.9, roughness: 0.1)
        let shiny = model.depth(
            DepthFixtures.renderer([
                TestScenes.wall(distance: 1), DepthFixtures.card(distance: 0.6, left: 0, right: 2, material: glossy),
            ]),
            seed: 1)
        #expect(shiny[100, 48].isNaN && !shiny[20, 48].isNaN)
    }

    @Test func projectorShadowLiesBesideNearEdges() {
        // Projector 0.1 m right of the camera, card over x > 0 at 0.5 m, wall at 1 m: the wall
        // just left of the edge is unlit over f·B·(1/0.5 − 1/1) = 10 px.
        let model = TrueDepthModel(projectorOffset: Vector3(0.1, 0, 0), relativeErrorAt1m: 0)
        let map = model.depth(
            DepthFixtures.renderer([
                TestScenes.wall(distance: 1), DepthFixtures.card(distance: 0.5, left: 0, right: 3),
            ]),
            seed: 1)
        let holes = (0..<128).filter { map[$0, 48].isNaN }
        #expect(abs(holes.count - 10) <= 1 && holes.last == 63, "\(holes)")
    }

    @Test func nativeSizesFollowTheVideoAspect() {
        #expect(TrueDepthModel.nativeSize(videoWidth: 1920, videoHeight: 1080) == Dimensions(width: 640, height: 360))
        #expect(TrueDepthModel.nativeSize(videoWidth: 1440, videoHeight: 1080) == Dimensions(width: 640, height: 480))
    }
}
