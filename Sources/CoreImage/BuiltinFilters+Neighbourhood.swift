import Foundation
import Imaging

// The filters that read a neighbourhood of each pixel: convolutions with given weights, morphology, the median,
// the disc, motion and zoom blurs, edges and noise reduction.

extension FilterDefinition {
    /// The identity kernel of `count` weights: 1 in the middle, 0 elsewhere (Apple's default for the convolutions).
    static func identityWeights(_ count: Int) -> CIVector {
        var values = [CGFloat](repeating: 0, count: count)
        values[count / 2] = 1
        return CIVector(values)
    }

    /// The taps of a convolution's weights, read row by row from the top row down, each row from left to right, the
    /// middle weight on the pixel itself; a vector shorter than the kernel counts as 0 past its end. The weights
    /// multiply the neighbours where they lie (no flip of the kernel): our choice of orientation.
    static func convolutionTaps(_ weights: CIVector, columns: Int, rows: Int) -> [KernelTap] {
        var taps: [KernelTap] = []
        for r in 0..<rows {
            for c in 0..<columns {
                let w = Float(weights.value(at: r * columns + c))
                guard w != 0 else { continue }
                taps.append(KernelTap(dx: c - columns / 2, dy: rows / 2 - r, weight: w))
            }
        }
        return taps.isEmpty ? [KernelTap(dx: 0, dy: 0, weight: 0)] : taps
    }

