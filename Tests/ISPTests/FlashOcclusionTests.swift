import ISP
import Scenes
import Sensor
import Testing

/// `FlashOcclusion` against the closed form of a flash shadow: a wall at 1 m behind a strip at 0.5 m, a
/// flash 2 cm left of the lens. A wall point at X_w is hidden where the segment to the flash, at the
/// strip's depth (half-way, s = ½), has X = (X_w − 0.02) / 2 inside the strip's X range [−0.05, 0): X_w in
/// [−0.08, 0.02). The wall is seen beside the strip from column 100 on, so its columns 100 to 103 (pixel
/// centres X_w = (x + ½ − 100) / 200 below 0.02) are in the shadow, the wall from column 104 on and left of
/// the strip is lit, and so is the strip itself. Column 103's segment grazes the strip's edge at the strip's
/// own depth; the pixel of tolerance for the occluder's edge (which may lie anywhere in the first pixel past
/// its last sample) counts it in, and column 104, whose segment passes half a pixel past the edge, stays lit.
/// Every row of the strip is alike, so row 50 stands for all.
struct FlashOcclusionTests {
    static let width = 200, height = 100

    static func occlusion(flashX: Double) throws -> FlashOcclusion {
        var camera = try ConstantColorFixture.pipeline(width: 320, height: 240).camera
        camera.width = width
        camera.height = height
        camera.fx = 200
        camera.fy = 200
        camera.cx = 100
        camera.cy = 50
        camera.distortion = nil
        let flash = FlashIrradiance(sources: [
            .init(positionInCamera: Vector3(flashX, 0, 0), beamExponent: 1, intensityCandela: 1)
        ])
        return try #require(FlashOcclusion(camera: camera, irradiance: flash))
    }

    /// The wall at 1 m with the strip at 0.5 m over columns 80 to 99 (X from −0.05 to 0 at its depth).
    static let depth: [Float] = (0..<(width * height)).map { (80..<100).contains($0 % width) ? 0.5 : 1 }

    @Test func shadowBesideTheStripMatchesTheClosedForm() throws {
        let occlusion = try Self.occlusion(flashX: -0.02)
        let mask = occlusion.mask(depth: Self.depth)
        let blocked = (0..<Self.width).map { Float(mask[50 * Self.width + $0]) / 255 }
        #expect((100...103).allSatisfy { blocked[$0] == 1 }, "\(blocked[96..<108])")
        #expect((104..<Self.width).allSatisfy { blocked[$0] == 0 })
        #expect((0..<100).allSatisfy { blocked[$0] == 0 }, "the strip and the wall left of it are lit")
    }

    /// With the flash on the right, the shadow falls on the strip's left: (X_w + 0.02) / 2 in [−0.05, 0) gives
    /// X_w in [−0.12, −0.02), pixel centres of columns 76 to 95, of which 76 to 79 show the wall; column 76
    /// grazes the strip's edge (as column 103 does above), column 75 passes half a pixel past it.
    @Test func flashOnTheOtherSideMovesTheShadow() throws {
        let occlusion = try Self.occlusion(flashX: 0.02)
        let mask = occlusion.mask(depth: Self.depth)
        let blocked = (0..<Self.width).map { Float(mask[50 * Self.width + $0]) / 255 }
        #expect((76...79).allSatisfy { blocked[$0] == 1 }, "\(blocked[72..<84])")
        #expect((0..<76).allSatisfy { blocked[$0] == 0 })
        #expect((80..<Self.width).allSatisfy { blocked[$0] == 0 })
    }

    /// A surface that turns steeply away, as a sphere's limb does, shadows nothing on itself: a plane whose
    /// depth rises by 2 mm a pixel, with the flash on the side it turns away from.
    @Test func aSlantedSurfaceIsLit() throws {
        let occlusion = try Self.occlusion(flashX: -0.02)
        let slanted: [Float] = (0..<(Self.width * Self.height)).map { 0.4 + 0.002 * Float($0 % Self.width) }
        let mask = occlusion.mask(depth: slanted)
        let blocked = (0..<Self.width).map { Float(mask[50 * Self.width + $0]) / 255 }
        #expect(blocked.allSatisfy { $0 == 0 })
    }

    /// The same shadow turned a quarter: a flash 2 cm above the lens, a strip across rows 80 to 99 at 0.5 m in
    /// front of the wall, so rows 100 to 103 of every column are in its shadow and the rows past them are lit. The
    /// columns are swept in blocks (`FlashOcclusion.sweepColumns`), the picture 40 columns wide so that the last
    /// block is a partial one.
    @Test func shadowBelowAStripMatchesTheClosedForm() throws {
        var camera = try ConstantColorFixture.pipeline(width: 320, height: 240).camera
        (camera.width, camera.height, camera.fx, camera.fy, camera.cx, camera.cy) = (40, 200, 200, 200, 20, 100)
        camera.distortion = nil
        let flash = FlashIrradiance(sources: [
            .init(positionInCamera: Vector3(0, -0.02, 0), beamExponent: 1, intensityCandela: 1)
        ])
        let occlusion = try #require(FlashOcclusion(camera: camera, irradiance: flash))
        let depth: [Float] = (0..<(40 * 200)).map { (80..<100).contains($0 / 40) ? 0.5 : 1 }
        let mask = occlusion.mask(depth: depth)
        for x in [0, 17, 39] {
            let blocked = (0..<200).map { mask[$0 * 40 + x] }
            #expect((100...103).allSatisfy { blocked[$0] == 255 }, "column \(x): \(blocked[96..<108])")
            #expect(blocked[104...].allSatisfy { $0 == 0 } && blocked[..<100].allSatisfy { $0 == 0 }, "column \(x)")
        }
    }

    /// Columns swept together in a block give each column's shares bit for bit as the plain one-column sweep, both
    /// ways, on random depths with holes (NaN and zero), for a full block and a partial one.
    @Test func blockSweepMatchesTheColumnSweep() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        let width = 37, height = 90
        let depth: [Float] = (0..<(width * height)).map { _ in
            let u = random()
            return u < 0.05 ? .nan : u < 0.08 ? 0 : 0.3 + 2 * random()
        }
        for disparity: Float in [-6, 4.5] {
            var plain = [Float](repeating: 0, count: width * height)
            var blocked = plain
            depth.withUnsafeBufferPointer { z in
                plain.withUnsafeMutableBufferPointer { out in
                    for x in 0..<width {
                        FlashOcclusion.sweep(
                            depth: z.baseAddress! + x, step: width, count: height, disparity: disparity, share: 0.25,
                            into: out.baseAddress! + x)
                    }
                }
                blocked.withUnsafeMutableBufferPointer { out in
                    for first in stride(from: 0, to: width, by: FlashOcclusion.block) {
                        FlashOcclusion.sweepColumns(
                            depth: z.baseAddress! + first, columns: min(FlashOcclusion.block, width - first),
                            width: width, height: height, disparity: disparity, share: 0.25,
                            into: out.baseAddress! + first)
                    }
                }
            }
            let differing = zip(plain, blocked).filter { $0 != $1 }.count
            #expect(differing == 0, "disparity \(disparity): \(differing) shares differ")
            #expect(plain.contains { $0 > 0 }, "the sweep hides something")
        }
    }
}
