import Foundation
import Imaging
import Scenes

// Filters that depend on where a pixel is or what is around it (vignettes, sharpening, pixellation), the gradient
// generators, the area reductions, and the blend modes.

extension FilterDefinition {
    static func point2(_ v: CIVector) -> SIMD2<Float> { SIMD2(Float(v.x), Float(v.y)) }

    /// Hermite smoothstep from `edge0` to `edge1`; a step at `edge1` when they meet.
    @inline(__always)
    static func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
        guard edge1 > edge0 else { return x < edge1 ? 0 : 1 }
        let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
        return t * t * (3 - 2 * t)
    }

    /// The input blurred with its edges repeated outwards (so the blur does not darken them), over the input's
    /// extent: what sharpening subtracts.
    static func blurredWithinExtent(_ image: CIImage, sigma: Float) -> Recipe {
        let kernel = ConvolutionRecipe.gaussian(sigma: max(0, sigma))
        guard !image.extent.isInfinite, let clamped = ClampRecipe(input: image.recipe) else {
            return ConvolutionRecipe(input: image.recipe, kernel: kernel)
        }
        return CropRecipe(input: ConvolutionRecipe(input: clamped, kernel: kernel), rect: image.extent)
    }

    /// A filter that combines each pixel with the input blurred by a Gaussian of σ `inputRadius`, over the input's
    /// extent; `rule` gets the premultiplied pixel, its blurred value and the amount under `amountKey`.
    static func sharpening(
        _ name: String, amountKey: String, defaults: [String: Any],
        _ rule: @escaping @Sendable (SIMD4<Float>, SIMD4<Float>, Float) -> SIMD4<Float>
    ) -> FilterDefinition {
        FilterDefinition(name, defaults: defaults) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let amount = p.float(amountKey)
            let blurred = blurredWithinExtent(image, sigma: p.float(kCIInputRadiusKey))
            return CIImage(
                recipe: CombineRecipe(
                    inputs: [image.recipe, blurred], kind: .function { rule($0, $1, amount) }, extent: image.extent))
        }
    }

    static let stylize: [FilterDefinition] = [
        // Natural vignetting: the cos⁴ fall-off of a lens whose field reaches the angle `atan(1 / radius)` at the
        // extent's corners, mixed in by the intensity (negative intensities brighten the edges).
        FilterDefinition("CIVignette", defaults: [kCIInputIntensityKey: 0.0, kCIInputRadiusKey: 1.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let e = image.extent
            guard !e.isInfinite, !e.isEmpty else { return image }
            let centre = SIMD2(Float(e.midX), Float(e.midY))
            let halfDiagonal = Float(hypot(e.width, e.height) / 2)
            let intensity = p.float(kCIInputIntensityKey), radius = max(p.float(kCIInputRadiusKey), 1e-3)
            return CIImage(
                recipe: PositionalRecipe(input: image.recipe) { position, v in
                    let d = position - centre
                    let tangent = sqrtf((d * d).sum()) / halfDiagonal / radius
                    let cosSquared = 1 / (1 + tangent * tangent)
                    let gain = 1 - intensity * (1 - cosSquared * cosSquared)
                    return SIMD4(v.x * gain, v.y * gain, v.z * gain, v.w)
                })
        },
        // Darkening that starts at radius · (1 − falloff) from the centre and is whole at the radius.
        FilterDefinition(
            "CIVignetteEffect",
            defaults: [
                kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputRadiusKey: 150.0, kCIInputIntensityKey: 1.0,
                "inputFalloff": 0.5,
            ]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let centre = point2(p.vector(kCIInputCenterKey)), radius = p.float(kCIInputRadiusKey)
            let intensity = p.float(kCIInputIntensityKey), falloff = min(max(p.float("inputFalloff"), 0), 1)
            return CIImage(
                recipe: PositionalRecipe(input: image.recipe) { position, v in
                    let d = position - centre
                    let gain = 1 - intensity * smoothstep(radius * (1 - falloff), radius, sqrtf((d * d).sum()))
                    return SIMD4(v.x * gain, v.y * gain, v.z * gain, v.w)
                })
        },
        // The classic unsharp mask: the difference from a Gaussian blur (σ = radius) added back, times the
        // intensity.
        sharpening(
            "CIUnsharpMask", amountKey: kCIInputIntensityKey,
            defaults: [kCIInputRadiusKey: 2.5, kCIInputIntensityKey: 0.5]
        ) {
            v, blurred, intensity in v + (v - blurred) * intensity
        },
        // The unsharp mask on luma alone, added equally to red, green and blue so that chroma is left as it was.
        sharpening(
            "CISharpenLuminance", amountKey: kCIInputSharpnessKey,
            defaults: [kCIInputSharpnessKey: 0.4, kCIInputRadiusKey: 1.69]
        ) {
            v, blurred, sharpness in
            let detail = sharpness * (luma(v) - luma(blurred))
            return v + SIMD4(detail, detail, detail, 0)
        },
        FilterDefinition("CIPixellate", defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputScaleKey: 8.0])
        { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let centre = p.vector(kCIInputCenterKey)
            return CIImage(
                recipe: PixellateRecipe(
                    input: image.recipe, centre: SIMD2(Double(centre.x), Double(centre.y)),
                    scale: Int(max(1, p.number(kCIInputScaleKey)).rounded())))
        },
    ]

    // MARK: Generators

    static let generators: [FilterDefinition] = [
        qrCodeGenerator, aztecCodeGenerator, code128BarcodeGenerator, pdf417BarcodeGenerator,
        // Colour 0 at point 0 to colour 1 at point 1, mixed linearly along the line between them (premultiplied,
        // in the working space) and constant beyond each end.
        FilterDefinition(
            "CILinearGradient", images: [],
            defaults: [
                "inputPoint0": CIVector(x: 0, y: 0), "inputPoint1": CIVector(x: 200, y: 200),
                "inputColor0": CIColor(red: 1, green: 1, blue: 1), "inputColor1": CIColor(red: 0, green: 0, blue: 0),
            ]
        ) { p in
            let a = point2(p.vector("inputPoint0")), b = point2(p.vector("inputPoint1"))
            let colours = (p.color("inputColor0"), p.color("inputColor1"))
            let axis = b - a, length2 = max((axis * axis).sum(), 1e-12)
            return CIImage(
                recipe: GeneratorRecipe { context in
                    let c0 = premultiplied(context.working(colours.0)), c1 = premultiplied(context.working(colours.1))
                    return { position in c0 + (c1 - c0) * min(max(((position - a) * axis).sum() / length2, 0), 1) }
                })
        },
        // Colour 0 within radius 0 of the centre to colour 1 beyond radius 1, mixed linearly between.
        FilterDefinition(
            "CIRadialGradient", images: [],
            defaults: [
                kCIInputCenterKey: CIVector(x: 150, y: 150), "inputRadius0": 5.0, "inputRadius1": 100.0,
                "inputColor0": CIColor(red: 1, green: 1, blue: 1), "inputColor1": CIColor(red: 0, green: 0, blue: 0),
            ]
        ) { p in
            let centre = point2(p.vector(kCIInputCenterKey)), r0 = p.float("inputRadius0"), r1 = p.float("inputRadius1")
            let colours = (p.color("inputColor0"), p.color("inputColor1"))
            return CIImage(
                recipe: GeneratorRecipe { context in
                    let c0 = premultiplied(context.working(colours.0)), c1 = premultiplied(context.working(colours.1))
                    return { position in
                        let d = position - centre, r = sqrtf((d * d).sum())
                        let t = r1 == r0 ? (r < r0 ? 0 : 1) : min(max((r - r0) / (r1 - r0), 0), 1)
                        return c0 + (c1 - c0) * t
                    }
                })
        },
    ]

    /// The error correction levels of `CIQRCodeGenerator`, in zxing-cpp's order (0 L, 1 M, 2 Q, 3 H).
    static let qrCorrectionLevels = ["L", "M", "Q", "H"]

    /// A QR code of the message's bytes: one pixel a module, black on white and opaque, with a quiet zone of one
    /// module, its bottom-left corner at the origin. Nil without a message, with an unknown correction level, for a
    /// message too long for the level, or where zxing-cpp (which draws it) is missing.
    static let qrCodeGenerator = FilterDefinition(
        "CIQRCodeGenerator", images: [], defaults: ["inputCorrectionLevel": "M"]
    ) { p in
        guard let message = p.values["inputMessage"] as? Data,
            let level = qrCorrectionLevels.firstIndex(of: (p.values["inputCorrectionLevel"] as? String) ?? "M"),
            let symbol = try? CodeSymbol.qrCode(bytes: [UInt8](message), level: level, quietZone: 1)
        else { return nil }
        return moduleImage(symbol)
    }

    // MARK: Reductions

    static func reduction(_ name: String, _ kind: AreaReduction.Kind) -> FilterDefinition {
        FilterDefinition(name, defaults: [kCIInputExtentKey: CIVector(x: 0, y: 0, z: 640, w: 80)]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            return CIImage(
                recipe: AreaReduction.recipe(
                    input: image.recipe, rect: p.vector(kCIInputExtentKey).cgRectValue, kind: kind))
        }
    }

    static let reductions = [
        reduction("CIAreaAverage", .average), reduction("CIAreaMaximum", .maximum), reduction("CIAreaMinimum", .minimum),
    ]
}
