import Foundation
import Sensor
import Testing

/// A regression guard on the renderer's output bytes: the scene, camera and exposures of `SensorBenchmark` (release
/// benchmark of Benchmarks/SensorBenchmark) at 1008 × 756, hashed the way its `checksum` argument hashes them.
///
/// A snapshot of our own output, not a proof of correctness (the physics tests are that): it shows that a speed-up
/// left every electron, code value and depth alone. A change that means to move pixels updates the digest here, and
/// says why in its commit. The scene is the benchmark's (`BenchmarkScene`).
@Suite struct BenchmarkSceneChecksumTests {
    /// `SensorBenchmark 1 WIDTH HEIGHT checksum`: a flash frame, then the ambient frame from the cached geometry,
    /// whose digest it prints. The odd sizes cover the vector loops' tails.
    @Test(arguments: [
        (1008, 756, "5b5c09d17f22ca28"), (1001, 753, "485d3df6ecd198de"), (333, 250, "8ec69141037f5f3c"),
    ])
    func violetsKeepTheirDigest(width: Int, height: Int, digest: String) throws {
        let renderer = Renderer(
            scene: try BenchmarkScene.violetsScene(),
            camera: BenchmarkScene.camera().scaled(toWidth: width, height: height), flash: BenchmarkScene.flash,
            options: RenderOptions(keepsComponents: false))
        var exposure = Exposure(time: 1.0 / 30, iso: 200, flash: true, seed: 7)
        _ = renderer.render(exposure)
        exposure.frameIndex = 1
        exposure.flash = false
        #expect(String(format: "%016llx", BenchmarkScene.checksum(renderer.render(exposure))) == digest)
    }
}
