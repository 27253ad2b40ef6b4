import Foundation
import ISP
import Scenes
import Sensor
import Testing

/// The fast Constant Color kernels against their plain references, as the renderer is tested against the reference
/// renderer: the same captured pair developed twice (`ConstantColorPipeline.develop`), once by the fast path and
/// once by the scalar reference (the statistics pass's row sums written plainly, and the blend done pixel by pixel
/// with each tile value interpolated on its own, the scalar colour mapping and plain sums for the exposure).
///
/// The scene has a saturated light strong in one channel, clipped highlights, the flash's own shadows and a LiDAR
/// depth map, so every rule of `PixelBlend` runs. The statistics must agree bit for bit (the vector kernel performs
/// the reference's operations in the reference's order). The blend's linear values must agree within 10⁻⁵ of the
/// value plus 10⁻⁷ of the picture's peak (they agree exactly as written; the tolerance leaves room for a reordering
/// of the interpolation's additions, which moves a value by a few units in the last place of a Float): a changed
/// rule in either path (a tile row interpolated with the wrong weight, a lane of the wrong channel) moves pixels by
/// percents. Interpolating the local ratios from one tile row only, for example, moved 9,397 of 129,600 values.
@Suite struct ConstantColorDifferentialTests {
    struct Pair {
        let fast: ConstantColorDevelopment, reference: ConstantColorDevelopment
    }

    static func developments(width: Int = 240, height: Int = 180) throws -> Pair {
        let pipeline = try ConstantColorFixture.pipeline(width: width, height: height)
        let result = pipeline.capture(scene: try ConstantColorSceneTests.scene("violets-red-light"), seed: 7)
        let d = result.diagnostics
        let capture = ConstantColorFixture.recorded(result)
        return Pair(
            fast: pipeline.develop(capture, plan: d.plan, path: .fast),
            reference: pipeline.develop(capture, plan: d.plan, path: .reference))
    }

    /// The still pair's impossibly negative pixels, counted alone, are the full statistics' count exactly, at no
    /// shift, at the registration's and at a shift three pixels off (where motion makes thousands of them): the
    /// pipeline decides by the count whether the still pair's statistics are needed.
    @Test func impossiblePixelCountMatchesTheStatistics() throws {
        let pipeline = try ConstantColorFixture.pipeline(width: 240, height: 180)
        let result = pipeline.capture(scene: try ConstantColorSceneTests.scene("violets-red-light"), seed: 7)
        let d = result.diagnostics
        let capture = ConstantColorFixture.recorded(result)
        for shift in [SIMD2<Double>(0, 0), d.registration, SIMD2(3, -2.5)] {
            let (counted, summed) = pipeline.impossiblePixels(capture, plan: d.plan, shift: shift)
            #expect(counted == summed, "shift \(shift)")
            if shift.x == 3 { #expect(summed > 100) }
        }
    }

    @Test func statisticsPassMatchesItsReferenceBitForBit() throws {
        let pair = try Self.developments()
        let clipped = pair.reference.tileStatistics.filter { $0.clipped > 0 }.count
        // The scene exercises the clipped-pixel rules.
        #expect(clipped > 0)
        let differing = zip(pair.fast.tileStatistics, pair.reference.tileStatistics).filter { $0 != $1 }.count
        #expect(pair.fast.tileStatistics.count == pair.reference.tileStatistics.count)
        #expect(differing == 0, "\(differing) of \(pair.reference.tileStatistics.count) tiles differ")
        #expect(pair.fast.confidence.values == pair.reference.confidence.values)
    }

    @Test func blendMatchesItsReference() throws {
        let pair = try Self.developments()
        let fast = pair.fast.linear, reference = pair.reference.linear
        try #require(fast.count == reference.count)
        let peak = reference.reduce(Float(0)) { max($0, abs($1)) }
        var failures = 0, worst: Float = 0
        for i in reference.indices {
            let difference = abs(fast[i] - reference[i])
            worst = max(worst, difference)
            if !(difference <= 1e-5 * abs(reference[i]) + 1e-7 * peak) { failures += 1 }
        }
        #expect(failures == 0, "\(failures) of \(reference.count) values differ (largest difference \(worst))")
        func close(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool { abs(a - b) <= tolerance * abs(b) }
        #expect(close(pair.fast.meanLuminance, pair.reference.meanLuminance, 1e-6))
        #expect(close(pair.fast.brightestSurface, pair.reference.brightestSurface, 1e-6))
        #expect(close(pair.fast.exposure, pair.reference.exposure, 1e-6))
    }
}
