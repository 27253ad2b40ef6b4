import Foundation
import Scenes
import Sensor
import Testing

/// Maps carry the lens distortion of their image, and the calibration takes it out (spec §9, §10).
struct DepthDistortionTests {
    @Test func mapsBendLikeTheImageAndRectifyStraight() throws {
        // Pincushion: m rises linearly from 0 at the centre (64, 48) to 0.2 at the far corner.
        let table = (0..<16).map { 0.2 * Double($0) / 15 }
        var camera = DepthFixtures.camera()
        camera.distortion = LensDistortion(lookupTable: table, center: SIMD2(64, 48))
        // Card at 1 m over x < 0.4 m: its edge is the undistorted column 64 + 100 · 0.4 = 104.
        let renderer = DepthFixtures.renderer(
            [TestScenes.wall(distance: 2), DepthFixtures.card(distance: 1, left: -3, right: 0.4)], camera: camera)
        let calibration = CameraCalibration(
            fx: 100, fy: 100, cx: 64, cy: 48, referenceWidth: 128, referenceHeight: 96, pixelSizeMM: 0.0014,
            lookupTable: table, inverseLookupTable: [], distortionCenter: SIMD2(64, 48))
        let map = DisparityModelTests.exact.disparity(renderer, seed: 1, calibration: calibration)
        func edge(_ m: DepthMap, row: Int) -> Int { (0..<128).first { m[$0, row] < 0.75 } ?? -1 }
        // Raw map: on the centre row r = 40 px, m = 0.2 · 40 / 80 = 0.1, so the edge sits at
        // 64 + 40 · 1.1 = 108; at row 5 r = √(40² + 42.5²) = 58.4 px, m = 0.146, x = 109.8.
        #expect(edge(map, row: 48) == 108)
        #expect(abs(edge(map, row: 5) - 110) <= 1)
        let rectified = try #require(map.calibration).rectify(map)
        // Rows whose wall side still maps inside the distorted map (nearer the corners it maps outside).
        for row in [15, 30, 48, 65, 80] { #expect(abs(edge(rectified, row: row) - 104) <= 1, "row \(row)") }
    }
}
