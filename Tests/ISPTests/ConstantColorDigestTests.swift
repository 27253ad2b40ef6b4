import Foundation
import ISP
import Imaging
import Scenes
import Testing

/// A regression guard on Constant Color's output: `ConstantColorBenchmark`'s first capture (hand-on-desk, iPhone 15
/// Pro wide, no fallback, seed 0), hashed as the benchmark hashes it (FNV-1a of the photo's PNG bytes at level 1),
/// and at 1008 × 756 its pixels and confidence map too, captured without the device's error sources.
///
/// A snapshot of our own output, not a proof of correctness (the colour and confidence tests are that): it shows
/// that a speed-up left the photo alone. A change that means to move pixels updates the digests here, and says why
/// in its commit; an encoder change moves only the PNG digests, and the pixel digests show the pixels stayed.
@Suite struct ConstantColorDigestTests {
    static func fnv1a(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(format: "%016llx", hash)
    }

    static func capture(width: Int, height: Int) throws -> ConstantColorResult {
        let profile = try ConstantColorFixture.device("iphone-15-pro")
        let camera = try profile.camera(ofType: .builtInWideAngleCamera)
        var pipeline = try ConstantColorPipeline(
            device: profile, camera: camera, width: width, height: height, settings: .init(developsFallback: false))
        // The error-free capture (`validate constant-color --ideal`) keeps the digests the pipeline had before the
        // device's error sources were modelled, bit for bit.
        pipeline.captureErrors = .none
        return pipeline.capture(scene: try ConstantColorSceneTests.scene("hand-on-desk"), seed: 0)
    }

    @Test(arguments: [
        (1008, 756, "42db472242020dcb"), (1001, 753, "2d16317a7c482c3b"), (2016, 1512, "8dad818bbe765afb"),
    ])
    func handOnDeskKeepsItsDigest(width: Int, height: Int, digest: String) throws {
        let result = try Self.capture(width: width, height: height)
        let png = try PNG.encode(PNGImage(pixels: result.photo, colorSpace: .displayP3), compressionLevel: 1)
        #expect(Self.fnv1a(png) == digest)
        if width == 1008 {
            #expect(Self.fnv1a(result.photo.packedElements) == "f19be13d6522c3e3")
            #expect(Self.fnv1a(result.confidenceMap.plane.packedElements) == "0830d1cceeb29b1d")
        }
    }
}
