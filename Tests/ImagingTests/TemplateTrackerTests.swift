import Foundation
import Imaging
import Testing

/// The correlation tracker against closed forms: a texture moved by a known amount is found where it went, and the
/// one-pass score is the plain normalised cross-correlation of the resampled patch with the template.
@Suite struct TemplateTrackerTests {
    /// A smooth random texture: a sum of sinusoids of fixed random frequencies and phases, so that it can be
    /// sampled at any point and moved by fractions of a pixel exactly.
    struct Texture {
        let waves: [(fx: Double, fy: Double, phase: Double, amplitude: Double)]

        init(seed: UInt64) {
            var state = seed
            func next() -> Double {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Double(state >> 11) / Double(1 << 53)
            }
            waves = (0..<12).map { _ in
                (
                    fx: (next() - 0.5) * 0.5, fy: (next() - 0.5) * 0.5, phase: next() * 2 * .pi,
                    amplitude: 0.05 + 0.05 * next()
                )
            }
        }

        func value(_ x: Double, _ y: Double) -> Float {
            Float(0.5 + waves.reduce(0) { $0 + $1.amplitude * sin($1.fx * x + $1.fy * y + $1.phase) })
        }

        /// The texture moved by `shift`, sampled at pixel centres.
        func plane(width: Int, height: Int, shift: SIMD2<Double>) -> PixelPlane<Float> {
            PixelPlane(width: width, height: height) { x, y, _ in
                value(Double(x) + 0.5 - shift.x, Double(y) + 0.5 - shift.y)
            }
        }
    }

    @Test(arguments: [SIMD2(3.5, -2.25), SIMD2(-7.0, 4.75), SIMD2(0.0, 0.0)])
    func aMovedTextureIsFoundWhereItWent(shift: SIMD2<Double>) throws {
        let texture = Texture(seed: 7)
        let start = TemplateTracker.Region(x: 100, y: 80, width: 64, height: 48)
        var tracker = try #require(
            TemplateTracker(luma: texture.plane(width: 320, height: 240, shift: .zero), region: start))
        let (found, score) = tracker.track(texture.plane(width: 320, height: 240, shift: shift), scales: [1])
        // The search steps a quarter of a template pixel: 64 / 32 / 4 = 0.5 pixels here.
        #expect(abs(found.x - start.x - shift.x) <= 0.25 + 1e-9 && abs(found.y - start.y - shift.y) <= 0.25 + 1e-9)
        #expect(found.width == start.width && found.height == start.height)
        #expect(score > 0.99)
    }

    // The fast score against the reference: the dot product of the resampled, normalised patch and the template.
    @Test func theScoreIsThePlainCorrelation() throws {
        let texture = Texture(seed: 3)
        let frame = texture.plane(width: 320, height: 240, shift: .zero)
        let start = TemplateTracker.Region(x: 60, y: 50, width: 150, height: 90)
        let tracker = try #require(TemplateTracker(luma: frame, region: start))
        let moved = texture.plane(width: 320, height: 240, shift: SIMD2(11.3, -6.1))
        let view = TemplateTracker.reduced(moved, for: start, templateWidth: tracker.templateWidth)
        #expect(view.1 == 2, "the region is over twice the template's width, so the frame is halved")
        for (dx, dy, s) in [(0.0, 0.0, 1.0), (11.3, -6.1, 1.0), (5.0, 3.0, 1.05), (-20.0, 9.5, 0.95)] {
            let candidate = TemplateTracker.Region(
                x: start.x + dx, y: start.y + dy, width: start.width * s, height: start.height * s)
            let patch = try #require(
                TemplateTracker.normalisedPatch(
                    view, candidate, width: tracker.templateWidth, height: tracker.templateHeight))
            let reference = zip(patch, tracker.template).reduce(Float(0)) { $0 + $1.0 * $1.1 }
            let fast = try #require(tracker.score(view, candidate))
            #expect(abs(fast - reference) < 2e-4, "\(candidate): \(fast) vs \(reference)")
        }
    }

    @Test func aFlatRegionCannotBeTracked() {
        let flat = PixelPlane<Float>(width: 64, height: 64, repeating: 0.5)
        #expect(TemplateTracker(luma: flat, region: TemplateTracker.Region(x: 8, y: 8, width: 32, height: 32)) == nil)
        #expect(TemplateTracker(luma: flat, region: TemplateTracker.Region(x: 80, y: 8, width: 32, height: 32)) == nil)
    }
}
