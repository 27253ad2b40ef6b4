import CoreImage
import Foundation
import Testing

/// The blend modes against the separable blend functions of ISO 32000-1 §11.3.5 (PDF 1.7), written out here from the
/// standard, composited as its §11.3.6 gives; and Apple's arithmetic and Porter–Duff composites.
@Suite struct BlendModeTests {
    /// Source (input) and background colours, opaque, unpremultiplied; one pair per pixel.
    static let sources: [SIMD4<Float>] = [SIMD4(0.2, 0.7, 0.45, 1), SIMD4(0.9, 0.1, 0.6, 1), SIMD4(0.5, 0.3, 0.05, 1)]
    static let backgrounds: [SIMD4<Float>] = [
        SIMD4(0.6, 0.2, 0.15, 1), SIMD4(0.3, 0.8, 0.6, 1), SIMD4(0.1, 0.95, 0.5, 1),
    ]

    static func blend(_ name: String, source: [SIMD4<Float>], background: [SIMD4<Float>]) throws -> [SIMD4<Float>] {
        let f = try #require(CIFilter(name: name))
        f.setValue(Fixture.image(source.count, 1) { x, _ in source[x] }, forKey: kCIInputImageKey)
        f.setValue(Fixture.image(background.count, 1) { x, _ in background[x] }, forKey: kCIInputBackgroundImageKey)
        return Fixture.pixels(try #require(f.outputImage), CGRect(x: 0, y: 0, width: source.count, height: 1))[0]
    }

    /// The standard's B(cb, cs) for each mode.
    static let formulas: [(String, @Sendable (Float, Float) -> Float)] = [
        ("CIMultiplyBlendMode", { b, s in b * s }),
        ("CIScreenBlendMode", { b, s in 1 - (1 - b) * (1 - s) }),
        ("CIOverlayBlendMode", { b, s in b <= 0.5 ? 2 * s * b : 1 - 2 * (1 - s) * (1 - b) }),
        ("CIDarkenBlendMode", { b, s in min(b, s) }),
        ("CILightenBlendMode", { b, s in max(b, s) }),
        ("CIColorDodgeBlendMode", { b, s in s < 1 ? min(1, b / (1 - s)) : 1 }),
        ("CIColorBurnBlendMode", { b, s in s > 0 ? 1 - min(1, (1 - b) / s) : 0 }),
        ("CIHardLightBlendMode", { b, s in s <= 0.5 ? 2 * s * b : 1 - 2 * (1 - s) * (1 - b) }),
        (
            "CISoftLightBlendMode",
            { b, s in
                let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
                return s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (d - b)
            }
        ),
        ("CIDifferenceBlendMode", { b, s in abs(b - s) }),
        ("CIExclusionBlendMode", { b, s in b + s - 2 * b * s }),
        ("CILinearDodgeBlendMode", { b, s in b + s }),
        ("CILinearBurnBlendMode", { b, s in b + s - 1 }),
        ("CIDivideBlendMode", { b, s in b / s }),
    ]

    @Test(arguments: 0..<14) func separableBlendOfOpaqueColoursIsTheStandardsFunction(_ index: Int) throws {
        let (name, formula) = Self.formulas[index]
        let out = try Self.blend(name, source: Self.sources, background: Self.backgrounds)
        for (k, o) in out.enumerated() {
            let s = Self.sources[k], b = Self.backgrounds[k]
            let expected = SIMD4(formula(b.x, s.x), formula(b.y, s.y), formula(b.z, s.z), 1)
            #expect(Fixture.close(o, expected, 3e-3), "\(name): \(o) against \(expected)")
        }
    }

    @Test func aTranslucentSourceIsCompositedByTheStandardsRule() throws {
        // Half-covered source over a three-quarter background; buffers hold premultiplied colour, as Core Image's
        // do, in and out.
        let (sa, ba): (Float, Float) = (0.5, 0.75)
        let s = SIMD4<Float>(0.8, 0.2, 0.4, 1), b = SIMD4<Float>(0.3, 0.6, 0.9, 1)
        let out = try Self.blend(
            "CIMultiplyBlendMode", source: [SIMD4(s.x * sa, s.y * sa, s.z * sa, sa)],
            background: [SIMD4(b.x * ba, b.y * ba, b.z * ba, ba)])
        func c(_ i: Int) -> Float { (1 - ba) * s[i] * sa + (1 - sa) * b[i] * ba + sa * ba * (b[i] * s[i]) }
        let expected = SIMD4(c(0), c(1), c(2), sa + ba - sa * ba)
        #expect(Fixture.close(out[0], expected), "\(out[0]) against \(expected)")
    }

    @Test func arithmeticAndPorterDuffComposites() throws {
        // Premultiplied colours, as the operators are defined on.
        let s = SIMD4<Float>(0.2, 0.3, 0.1, 0.5), b = SIMD4<Float>(0.4, 0.1, 0.6, 0.8)
        let cases: [(String, SIMD4<Float>)] = [
            ("CIAdditionCompositing", s + b), ("CIMultiplyCompositing", s * b),
            ("CIMinimumCompositing", SIMD4(0.2, 0.1, 0.1, 0.5)), ("CIMaximumCompositing", SIMD4(0.4, 0.3, 0.6, 0.8)),
            ("CISourceInCompositing", s * b.w), ("CISourceOutCompositing", s * (1 - b.w)),
            ("CISourceAtopCompositing", s * b.w + b * (1 - s.w)),
        ]
        for (name, expected) in cases {
            let out = try Self.blend(name, source: [s], background: [b])
            #expect(Fixture.close(out[0], expected), "\(name): \(out[0]) against \(expected)")
        }
        let typed = CIFilter.multiplyBlendMode()
        typed.inputImage = Fixture.image(1, 1) { _, _ in s }
        #expect(typed.outputImage == nil, "no background, no output")
    }
}
