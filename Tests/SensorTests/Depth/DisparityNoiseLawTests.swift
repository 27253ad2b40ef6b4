import Devices
import Foundation
import Scenes
import Sensor
import Testing

/// Dual-camera depth noise against stereo geometry: a matching error of σ_px pixels is
/// σ_d = σ_px / (f_px · B) in normalised disparity at every distance, so depth, Z = 1/d, has
/// σ_Z = Z² · σ_d to first order; and a matcher accepts no disparity outside its search window,
/// so the map holds holes, never negative disparities or depths.
struct DisparityNoiseLawTests {
    /// The standard normal cumulative distribution.
    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }

    /// Mean and sample standard deviation of the finite values.
    static func moments(_ values: [Float]) -> (mean: Double, sigma: Double, count: Int) {
        let v = values.filter(\.isFinite).map(Double.init)
        let mean = v.reduce(0, +) / Double(v.count)
        let variance = v.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(v.count - 1)
        return (mean, variance.squareRoot(), v.count)
    }

    /// A flat wall square to the axis fills a 320 × 240 map (f = 400 px) at 0.5 to 5 m. With
    /// B = 5 cm and σ_px = 0.1, σ_d = 0.005 m⁻¹, so σ_Z / Z² must be 0.005 at every distance.
    ///
    /// The bound: the sample standard deviation of n near-Gaussian values has a relative standard
    /// error of 1 / √(2(n − 1)) (0.26 % for n = 76 800), and we allow four of them; the
    /// second-order term of 1/d adds a relative 2 (σ_d Z)² (0.13 % at 5 m), for which we allow
    /// 3 (σ_d Z)². The mean depth of the map stands for Z, so a calibration scale error does not
    /// enter: it moves Z but not the law.
    @Test(arguments: [0.5, 1, 2, 3, 4, 5])
    func depthNoiseGrowsAsDistanceSquared(distance: Double) {
        let (focal, baseline, precision) = (400.0, 0.05, 0.1)
        let sigmaD = precision / (focal * baseline)
        let model = DisparityModel(
            baseline: Vector3(baseline, 0, 0), matchingPrecisionPixels: precision, calibrationScaleError: 0.03,
            calibrationOffsetError: 0, minimumDepth: 0.2, maximumDepth: 10)
        let renderer = DepthFixtures.renderer(
            [TestScenes.wall(distance: distance)], camera: DepthFixtures.camera(width: 320, height: 240, focal: focal))
        let map = model.disparity(renderer, seed: 11, format: .depthFloat32)
        let (z, sigmaZ, n) = Self.moments(map.values)
        #expect(n == 320 * 240, "every pixel sees the wall and matches")
        #expect(map.values.allSatisfy { !$0.isFinite || $0 > 0 })
        let s = sigmaD * z
        let bound = 4 / (2 * Double(n - 1)).squareRoot() + 3 * s * s
        let ratio = sigmaZ / (z * z) / sigmaD
        #expect(abs(ratio - 1) < bound, "Z = \(distance) m: σ_Z/Z² = \(sigmaZ / (z * z)), σ_d = \(sigmaD)")
    }

    /// The iPhone 7 Plus dual camera at its 320 × 240 streaming depth size, walls from 0.5 m to beyond its
    /// 5 m rated range: the disparity noise is the profile's rated error at 1 m (0.03 m⁻¹, so σ_Z = 0.03 Z²), the
    /// matcher's window is the rated range (1/5 to 1/0.3 m⁻¹) widened by 4 σ_d on each side, no value is negative
    /// or outside it, and the holes are exactly the Gaussian tail that falls outside it,
    /// Φ((low − 1/Z)/σ_d) + 1 − Φ((high − 1/Z)/σ_d), within five binomial standard errors: none inside the rated
    /// range beyond the 4σ tail (3 × 10⁻⁵ at the limit), 6.7 % at 8 m. No image is given, so no pixel is judged textureless.
    @Test func dualCameraWallsHaveHolesNotNegatives() throws {
        let device = try DeviceProfileAdapterTests.profile("iphone-7-plus")
        let dual = try device.camera(ofType: .builtInDualCamera, position: .back)
        var model = try DisparityModel(device: device, camera: dual)
        model.calibrationScaleError = 0  // one fixed scale, so the tail has a closed form
        let camera = try CameraModel(device: device, camera: dual, width: 320, height: 240)
        let sigmaD = 0.03
        #expect(model.noiseSigma(focalLengthPixels: camera.fx) == sigmaD)
        let (low, high) = (1 / 5.0 - 4 * sigmaD, 1 / 0.3 + 4 * sigmaD)
        for distance in [0.5, 1, 2, 3, 4, 5, 8] {
            let renderer = DepthFixtures.renderer([TestScenes.wall(distance: distance)], camera: camera)
            let map = model.disparity(renderer, seed: 3)
            let valid = map.values.filter(\.isFinite)
            #expect(valid.allSatisfy { Double($0) >= low * (1 - 1e-6) && Double($0) <= high * (1 + 1e-6) })
            let depths = map.converting(to: .depthFloat32).values.filter(\.isFinite)
            #expect(depths.allSatisfy { $0 > 0 && Double($0) <= 1 / low * 1.0001 }, "Z = \(distance) m")
            let d = 1 / distance
            let expected = Self.phi((low - d) / sigmaD) + 1 - Self.phi((high - d) / sigmaD)
            let n = Double(map.values.count)
            // The noise is averaged over a 5 × 5 window: about n/25 independent draws.
            let tolerance = 5 * (expected * (1 - expected) / (n / 25)).squareRoot() + 2 / n
            #expect(abs(map.holeFraction - expected) < tolerance, "Z = \(distance) m: holes \(map.holeFraction)")
            // Inside the rated range at most the 4σ tail, 3 × 10⁻⁵ at 5 m (2.4 of 76 800 pixels expected).
            if distance <= 5 { #expect(map.holeFraction < 1e-4, "Z = \(distance) m is inside the rated range") }
        }
    }

    /// The noise follows the seed: the same seed gives the same map, another seed another one.
    @Test func seedFixesTheNoise() {
        let model = DisparityModel(baseline: Vector3(0.01, 0, 0), minimumDepth: 0.3, maximumDepth: 5)
        let renderer = DepthFixtures.renderer([TestScenes.wall(distance: 2)])
        let a = model.disparity(renderer, seed: 21).values
        let b = model.disparity(renderer, seed: 21).values
        let c = model.disparity(renderer, seed: 22).values
        #expect(zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
        let differing = zip(a, c).filter { $0 != $1 }.count
        #expect(differing > a.count * 99 / 100, "\(differing) of \(a.count) pixels differ")
    }
}
