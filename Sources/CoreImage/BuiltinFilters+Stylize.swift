import Foundation
import Imaging

// The stylizing filters: bloom and gloom, highlight and shadow adjustment, cell pixellations and halftone screens.
// Apple describes these in words only; every formula below is our choice, and the Core Image filters article says so.

extension FilterDefinition {
    /// An unpremultiplied colour of a premultiplied one (clear stays clear).
    @inline(__always)
    static func straightColour(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let s: Float = v.w > 0 ? 1 / v.w : 0
        return SIMD4(v.x * s, v.y * s, v.z * s, v.w)
    }

    /// A filter that combines each pixel with the input blurred by a Gaussian of σ `inputRadius` (edges repeated, so a
    /// uniform image blurs to itself), over the input's extent; `rule` gets both unpremultiplied, and the other
    /// parameters, and gives the unpremultiplied output.
    static func withBlur(
        _ name: String, defaults: [String: Any],
        _ rule: @escaping (FilterInputs) -> @Sendable (SIMD4<Float>, SIMD4<Float>) -> SIMD4<Float>
    ) -> FilterDefinition {
        FilterDefinition(name, defaults: defaults) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let f = rule(p)
            let blurred = blurredWithinExtent(image, sigma: p.float(kCIInputRadiusKey))
            return CIImage(
                recipe: CombineRecipe(
                    inputs: [image.recipe, blurred],
                    kind: .function { v, b in premultiplied(f(straightColour(v), straightColour(b))) },
                    extent: image.extent))
        }
    }

    // MARK: Halftone screens

    /// The white left where a screen's ink covers the part of a period whose threshold value `t` (spread evenly over
    /// 0…1 across a period) lies below `coverage`: a step, softened by `softness` on each side but never past 0 or 1,
    /// so that the white averages 1 − coverage over a period and coverages 0 and 1 stay pure.
    @inline(__always)
    static func screenWhite(_ t: Float, coverage: Float, softness: Float) -> Float {
        if coverage <= 0 { return 1 }
        if coverage >= 1 { return 0 }
        let e = min(softness, coverage, 1 - coverage)
        guard e > 1e-6 else { return t >= coverage ? 1 : 0 }
        return min(max((t - coverage) / (2 * e) + 0.5, 0), 1)
    }

    /// The fraction of a unit square covered by a disc of radius `r` about its middle: the dot screen's threshold,
    /// spread evenly over 0…1 across a cell.
    @inline(__always)
    static func discArea(_ r: Float) -> Float {
        if r <= 0.5 { return Float.pi * r * r }
        if r * r >= 0.5 { return 1 }
        let segment = r * r * acosf(0.5 / r) - 0.5 * sqrtf(r * r - 0.25)
        return Float.pi * r * r - 4 * segment
    }

    /// The softness of a screen's edges, in threshold units: half of 1 − sharpness.
    static func screenSoftness(_ p: FilterInputs) -> Float { 0.5 * (1 - min(max(p.float(kCIInputSharpnessKey), 0), 1)) }

    /// A point's coordinates in periods of a screen through `centre`, turned by `angle`: x along the angle, y across.
    @inline(__always)
    static func screenCoordinates(_ p: SIMD2<Float>, centre: SIMD2<Float>, cosA: Float, sinA: Float, width: Float)
        -> SIMD2<Float>
    {
        let d = p - centre
        return SIMD2(d.x * cosA + d.y * sinA, -d.x * sinA + d.y * cosA) / width
    }

    @inline(__always)
    static func periodFraction(_ x: Float) -> Float { x - x.rounded(.down) }

    /// The dot screen's white at coordinates in periods: black round dots in the middle of each square cell covering
    /// `coverage` of it.
    @inline(__always)
    static func dotWhite(_ q: SIMD2<Float>, coverage: Float, softness: Float) -> Float {
        let d = SIMD2(periodFraction(q.x), periodFraction(q.y)) - 0.5
        return screenWhite(discArea(sqrtf((d * d).sum())), coverage: coverage, softness: softness)
    }

    /// A monochrome halftone screen of the input's luma: white where the screen leaves paper, black where it inks,
    /// the input's alpha kept. `white` gets the pixel centre's coordinates in periods, the luma's ink coverage
    /// (1 − luma) and the softness.
    static func halftoneScreen(
        _ name: String, angled: Bool,
        white: @escaping @Sendable (SIMD2<Float>, SIMD2<Float>, Float, Float) -> Float
    ) -> FilterDefinition {
        var defaults: [String: Any] = [
            kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputWidthKey: 6.0, kCIInputSharpnessKey: 0.7,
        ]
        if angled { defaults[kCIInputAngleKey] = 0.0 }
        return FilterDefinition(name, defaults: defaults) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let centre = point2(p.vector(kCIInputCenterKey)), width = max(p.float(kCIInputWidthKey), 1e-3)
            let angle = angled ? p.float(kCIInputAngleKey) : 0
            let cosA = cosf(angle), sinA = sinf(angle), softness = screenSoftness(p)
            return CIImage(
                recipe: PositionalRecipe(input: image.recipe) { position, v in
                    let q = screenCoordinates(position, centre: centre, cosA: cosA, sinA: sinA, width: width)
                    let coverage = 1 - min(max(luma(v), 0), 1)
                    let w = white(q, (position - centre) / width, coverage, softness)
                    return SIMD4(w, w, w, v.w)
                })
        }
    }

    /// `CICMYKHalftone`'s documented defaults.
    static var cmykDefaults: [String: Any] {
        [
            kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputWidthKey: 6.0, kCIInputAngleKey: 0.0,
            kCIInputSharpnessKey: 0.7, "inputGCR": 1.0, "inputUCR": 0.5,
        ]
    }

    /// Four dot screens, one an ink, multiplied as inks on white paper. The inks come from the unpremultiplied colour
    /// clamped to 0…1: c, m, y = 1 − r, g, b; black k = GCR · min(c, m, y); then c, m, y less UCR · k. The screens'
    /// angles are the printers' usual ones, added to the angle: cyan 15°, magenta 75°, yellow 0°, black 45°.
    static func cmykHalftone(_ input: Recipe, _ p: FilterInputs) -> Recipe {
        let centre = point2(p.vector(kCIInputCenterKey)), width = max(p.float(kCIInputWidthKey), 1e-3)
        let angle = p.float(kCIInputAngleKey), softness = screenSoftness(p)
        let gcr = p.float("inputGCR"), ucr = p.float("inputUCR")
        let turns = [15, 75, 0, 45].map { degrees in
            let a = angle + Float(degrees) * .pi / 180
            return SIMD2(cosf(a), sinf(a))
        }
        return PositionalRecipe(input: input) { position, v in
            let rgb = pointwiseMin(pointwiseMax(SIMD3(v.x, v.y, v.z), .zero), SIMD3(repeating: 1))
            let cmy = 1 - rgb
            let k = min(max(gcr * cmy.min(), 0), 1)
            let inks = pointwiseMin(pointwiseMax(cmy - ucr * k, .zero), SIMD3(repeating: 1))
            let coverages = SIMD4(inks, k)
            var white = SIMD4<Float>.zero
            for n in 0..<4 {
                let q = screenCoordinates(position, centre: centre, cosA: turns[n].x, sinA: turns[n].y, width: width)
                white[n] = dotWhite(q, coverage: coverages[n], softness: softness)
            }
            return SIMD4(white.x * white.w, white.y * white.w, white.z * white.w, v.w)
        }
    }

    static let stylizeMore: [FilterDefinition] = [
        // Shadows lifted (or deepened) and highlights damped by gains on the colour that depend on the luma m of the
        // input blurred by a Gaussian of σ = radius (the pixel's own luma Y at radius 0), both clamped to 0…1:
        // (1 + shadowAmount · (1 − m)² · (1 − Y)) · (1 − (1 − highlightAmount) · m² / 2). The defaults leave the
        // image as it is.
        withBlur(
            "CIHighlightShadowAdjust",
            defaults: [kCIInputRadiusKey: 0.0, "inputShadowAmount": 0.0, "inputHighlightAmount": 1.0]
        ) { p in
            let shadow = p.float("inputShadowAmount"), highlight = p.float("inputHighlightAmount")
            return { v, b in
                let m = min(max(luma(b), 0), 1), y = min(max(luma(v), 0), 1)
                let gain = (1 + shadow * (1 - m) * (1 - m) * (1 - y)) * (1 - (1 - highlight) * m * m / 2)
                return SIMD4(v.x * gain, v.y * gain, v.z * gain, v.w)
            }
        },
        // A glow: the blur (σ = radius) screened over the image and mixed in by the intensity,
        // v + intensity · blur · (1 − v) per component.
        withBlur("CIBloom", defaults: [kCIInputRadiusKey: 10.0, kCIInputIntensityKey: 0.5]) { p in
            let intensity = p.float(kCIInputIntensityKey)
            return { v, b in
                let rgb = SIMD3(v.x, v.y, v.z), blur = SIMD3(b.x, b.y, b.z)
                let out = rgb + intensity * blur * pointwiseMax(1 - rgb, .zero)
                return SIMD4(out, v.w)
            }
        },
        // The reverse: the image multiplied by the blur and mixed in by the intensity,
        // v − intensity · v · (1 − blur) per component.
        withBlur("CIGloom", defaults: [kCIInputRadiusKey: 10.0, kCIInputIntensityKey: 0.5]) { p in
            let intensity = p.float(kCIInputIntensityKey)
            return { v, b in
                let rgb = SIMD3(v.x, v.y, v.z), blur = SIMD3(b.x, b.y, b.z)
                let out = rgb - intensity * rgb * pointwiseMax(1 - blur, .zero)
                return SIMD4(out, v.w)
            }
        },
        // Hexagons whose centres form the triangular lattice centre + a · (s, 0) + b · (s / 2, s · √3 / 2) (s the
        // scale, the distance between neighbouring centres); each pixel copies the input's pixel under the centre
        // nearest it.
        FilterDefinition(
            "CIHexagonalPixellate", defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputScaleKey: 8.0]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let centre = point2(p.vector(kCIInputCenterKey)), s = max(p.float(kCIInputScaleKey), 1)
            let u = SIMD2<Float>(s, 0), v = SIMD2<Float>(s / 2, s * Float(3).squareRoot() / 2)
            return CIImage(
                recipe: CellRecipe(input: image.recipe, reach: Int(s.rounded(.up)) + 1) { position in
                    let d = position - centre
                    let b = d.y / v.y, a = (d.x - b * v.x) / s
                    let a0 = a.rounded(.down), b0 = b.rounded(.down)
                    var best = centre, bestD2 = Float.infinity
                    for (da, db) in [(Float(0), Float(0)), (1, 0), (0, 1), (1, 1)] {
                        let c = centre + (a0 + da) * u + (b0 + db) * v
                        let d2 = ((position - c) * (position - c)).sum()
                        if d2 < bestD2 {
                            best = c
                            bestD2 = d2
                        }
                    }
                    return best
                })
        },
        // Voronoi cells about the seeds of a jittered square grid of spacing radius through the centre (each seed
        // within a quarter spacing of its grid cell's middle, by a fixed hash); each pixel copies the input's pixel
        // under its nearest seed.
        FilterDefinition(
            "CICrystallize", defaults: [kCIInputRadiusKey: 20.0, kCIInputCenterKey: CIVector(x: 150, y: 150)]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let spacing = max(p.float(kCIInputRadiusKey), 1)
            let seeds = JitteredSeeds(origin: point2(p.vector(kCIInputCenterKey)), spacing: spacing)
            return CIImage(
                recipe: CellRecipe(input: image.recipe, reach: Int((1.1 * spacing).rounded(.up)) + 1) { position in
                    seeds.nearest(position).seed
                })
        },
        // Round dots of the radius about the seeds of a jittered square grid of spacing 1.5 · radius (as
        // `CICrystallize`'s), each the input's colour under its seed, on white paper.
        FilterDefinition(
            "CIPointillize", defaults: [kCIInputRadiusKey: 20.0, kCIInputCenterKey: CIVector(x: 150, y: 150)]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let radius = max(p.float(kCIInputRadiusKey), 1)
            let seeds = JitteredSeeds(origin: point2(p.vector(kCIInputCenterKey)), spacing: 1.5 * radius)
            return CIImage(
                recipe: CellRecipe(
                    input: image.recipe, reach: Int(radius.rounded(.up)) + 1, background: SIMD4(1, 1, 1, 1)
                ) { position in
                    let nearest = seeds.nearest(position)
                    return nearest.distance2 <= radius * radius ? nearest.seed : nil
                })
        },
        // Black round dots, one in the middle of each square cell of the turned grid, covering 1 − luma of it.
        halftoneScreen("CIDotScreen", angled: true) { q, _, coverage, softness in
            dotWhite(q, coverage: coverage, softness: softness)
        },
        // Black lines along the angle, each a band of 1 − luma of the period across it.
        halftoneScreen("CILineScreen", angled: true) { q, _, coverage, softness in
            screenWhite(abs(2 * periodFraction(q.y) - 1), coverage: coverage, softness: softness)
        },
        // Lines along the angle covering min(1 − luma, ½) of the period, crossed at luma under ½ by lines across it
        // covering 1 − 2 · luma, so that the paper left is the luma.
        halftoneScreen("CIHatchedScreen", angled: true) { q, _, coverage, softness in
            let along = screenWhite(abs(2 * periodFraction(q.y) - 1), coverage: min(coverage, 0.5), softness: softness)
            let across = screenWhite(
                abs(2 * periodFraction(q.x) - 1), coverage: max(0, 2 * coverage - 1), softness: softness)
            return along * across
        },
        // Black rings about the centre, each a band of 1 − luma of the period along the radius.
        halftoneScreen("CICircularScreen", angled: false) { _, d, coverage, softness in
            let r = sqrtf((d * d).sum())
            return screenWhite(abs(2 * periodFraction(r) - 1), coverage: coverage, softness: softness)
        },
        FilterDefinition("CICMYKHalftone", defaults: cmykDefaults) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            return CIImage(recipe: cmykHalftone(image.recipe, p))
        },
        // Outlines over a colour halftone: `CICMYKHalftone` at its defaults, its colour times 1 − the edge strength,
        // the Sobel gradient of luma (edges repeated outwards) divided by 4 and mapped by a smoothstep from 0.1 to 0.3.
        FilterDefinition("CIComicEffect") { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let halftone = cmykHalftone(image.recipe, FilterInputs(values: [:], defaults: cmykDefaults))
            guard !image.extent.isInfinite, let clamped = ClampRecipe(input: image.recipe) else { return image }
            // A step from black to white gives a gradient of 4.
            let edges = KernelRecipe(
                input: clamped, taps: [],
                rule: .window { w in
                    let g = sobel(w) { SIMD4(repeating: luma(straightColour($0))) }.x
                    let e = smoothstep(0.1, 0.3, g / 4)
                    return SIMD4(e, e, e, 1)
                }, extent: image.extent, reach: (1, 1))
            return CIImage(
                recipe: CombineRecipe(
                    inputs: [halftone, edges],
                    kind: .function { v, e in SIMD4(v.x * (1 - e.x), v.y * (1 - e.y), v.z * (1 - e.z), v.w) },
                    extent: image.extent))
        },
    ]
}