    /// `CIConvolution…`: the weights summed over the neighbourhood, the bias added, on all four premultiplied
    /// components (documented); or, for the `RGB` variants, on the unpremultiplied colour with alpha left as it was
    /// (documented: alpha untouched; working on unpremultiplied colour is our choice). The input is clear outside its
    /// extent and the output grows by the kernel's reach, as the blurs do.
    static func convolution(_ name: String, columns: Int, rows: Int, rgbOnly: Bool) -> FilterDefinition {
        FilterDefinition(name, defaults: ["inputWeights": identityWeights(columns * rows), "inputBias": 0.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let taps = convolutionTaps(p.vector("inputWeights"), columns: columns, rows: rows)
            let bias = p.float("inputBias")
            let rule: KernelRecipe.Rule = rgbOnly ? .colourSum(bias: bias) : .sum(bias: SIMD4(repeating: bias))
            let extent = rgbOnly ? image.extent : KernelRecipe.grown(image.extent, columns / 2, rows / 2)
            return CIImage(recipe: KernelRecipe(input: image.recipe, taps: taps, rule: rule, extent: extent))
        }
    }

    /// The input with its edge pixels repeated outwards, for filters whose output keeps the input's extent and should
    /// not see a clear border (the median, edges, the morphological gradient, noise reduction).
    static func clampedForNeighbourhood(_ image: CIImage) -> Recipe {
        guard !image.extent.isInfinite, let clamped = ClampRecipe(input: image.recipe) else { return image.recipe }
        return clamped
    }

    /// The odd number of pixels nearest to a documented width or height (at least 1).
    static func oddCount(_ v: Double) -> Int { 2 * Int(((max(1, v) - 1) / 2).rounded()) + 1 }

    /// The taps of a motion blur: `2·⌈radius⌉ + 1` equally weighted samples evenly spaced along the segment from
    /// −radius to +radius in the direction `angle` (radians from the x axis), each shared bilinearly among the four
    /// pixels around it. A box along the line is our choice of profile.
    static func motionTaps(radius: Double, angle: Double) -> [KernelTap] {
        let r = max(0, radius), steps = Int(r.rounded(.up))
        guard steps > 0 else { return [KernelTap(dx: 0, dy: 0, weight: 1)] }
        let count = 2 * steps + 1, share = 1 / Double(count)
        var weights: [SIMD2<Int>: Double] = [:]
        for k in 0..<count {
            let t = -r + 2 * r * Double(k) / Double(count - 1)
            let x = t * cos(angle), y = t * sin(angle)
            let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
            let fx = x - Double(x0), fy = y - Double(y0)
            for (dx, dy, w) in [
                (0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy),
            ]
            where w > 1e-9 {
                weights[SIMD2(x0 + dx, y0 + dy), default: 0] += w * share
            }
        }
        return weights.keys.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.map {
            KernelTap(dx: $0.x, dy: $0.y, weight: Float(weights[$0] ?? 0))
        }
    }

    /// The magnitude of Sobel's two 3 × 3 derivatives of each component of `value` over the window: the gradient
    /// that `CIEdges` shows and `CIComicEffect` outlines.
    @inline(__always)
    static func sobel(_ w: KernelWindow, _ value: (SIMD4<Float>) -> SIMD4<Float>) -> SIMD4<Float> {
        @inline(__always) func v(_ dx: Int, _ dy: Int) -> SIMD4<Float> { value(w.at(dx, dy)) }
        let gx = (v(1, 1) + 2 * v(1, 0) + v(1, -1)) - (v(-1, 1) + 2 * v(-1, 0) + v(-1, -1))
        let gy = (v(-1, 1) + 2 * v(0, 1) + v(1, 1)) - (v(-1, -1) + 2 * v(0, -1) + v(1, -1))
        return (gx * gx + gy * gy).squareRoot()
    }

    /// Sobel's gradient magnitude of each component times `intensity`, with the centre's alpha.
    static func sobelMagnitude(_ w: KernelWindow, intensity: Float) -> SIMD4<Float> {
        let m = sobel(w) { $0 } * intensity
        return SIMD4(m.x, m.y, m.z, w.at(0, 0).w)
    }

    /// Noise reduction over a 5 × 5 window (our choice of method): the mean of the window's pixels whose luma lies
    /// within `noiseLevel` of the centre's (so small variations are smoothed and edges are not crossed); where a
    /// neighbour in the 3 × 3 window differs by more than that (an edge), `sharpness` times the centre's difference
    /// from the 3 × 3 mean is added back.
    static func reduceNoise(_ w: KernelWindow, noiseLevel: Float, sharpness: Float) -> SIMD4<Float> {
        let centre = w.at(0, 0), l = luma(centre)
        var sum = SIMD4<Float>.zero, count: Float = 0
        var box = SIMD4<Float>.zero, edge = false
        for dy in -2...2 {
            for dx in -2...2 {
                let v = w.at(dx, dy)
                let near = abs(luma(v) - l) <= noiseLevel
                if near {
                    sum += v
                    count += 1
                }
                if abs(dx) <= 1 && abs(dy) <= 1 {
                    box += v
                    if !near { edge = true }
                }
            }
        }
        let smooth = sum / count
        return edge ? smooth + (centre - box / 9) * sharpness : smooth
    }

    static let neighbourhood: [FilterDefinition] = [
        convolution("CIConvolution3X3", columns: 3, rows: 3, rgbOnly: false),
        convolution("CIConvolution5X5", columns: 5, rows: 5, rgbOnly: false),
        convolution("CIConvolution7X7", columns: 7, rows: 7, rgbOnly: false),
        convolution("CIConvolution9Horizontal", columns: 9, rows: 1, rgbOnly: false),
        convolution("CIConvolution9Vertical", columns: 1, rows: 9, rgbOnly: false),
        convolution("CIConvolutionRGB3X3", columns: 3, rows: 3, rgbOnly: true),
        convolution("CIConvolutionRGB5X5", columns: 5, rows: 5, rgbOnly: true),
        convolution("CIConvolutionRGB7X7", columns: 7, rows: 7, rgbOnly: true),
        convolution("CIConvolutionRGB9Horizontal", columns: 9, rows: 1, rgbOnly: true),
        convolution("CIConvolutionRGB9Vertical", columns: 1, rows: 9, rgbOnly: true),
        // The largest value of each component over a disc of the radius (dx² + dy² ≤ radius²); the input is clear
        // outside its extent, which grows by the radius.
        FilterDefinition("CIMorphologyMaximum", defaults: [kCIInputRadiusKey: 0.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let taps = KernelRecipe.disc(radius: p.number(kCIInputRadiusKey)), reach = taps.map(\.dx).max() ?? 0
            return CIImage(
                recipe: KernelRecipe(
                    input: image.recipe, taps: taps, rule: .maximum,
                    extent: KernelRecipe.grown(image.extent, reach, reach)))
        },
        // The smallest value of each component over the disc; clear outside the extent, so the edges erode.
        FilterDefinition("CIMorphologyMinimum", defaults: [kCIInputRadiusKey: 0.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            return CIImage(
                recipe: KernelRecipe(
                    input: image.recipe, taps: KernelRecipe.disc(radius: p.number(kCIInputRadiusKey)), rule: .minimum,
                    extent: image.extent))
        },
        rectangleMorphology("CIMorphologyRectangleMaximum", .maximum),
        rectangleMorphology("CIMorphologyRectangleMinimum", .minimum),
        // The disc's maximum minus its minimum (dilation minus erosion) on red, green and blue, with the maximum's
        // alpha; the edge pixels repeat outwards so the image's border is not an edge, and the extent is kept.
        FilterDefinition("CIMorphologyGradient", defaults: [kCIInputRadiusKey: 5.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            return CIImage(
                recipe: KernelRecipe(
                    input: clampedForNeighbourhood(image), taps: KernelRecipe.disc(radius: p.number(kCIInputRadiusKey)),
                    rule: .range, extent: image.extent))
        },
        // The median of each component over the 3 × 3 neighbourhood, edges repeated outwards, extent kept.
        FilterDefinition("CIMedianFilter") { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let taps = (-1...1).flatMap { dy in (-1...1).map { dx in KernelTap(dx: dx, dy: dy, weight: 1) } }
            return CIImage(
                recipe: KernelRecipe(
                    input: clampedForNeighbourhood(image), taps: taps, rule: .median, extent: image.extent))
        },
        // The mean over the disc of the radius; clear outside the extent, which grows by the radius.
        FilterDefinition("CIDiscBlur", defaults: [kCIInputRadiusKey: 8.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let taps = KernelRecipe.disc(radius: p.number(kCIInputRadiusKey)), reach = taps.map(\.dx).max() ?? 0
            return CIImage(
                recipe: KernelRecipe(
                    input: image.recipe, taps: taps, rule: .sum(bias: .zero),
                    extent: KernelRecipe.grown(image.extent, reach, reach)))
        },
        FilterDefinition("CIMotionBlur", defaults: [kCIInputRadiusKey: 20.0, kCIInputAngleKey: 0.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let taps = motionTaps(radius: p.number(kCIInputRadiusKey), angle: p.number(kCIInputAngleKey))
            let rx = taps.map { abs($0.dx) }.max() ?? 0, ry = taps.map { abs($0.dy) }.max() ?? 0
            return CIImage(
                recipe: KernelRecipe(
                    input: image.recipe, taps: taps, rule: .sum(bias: .zero),
                    extent: KernelRecipe.grown(image.extent, rx, ry)))
        },
        FilterDefinition(
            "CIZoomBlur", defaults: [kCIInputCenterKey: CIVector(x: 150, y: 150), kCIInputAmountKey: 20.0]
        ) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let c = p.vector(kCIInputCenterKey)
            return CIImage(
                recipe: ZoomBlurRecipe(
                    input: image.recipe, centre: SIMD2(Double(c.x), Double(c.y)), amount: p.number(kCIInputAmountKey)))
        },
        // Sobel's gradient magnitude of each component times the intensity (our choice of edge detector), edges
        // repeated outwards, extent kept.
        FilterDefinition("CIEdges", defaults: [kCIInputIntensityKey: 1.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let intensity = p.float(kCIInputIntensityKey)
            return CIImage(
                recipe: KernelRecipe(
                    input: clampedForNeighbourhood(image), taps: [],
                    rule: .window { sobelMagnitude($0, intensity: intensity) },
                    extent: image.extent, reach: (1, 1)))
        },
        FilterDefinition("CINoiseReduction", defaults: ["inputNoiseLevel": 0.02, kCIInputSharpnessKey: 0.4]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let level = p.float("inputNoiseLevel"), sharpness = p.float(kCIInputSharpnessKey)
            return CIImage(
                recipe: KernelRecipe(
                    input: clampedForNeighbourhood(image), taps: [],
                    rule: .window { reduceNoise($0, noiseLevel: level, sharpness: sharpness) }, extent: image.extent,
                    reach: (2, 2)))
        },
    ]

    /// `CIMorphologyRectangle…`: the largest (or smallest) value of each component over a rectangle of
    /// `inputWidth` × `inputHeight` pixels centred on the pixel, each rounded to the nearest odd number (documented),
    /// as a row pass then a column pass. Clear outside the extent, which grows by the half-sizes for the maximum and is
    /// kept for the minimum.
    static func rectangleMorphology(_ name: String, _ rule: KernelRecipe.Rule) -> FilterDefinition {
        FilterDefinition(name, defaults: [kCIInputWidthKey: 5.0, "inputHeight": 5.0]) { p in
            guard let image = p.image(kCIInputImageKey) else { return nil }
            let w = oddCount(p.number(kCIInputWidthKey)), h = oddCount(p.number("inputHeight"))
            let grows: Bool
            if case .maximum = rule { grows = true } else { grows = false }
            let rowExtent = grows ? KernelRecipe.grown(image.extent, w / 2, 0) : image.extent
            let rowPass = KernelRecipe(
                input: image.recipe, taps: KernelRecipe.line(count: w, horizontal: true), rule: rule, extent: rowExtent)
            let extent = grows ? KernelRecipe.grown(image.extent, w / 2, h / 2) : image.extent
            return CIImage(
                recipe: KernelRecipe(
                    input: rowPass, taps: KernelRecipe.line(count: h, horizontal: false), rule: rule, extent: extent))
        }
    }
}
