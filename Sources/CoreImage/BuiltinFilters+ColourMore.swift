import Foundation
import Imaging

// The non-separable and further blend modes, the colour polynomials and colour map, pattern and noise generators,
// and the row, column and histogram reductions.

extension FilterDefinition {
    // MARK: Non-separable blend modes

    /// The luminosity of ISO 32000-1 (PDF 1.7) §11.3.5.3, `Lum(C) = 0.3 R + 0.59 G + 0.11 B`: the standard's own
    /// weights, which the non-separable blend modes use (not the Rec. 709 luma of the other filters).
    static func pdfLum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    /// The standard's `ClipColor`: a colour brought back within 0…1 by moving it towards its own luminosity.
    static func pdfClipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = pdfLum(c), n = c.min(), x = c.max()
        var out = c
        if n < 0, l > n { out = SIMD3(repeating: l) + (out - l) * (l / (l - n)) }
        if x > 1, x > l { out = SIMD3(repeating: l) + (out - l) * ((1 - l) / (x - l)) }
        return out
    }

    /// The standard's `SetLum`: the colour shifted to luminosity `l`, then clipped.
    static func pdfSetLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> { pdfClipColor(c + (l - pdfLum(c))) }

    /// The standard's `Sat`: the largest component less the smallest.
    static func pdfSat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    /// The standard's `SetSat`: the components stretched so that the largest less the smallest is `s`, the smallest
    /// going to 0 (all three to 0 for a grey).
    static func pdfSetSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let hi = c.max(), lo = c.min()
        guard hi > lo else { return .zero }
        return (c - lo) * (s / (hi - lo))
    }

    /// A non-separable blend function `B(Cb, Cs)` of the unpremultiplied background and source colours.
    typealias ColourBlendFunction = @Sendable (_ background: SIMD3<Float>, _ source: SIMD3<Float>) -> SIMD3<Float>

    static let colourBlendFunctions: [(String, ColourBlendFunction)] = [
        ("CIHueBlendMode", { b, s in pdfSetLum(pdfSetSat(s, pdfSat(b)), pdfLum(b)) }),
        ("CISaturationBlendMode", { b, s in pdfSetLum(pdfSetSat(b, pdfSat(s)), pdfLum(b)) }),
        ("CIColorBlendMode", { b, s in pdfSetLum(s, pdfLum(b)) }),
        ("CILuminosityBlendMode", { b, s in pdfSetLum(b, pdfLum(s)) }),
    ]

    /// The source-over composite of a non-separable blend (§11.3.6), on premultiplied colours, as `blended` does for
    /// the separable ones.
    static func colourBlended(_ source: SIMD4<Float>, over background: SIMD4<Float>, _ blend: ColourBlendFunction)
        -> SIMD4<Float>
    {
        let sa = source.w, ba = background.w
        let cs = SIMD3(source.x, source.y, source.z), cb = SIMD3(background.x, background.y, background.z)
        let s = sa > 0 ? cs / sa : .zero, b = ba > 0 ? cb / ba : .zero
        let c = (1 - ba) * cs + (1 - sa) * cb + sa * ba * blend(b, s)
        return SIMD4(c.x, c.y, c.z, sa + ba - sa * ba)
    }

    // MARK: Polynomials

    /// A vector's first ten components as floats (0 past its end), padded with zeros.
    static func crossCoefficients(_ v: CIVector) -> SIMD16<Float> {
        var k = SIMD16<Float>.zero
        for i in 0..<10 { k[i] = Float(v.value(at: i)) }
        return k
    }

    /// `k0 + k1 x + k2 x² + k3 x³`, by Horner's rule.
    @inline(__always)
    static func cubic(_ k: SIMD4<Float>, _ x: Float) -> Float { k.x + x * (k.y + x * (k.z + x * k.w)) }

    static let identityCubic = CIVector(x: 0, y: 1, z: 0, w: 0)

    /// A ten-component vector with 1 at `index` and 0 elsewhere.
    static func unitCrossVector(_ index: Int) -> CIVector { CIVector((0..<10).map { $0 == index ? 1 : 0 }) }

    // MARK: Patterns

    /// A square wave along one axis with softened edges: +1 within the even bands `[2k w, (2k + 1) w)` from `origin`,
    /// −1 within the odd ones, and a linear ramp of width `ramp` centred on each edge (a step when `ramp` is 0).
    @inline(__always)
    static func band(_ u: Float, origin: Float, width: Float, ramp: Float) -> Float {
        let period = 2 * width
        var phase = (u - origin).truncatingRemainder(dividingBy: period)
        if phase < 0 { phase += period }
        // Signed distance to the nearest edge: positive inside an even band, negative inside an odd one.
        let distance = phase < width ? min(phase, width - phase) : -min(phase - width, period - phase)
        guard ramp > 0 else { return distance >= 0 ? 1 : -1 }
        return min(max(distance / (ramp / 2), -1), 1)
    }

    /// The pattern generators' parameters: Apple's defaults.
    nonisolated(unsafe) static let patternDefaults: [String: Any] = [
        kCIInputCenterKey: CIVector(x: 150, y: 150), "inputColor0": CIColor(red: 1, green: 1, blue: 1),
        "inputColor1": CIColor(red: 0, green: 0, blue: 0), kCIInputWidthKey: 80.0, kCIInputSharpnessKey: 1.0,
    ]

    /// A two-colour pattern over an infinite extent: `mix` gets a pixel centre and gives how much of colour 1 it
    /// takes (0 for all colour 0), the colours mixed premultiplied in the working space as the gradients are.
    static func pattern(_ name: String, _ mix: @escaping @Sendable (FilterInputs) -> @Sendable (SIMD2<Float>) -> Float)
        -> FilterDefinition
    {
        FilterDefinition(name, images: [], defaults: patternDefaults) { p in
            let colours = (p.color("inputColor0"), p.color("inputColor1"))
            let amount = mix(p)
            return CIImage(
                recipe: GeneratorRecipe { context in
                    let c0 = premultiplied(context.working(colours.0)), c1 = premultiplied(context.working(colours.1))
                    return { position in c0 + (c1 - c0) * amount(position) }
                })
        }
    }

    /// The pattern's band width and the width of the ramp across each edge: `(1 − sharpness) · width` (our choice).
    static func bandGeometry(_ p: FilterInputs) -> (width: Float, ramp: Float) {
        let width = max(p.float(kCIInputWidthKey), 1e-3)
        return (width, (1 - min(max(p.float(kCIInputSharpnessKey), 0), 1)) * width)
    }

    // MARK: Reductions

    nonisolated(unsafe) static let reductionDefaults: [String: Any] = [
        kCIInputExtentKey: CIVector(x: 0, y: 0, z: 640, w: 80)
    ]

    /// A reduction of the rectangle under `inputExtent`: `make` gets the rectangle's whole-pixel cover and the part
    /// of it within the input, and gives where the output lies and how it is computed.
    static func planeReduction(
        _ name: String, defaults: [String: Any] = reductionDefaults,
        _ make: @escaping (FilterInputs, Region, Region) -> (Region, PlaneReductionRecipe.Reduce)?
    ) -> FilterDefinition {
        FilterDefinition(name, defaults: defaults) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let rect = p.vector(kCIInputExtentKey).cgRectValue
            guard let cover = Region(covering: rect), !cover.isEmpty else { return .empty() }
            let area = PlaneReductionRecipe.readArea(rect, within: image.extent)
            guard let (output, reduce) = make(p, cover, area) else { return .empty() }
            return CIImage(
                recipe: PlaneReductionRecipe(input: image.recipe, area: area, output: output, reduce: reduce))
        }
    }

    /// Each component's minimum and maximum over the pixels (zero for none).
    static func extremes(_ pixels: Pixels) -> (SIMD4<Float>, SIMD4<Float>) {
        guard pixels.width > 0, pixels.height > 0 else { return (.zero, .zero) }
        var lo = pixels.base[0], hi = pixels.base[0]
        for j in 0..<pixels.height {
            let row = pixels.row(j)
            for i in 0..<pixels.width {
                lo = pointwiseMin(lo, row[i])
                hi = pointwiseMax(hi, row[i])
            }
        }
        return (lo, hi)
    }

    // MARK: Definitions

    static let colourMore: [FilterDefinition] =
        colourBlendFunctions.map { name, blend in
            composite(name) { source, background in colourBlended(source, over: background, blend) }
        } + [
            // Apple's words: the source subtracted from the background (a black source leaves the background), and
            // pin light, which keeps the darker of the background and twice the source where the source is dark and
            // the lighter of the background and twice the source less one where it is light (the W3C's and Adobe's
            // formula). Composited as the separable modes are, without clamping (as `CILinearBurnBlendMode`).
            composite("CISubtractBlendMode") { source, background in
                blended(source, over: background) { b, s in b - s }
            },
            composite("CIPinLightBlendMode") { source, background in
                blended(source, over: background) { b, s in s <= 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1) }
            },
            // Apple's documented polynomials, on unpremultiplied colour: each component (alpha too)
            // k0 + k1 x + k2 x² + k3 x³ of itself.
            point(
                "CIColorPolynomial",
                defaults: [
                    "inputRedCoefficients": identityCubic, "inputGreenCoefficients": identityCubic,
                    "inputBlueCoefficients": identityCubic, "inputAlphaCoefficients": identityCubic,
                ]
            ) { p in
                let r = p.vector("inputRedCoefficients").simd4, g = p.vector("inputGreenCoefficients").simd4
                let b = p.vector("inputBlueCoefficients").simd4, a = p.vector("inputAlphaCoefficients").simd4
                return .map { v in SIMD4(cubic(r, v.x), cubic(g, v.y), cubic(b, v.z), cubic(a, v.w)) }
            },
            // Each of red, green and blue the dot product of its ten coefficients with
            // (R, G, B, R², G², B², RG, GB, BR, 1), as Apple documents; alpha is kept.
            point(
                "CIColorCrossPolynomial",
                defaults: [
                    "inputRedCoefficients": unitCrossVector(0), "inputGreenCoefficients": unitCrossVector(1),
                    "inputBlueCoefficients": unitCrossVector(2),
                ]
            ) { p in
                let k = ["inputRedCoefficients", "inputGreenCoefficients", "inputBlueCoefficients"].map {
                    crossCoefficients(p.vector($0))
                }
                let (kr, kg, kb) = (k[0], k[1], k[2])
                return .map { v in
                    let terms = SIMD16<Float>(
                        v.x, v.y, v.z, v.x * v.x, v.y * v.y, v.z * v.z, v.x * v.y, v.y * v.z, v.z * v.x, 1,
                        0, 0, 0, 0, 0, 0)
                    return SIMD4((kr * terms).sum(), (kg * terms).sum(), (kb * terms).sum(), v.w)
                }
            },
            // The gradient image's middle row looked up by the pixel's luma (Rec. 709, as the other filters): luma 0
            // gives its leftmost pixel, 1 its rightmost, interpolated between; the result's alpha is the gradient's
            // times the pixel's (our choice; Apple describes a lookup in a table only). No image without a gradient
            // of finite extent.
            FilterDefinition("CIColorMap", images: [kCIInputImageKey, "inputGradientImage"]) { p in
                guard let image = p.image(kCIInputImageKey), let gradient = p.image("inputGradientImage"),
                    let recipe = ColourMapRecipe(input: image.recipe, gradient: gradient.recipe)
                else { return nil }
                return CIImage(recipe: recipe)
            },
            // Four independent values uniform in [0, 1) at each pixel, red, green, blue and alpha, as Apple
            // documents; the same at the same pixel every time (a hash of the position: our choice), taken as
            // working-space values as they are (premultiplied, so colour may exceed alpha, as Apple's).
            FilterDefinition("CIRandomGenerator", images: []) { _ in
                CIImage(
                    recipe: GeneratorRecipe { _ in
                        { position in
                            PixelNoise.values(Int(position.x.rounded(.down)), Int(position.y.rounded(.down)))
                        }
                    })
            },
            // Squares `width` wide on a grid through the centre, colour 0 in the square above and to the right of
            // the centre and alternating from there; edges sharp at sharpness 1, ramps of (1 − sharpness) · width
            // across them below it (our choice of ramp).
            pattern("CICheckerboardGenerator") { p in
                let centre = point2(p.vector(kCIInputCenterKey)), (width, ramp) = bandGeometry(p)
                return { position in
                    let u = band(position.x, origin: centre.x, width: width, ramp: ramp)
                    let v = band(position.y, origin: centre.y, width: width, ramp: ramp)
                    return (1 - u * v) / 2
                }
            },
            // Vertical stripes `width` wide, colour 0 in the stripe to the right of the centre and alternating from
            // there, with the checkerboard's edges.
            pattern("CIStripesGenerator") { p in
                let centre = point2(p.vector(kCIInputCenterKey)), (width, ramp) = bandGeometry(p)
                return { position in (1 - band(position.x, origin: centre.x, width: width, ramp: ramp)) / 2 }
            },
            // One pixel a row: the mean of the row's premultiplied pixels within the image, in a one-pixel-wide
            // column at the rectangle's left edge, each row's mean on its own row (Apple: "the average color for
            // each row"; clear for a row with no pixels of the image).
            planeReduction("CIRowAverage") { _, cover, area in
                let output = Region(x: cover.x, y: cover.y, width: 1, height: cover.height)
                return (
                    output,
                    { pixels in
                        (0..<output.height).map { j in
                            // Output plane row j is row `output.maxY − 1 − j`; the area's plane starts at its top.
                            let y = output.maxY - 1 - j, k = area.maxY - 1 - y
                            guard k >= 0, k < pixels.height, pixels.width > 0 else { return .zero }
                            var sum = SIMD4<Double>.zero
                            let row = pixels.row(k)
                            for i in 0..<pixels.width { sum += SIMD4<Double>(row[i]) }
                            return SIMD4<Float>(sum / Double(pixels.width))
                        }
                    }
                )
            },
            // One pixel a column: the mean of the column's premultiplied pixels within the image, in a one-pixel-high
            // row at the rectangle's bottom edge (Apple's documented layout).
            planeReduction("CIColumnAverage") { _, cover, area in
                let output = Region(x: cover.x, y: cover.y, width: cover.width, height: 1)
                return (
                    output,
                    { pixels in
                        var sums = [SIMD4<Double>](repeating: .zero, count: output.width)
                        for j in 0..<pixels.height {
                            let row = pixels.row(j)
                            for i in 0..<pixels.width { sums[area.x - output.x + i] += SIMD4<Double>(row[i]) }
                        }
                        return (0..<output.width).map { i in
                            let x = output.x + i
                            guard x >= area.x, x < area.maxX, pixels.height > 0 else { return .zero }
                            return SIMD4<Float>(sums[i] / Double(pixels.height))
                        }
                    }
                )
            },
            // A 2 × 1 image at the rectangle's origin: each component's minimum on the left, maximum on the right
            // (documented), of the premultiplied pixels, as `CIAreaMinimum` and `CIAreaMaximum`.
            planeReduction("CIAreaMinMax") { _, cover, _ in
                (
                    Region(x: cover.x, y: cover.y, width: 2, height: 1),
                    { pixels in
                        let (lo, hi) = extremes(pixels)
                        return [lo, hi]
                    }
                )
            },
            // A 1 × 1 image at the rectangle's origin: the least red in red, the greatest in green (documented); blue
            // 0 and alpha 1 (our choice).
            planeReduction("CIAreaMinMaxRed") { _, cover, _ in
                (
                    Region(x: cover.x, y: cover.y, width: 1, height: 1),
                    { pixels in
                        let (lo, hi) = extremes(pixels)
                        return [SIMD4(lo.x, hi.x, 0, 1)]
                    }
                )
            },
            // A `count` × 1 image at the origin: for each of red, green, blue and alpha, the share of the pixels
            // whose (premultiplied) value falls in each of `count` equal bins over 0…1, times `scale`, so that the
            // bins add up to `scale` (documented). Values below 0 count in the first bin, 1 and above in the last (our
            // choice); `count` is held within 1…2048.
            planeReduction(
                "CIAreaHistogram",
                defaults: reductionDefaults.merging([kCIInputScaleKey: 1.0, "inputCount": 64]) { a, _ in a }
            ) { p, _, _ in
                let count = Int(min(max(p.number("inputCount"), 1), 2048))
                let scale = p.float(kCIInputScaleKey)
                return (
                    Region(x: 0, y: 0, width: count, height: 1),
                    { pixels in
                        var bins = [SIMD4<Int>](repeating: .zero, count: count)
                        let n = Float(count)
                        for j in 0..<pixels.height {
                            let row = pixels.row(j)
                            for i in 0..<pixels.width {
                                let v = row[i]
                                for c in 0..<4 {
                                    let x = v[c].isNaN ? 0 : v[c]
                                    let index = Int(min(max((x * n).rounded(.down), 0), n - 1))
                                    bins[index][c] += 1
                                }
                            }
                        }
                        let total = Float(max(1, pixels.width * pixels.height))
                        return bins.map { SIMD4<Float>($0) * (scale / total) }
                    }
                )
            },
        ]
}
