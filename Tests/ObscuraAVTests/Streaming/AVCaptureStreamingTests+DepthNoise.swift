import Foundation
import Obscura
import ObscuraAV
import Testing

/// A depth stream measures every frame anew: through the public API, consecutive unfiltered frames of a still scene
/// carry different noise (a phone's matcher reads a new exposure each frame), and the same values where the
/// scene decides them, the holes.
/// In the streaming suite, which is serialized: the emulator's clock is shared.
extension AVCaptureStreamingTests {
    static func depthValues(_ data: AVDepthData) -> [Float] {
        let map = data.converting(toDepthDataType: kCVPixelFormatType_DisparityFloat32).depthDataMap
        CVPixelBufferLockBaseAddress(map, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(map, .readOnly) }
        let (w, h) = (CVPixelBufferGetWidth(map), CVPixelBufferGetHeight(map))
        let row = CVPixelBufferGetBytesPerRow(map) / 4
        let base = CVPixelBufferGetBaseAddress(map)!.assumingMemoryBound(to: Float.self)
        return (0..<h).flatMap { y in (0..<w).map { x in base[y * row + x] } }
    }

    @Test func consecutiveDepthFramesHaveNewNoise() throws {
        try onDevice("iphone-7-plus") {
            let depth = try StreamRig.unfilteredDepth(frames: 4)
            try #require(depth.count >= 2)
            let a = Self.depthValues(depth[0]), b = Self.depthValues(depth[1])
            let both = zip(a, b).filter { $0.0.isFinite && $0.1.isFinite }
            #expect(both.count > 100, "pixels match in both frames")
            let differing = both.filter { $0.0 != $0.1 }.count
            #expect(differing > both.count * 9 / 10, "\(differing) of \(both.count) values differ")
            let sameHoles = zip(a, b).filter { $0.0.isNaN == $0.1.isNaN }.count
            #expect(sameHoles > a.count * 98 / 100, "holes follow the scene: \(sameHoles) of \(a.count) agree")
        }
    }
}
