import Foundation

// The blend modes and compositing operations: the input image is the source, laid over the background image.
// The separable blend modes follow the formulas of ISO 32000-1 (PDF 1.7) §11.3.5, which the W3C's Compositing and
// Blending Level 1 repeats, composited source-over as §11.3.6 gives:
//   co = (1 − αb) · cs + (1 − αs) · cb + αs · αb · B(Cb, Cs),   αo = αs + αb − αs · αb,
// with cs, cb premultiplied and Cs, Cb the same colours unpremultiplied.

extension FilterDefinition {
    /// A separable blend function `B(Cb, Cs)` of one unpremultiplied background and source component.
    typealias BlendFunction = @Sendable (_ background: Float, _ source: Float) -> Float

    static func screen(_ b: Float, _ s: Float) -> Float { b + s - b * s }

    static func hardLight(_ b: Float, _ s: Float) -> Float { s <= 0.5 ? b * 2 * s : screen(b, 2 * s - 1) }

    static func softLight(_ b: Float, _ s: Float) -> Float {
        if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : sqrtf(b)
        return b + (2 * s - 1) * (d - b)
    }

    static let blendFunctions: [(String, BlendFunction)] = [
        ("CIMultiplyBlendMode", { b, s in b * s }),
        ("CIScreenBlendMode", screen),
        ("CIOverlayBlendMode", { b, s in hardLight(s, b) }),
        ("CIDarkenBlendMode", { b, s in min(b, s) }),
        ("CILightenBlendMode", { b, s in max(b, s) }),
        ("CIColorDodgeBlendMode", { b, s in b <= 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) }),
        ("CIColorBurnBlendMode", { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) }),
        ("CIHardLightBlendMode", hardLight),
        ("CISoftLightBlendMode", softLight),
        ("CIDifferenceBlendMode", { b, s in abs(b - s) }),
        ("CIExclusionBlendMode", { b, s in b + s - 2 * b * s }),
        // Apple's own additions, by their documented descriptions: the background plus the source, plus the
        // source less one, and divided by the source (a black source giving white).
        ("CILinearDodgeBlendMode", { b, s in b + s }),
        ("CILinearBurnBlendMode", { b, s in b + s - 1 }),
        ("CIDivideBlendMode", { b, s in s <= 0 ? 1 : b / s }),
    ]

    /// The source-over composite of a separable blend, on premultiplied colours.
    static func blended(_ source: SIMD4<Float>, over background: SIMD4<Float>, _ blend: BlendFunction) -> SIMD4<Float> {
        let sa = source.w, ba = background.w
        let s = sa > 0 ? source / sa : .zero, b = ba > 0 ? background / ba : .zero
        func component(_ i: Int) -> Float {
            (1 - ba) * source[i] + (1 - sa) * background[i] + sa * ba * blend(b[i], s[i])
        }
        return SIMD4(component(0), component(1), component(2), sa + ba - sa * ba)
    }

    static func composite(_ name: String, _ f: @escaping @Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>)
        -> FilterDefinition
    {
        FilterDefinition(name, images: [kCIInputImageKey, kCIInputBackgroundImageKey]) { p in
            guard let image = p.image(kCIInputImageKey), let background = p.image(kCIInputBackgroundImageKey) else {
                return nil
            }
            return CIImage(
                recipe: CombineRecipe(
                    inputs: [image.recipe, background.recipe], kind: .function(f),
                    extent: image.extent.union(background.extent)))
        }
    }

    static let blendModes: [FilterDefinition] =
        blendFunctions.map { name, blend in
            composite(name) { source, background in blended(source, over: background, blend) }
        } + [
            // Porter and Duff's operators and Apple's arithmetic composites, on premultiplied colour and alpha alike.
            composite("CIAdditionCompositing") { s, b in s + b },
            composite("CIMultiplyCompositing") { s, b in s * b },
            composite("CIMinimumCompositing") { s, b in pointwiseMin(s, b) },
            composite("CIMaximumCompositing") { s, b in pointwiseMax(s, b) },
            composite("CISourceInCompositing") { s, b in s * b.w },
            composite("CISourceOutCompositing") { s, b in s * (1 - b.w) },
            composite("CISourceAtopCompositing") { s, b in s * b.w + b * (1 - s.w) },
        ]
}
