import Devices
import Foundation
import Scenes
import Sensor
import Testing

/// Dual-camera disparity against stereo geometry: normalised disparity = 1/Z (spec §9).
struct DisparityModelTests {
    static let exact = DisparityModel(
        baseline: Vector3(0.05, 0, 0), matchingPrecisionPixels: 0, calibrationScaleError: 0, calibrationOffsetError: 0)

    @Test func planeDisparityIsOneOverDistance() {
        let map = Self.exact.disparity(DepthFixtures.renderer([TestScenes.wall(distance: 2)]), seed: 1)
        #expect(map.format == .disparityFloat32 && map.accuracy == .relative && map.quality == .high)
        #expect(map.values.allSatisfy { abs($0 - 0.5) < 1e-6 })
    }

    @Test func tiltedPlaneDisparityFollowsGeometry() {
        // Plane through (0, 0, −2) with normal n = (sin 30°, 0, cos 30°): 1/Z = n·(u, −v, −1) / n·P0.
        let angle = 30 * Double.pi / 180
        let wall = TestScenes.wall(distance: 2, rotation: Rotation(axis: Vector3(0, 1, 0), radians: angle))
        let map = Self.exact.disparity(DepthFixtures.renderer([wall]), seed: 1)
        let n = Vector3(sin(angle), 0, cos(angle))
        for (x, y) in [(0, 0), (127, 95), (64, 48), (20, 70)] {
            let u = (Double(x) + 0.5 - 64) / 100
            let v = (Double(y) + 0.5 - 48) / 100
            let expected = n.dot(Vector3(u, -v, -1)) / n.dot(Vector3(0, 0, -2))
            #expect(abs(Double(map[x, y]) - expected) < 1e-5, "pixel \(x),\(y)")
        }
    }

    @Test func noiseIsOneDisparityStep() {
        // σ = 1 px / (f·B): 1/(100 · 0.05) = 0.2 m⁻¹, and 0.1 m⁻¹ with twice the baseline.
        let renderer = DepthFixtures.renderer([TestScenes.wall(distance: 2)])
        for (baseline, sigma) in [(0.05, 0.2), (0.1, 0.1)] {
            let model = DisparityModel(
                baseline: Vector3(baseline, 0, 0), matchingPrecisionPixels: 1, calibrationScaleError: 0,
                calibrationOffsetError: 0)
            let measured = DepthFixtures.standardDeviation(model.disparity(renderer, seed: 7).values)
            // 12 288 samples: the standard error of σ is σ/√(2n) ≈ 0.6 %.
            #expect(abs(measured / sigma - 1) < 0.03, "B = \(baseline): σ = \(measured)")
        }
    }

    @Test func calibrationErrorChangesScaleButNotOrder() {
        let model = DisparityModel(
            baseline: Vector3(0.05, 0, 0), matchingPrecisionPixels: 0, calibrationScaleError: 0.05)
        let renderer = DepthFixtures.renderer([
            TestScenes.wall(distance: 2), DepthFixtures.card(distance: 1, left: -3, right: 0),
        ])
        let a = model.disparity(renderer, seed: 1)
        let b = model.disparity(renderer, seed: 2)
        #expect(a[10, 48] != b[10, 48])
        for map in [a, b] {
            #expect(map[10, 48] > map[120, 48])  // the near card keeps the larger disparity
            #expect(abs(Double(map[120, 48]) / 0.5 - 1) < 0.3)
        }
    }

    @Test func occludedBandWidthMatchesBaseline() {
        // Near card (Z = 0.5) over world x < 0; wall at Z = 2; second camera 0.1 m to the left.
        // The wall just right of the edge is hidden from it over f·B·(1/Z_near − 1/Z_far) = 15 px.
        let model = DisparityModel(
            baseline: Vector3(-0.1, 0, 0), matchingPrecisionPixels: 0, calibrationScaleError: 0,
            calibrationOffsetError: 0)
        let renderer = DepthFixtures.renderer([
            TestScenes.wall(distance: 2), DepthFixtures.card(distance: 0.5, left: -3, right: 0),
        ])
        let map = model.disparity(renderer, seed: 3)
        for y in [10, 48, 90] {
            let holes = (0..<128).filter { map[$0, y].isNaN }
            #expect(abs(holes.count - 15) <= 1, "row \(y): \(holes.count) holes")
            #expect(holes.first == 64)
        }
        #expect(abs(map.holeFraction - 15.0 / 128) < 0.01)
        // With the second camera on the other side the band is hidden from neither camera.
        var right = model
        right.baseline = Vector3(0.1, 0, 0)
        #expect(right.disparity(renderer, seed: 3).holeFraction == 0)
    }

    @Test func profileBaselineComesFromTheConstituents() throws {
        let device = try DeviceProfileAdapterTests.profile("iphone-7-plus")
        let dual = try device.camera(ofType: .builtInDualCamera, position: .back)
        let model = try DisparityModel(device: device, camera: dual)
        #expect(abs(model.baseline.x - 0.00998) < 1e-12 && abs(model.baseline.y - 0.00012) < 1e-12)
        #expect(model.calibrationScaleError == 0.03)
    }
}
