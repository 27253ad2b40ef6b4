import Foundation
import Imaging

/// The taps of one output column or row: indices into the source region's columns or plane rows,
/// and their weights.
struct Taps {
    var indices: [Int]
    var weights: [Float]
}

/// Applies separable taps: `xTaps[i]` gives output column `i` from the source's columns, `yTaps[j]`
/// output row `j` from the (horizontally filtered) rows. Both passes run in parallel row bands.
func separable(_ source: Pixels, xTaps: [Taps], yTaps: [Taps]) -> Pixels {
    let w = xTaps.count, h = yTaps.count, sh = source.height
    let horizontal = Pixels(width: w, height: sh)
    BandParallel.forEachBand(height: sh) { rows in
        for j in rows {
            let src = source.row(j), dst = horizontal.row(j)
            for i in 0..<w {
                let t = xTaps[i]
                var sum = SIMD4<Float>.zero
                for k in 0..<t.indices.count { sum += src[t.indices[k]] * t.weights[k] }
                dst[i] = sum
            }
        }
    }
    let output = Pixels(width: w, height: h)
    BandParallel.forEachBand(height: h) { rows in
        for j in rows {
            let t = yTaps[j], dst = output.row(j)
            dst.update(repeating: .zero, count: w)
            for k in 0..<t.indices.count {
                let src = horizontal.row(t.indices[k]), weight = t.weights[k]
                for i in 0..<w { dst[i] += src[i] * weight }
            }
        }
    }
    return output
}

/// A convolution with a symmetric kernel, the same along both axes (Gaussian and box blurs). The
/// input is clear outside its extent, so the output's edges fade and its extent grows by the
/// kernel's reach, as Core Image's blurs do.
final class ConvolutionRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    /// Weights from −reach to +reach, summing to 1.
    let kernel: [Float]
    var reach: Int { kernel.count / 2 }

    init(input: Recipe, kernel: [Float]) {
        self.input = input
        self.kernel = kernel
        let r = CGFloat(kernel.count / 2)
        super.init(extent: input.extent.isInfinite ? .infinite : input.extent.insetBy(dx: -r, dy: -r))
    }

    /// The sampled Gaussian of standard deviation `sigma`, out to 3σ, normalised.
    static func gaussian(sigma: Float) -> [Float] {
        guard sigma > 0.01 else { return [1] }
        let reach = Int((3 * sigma).rounded(.up))
        let raw = (-reach...reach).map { expf(-Float($0 * $0) / (2 * sigma * sigma)) }
        let sum = raw.reduce(0, +)
        return raw.map { $0 / sum }
    }

    /// `2·radius + 1` equal weights.
    static func box(radius: Int) -> [Float] {
        let n = 2 * max(0, radius) + 1
        return [Float](repeating: 1 / Float(n), count: n)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let out = region.clipped(to: extent)
        guard !out.isEmpty, state.pixels(self, out) == nil else { return }
        state.store(Self.convolve(input, out, kernel, state), self, out)
    }

    /// `kernel` over `input`, for an output region.
    static func convolve(_ input: Recipe, _ out: Region, _ kernel: [Float], _ state: RenderState) -> Pixels {
        let reach = kernel.count / 2
        let source = materialise(input, Region(x: out.x - reach, y: out.y - reach, width: out.width + 2 * reach,
                                                height: out.height + 2 * reach), state)
        return convolve(source, kernel, width: out.width, height: out.height)
    }

    /// `kernel` over pixels that extend the output by the kernel's reach on every side.
    static func convolve(_ source: Pixels, _ kernel: [Float], width: Int, height: Int) -> Pixels {
        let n = kernel.count
        let xTaps = (0..<width).map { Taps(indices: Array($0..<($0 + n)), weights: kernel) }
        let yTaps = (0..<height).map { Taps(indices: Array($0..<($0 + n)), weights: kernel) }
        return separable(source, xTaps: xTaps, yTaps: yTaps)
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let o = region.clipped(to: extent)
        copyPrepared(self, o.isEmpty ? nil : o, region, rows, out, state)
    }
}

/// Resampling by a separable kernel (`CILanczosScaleTransform`, `CIBicubicScaleTransform`), widened by the
/// reduction when downscaling so that it also filters out what the smaller image cannot hold. The
/// input's edge pixels extend it, so the output does not fade at its edges.
final class ScaleRecipe: Recipe, @unchecked Sendable {
    /// The resampling kernels.
    enum Kernel: Sendable {
        /// A windowed sinc of three lobes.
        case lanczos3
        /// Mitchell and Netravali's cubic (SIGGRAPH 1988) with its two parameters: B = 1, C = 0 is the cubic
        /// B-spline, B = 0 the interpolating cubics (C = 0.5 Catmull–Rom), B = C = 1/3 their recommendation.
        case cubic(b: Double, c: Double)

        /// How far from its centre the kernel reaches, in source pixels at scale 1.
        var support: Double {
            switch self {
            case .lanczos3: 3
            case .cubic: 2
            }
        }

        func weight(_ x: Double) -> Double {
            switch self {
            case .lanczos3: ScaleRecipe.lanczos3(x)
            case let .cubic(b, c): ScaleRecipe.cubic(x, b: b, c: c)
            }
        }
    }

    let input: Recipe
    let scaleX: Double
    let scaleY: Double
    let bounds: Region
    let kernel: Kernel

    init?(input: Recipe, scale: Double, aspectRatio: Double, kernel: Kernel = .lanczos3) {
        guard let bounds = Region(covering: input.extent), !bounds.isEmpty, scale > 0, aspectRatio > 0 else { return nil }
        self.input = input
        self.bounds = bounds
        self.kernel = kernel
        scaleX = scale * aspectRatio
        scaleY = scale
        let e = input.extent
        super.init(extent: CGRect(
            x: (e.minX * scaleX).rounded(), y: (e.minY * scaleY).rounded(),
            width: max(1, (e.width * scaleX).rounded()), height: max(1, (e.height * scaleY).rounded())))
    }

    static func lanczos3(_ x: Double) -> Double {
        if x == 0 { return 1 }
        guard abs(x) < 3 else { return 0 }
        let px = Double.pi * x
        return 3 * sin(px) * sin(px / 3) / (px * px)
    }

    /// Mitchell and Netravali's piecewise cubic: (1/6)((12 − 9B − 6C)|x|³ + (−18 + 12B + 6C)|x|² + 6 − 2B) within
    /// one pixel, (1/6)((−B − 6C)|x|³ + (6B + 30C)|x|² + (−12B − 48C)|x| + 8B + 24C) from one to two, 0 beyond.
    static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        let t = abs(x)
        if t < 1 { return ((12 - 9 * b - 6 * c) * t * t * t + (-18 + 12 * b + 6 * c) * t * t + 6 - 2 * b) / 6 }
        if t < 2 {
            return ((-b - 6 * c) * t * t * t + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t + 8 * b + 24 * c) / 6
        }
        return 0
    }

    /// The taps of output pixels `range` from source pixels `lo..<hi` (edge pixels repeated).
    static func taps(_ range: Range<Int>, scale: Double, lo: Int, hi: Int, kernel: Kernel = .lanczos3)
        -> [(pixels: [Int], weights: [Float])]
    {
        let stretch = max(1, 1 / scale), support = kernel.support * stretch
        return range.map { o in
            let centre = (Double(o) + 0.5) / scale
            let first = Int((centre - support).rounded(.down)), last = Int((centre + support).rounded(.up))
            var pixels: [Int] = [], weights: [Double] = []
            for n in first...last {
                let weight = kernel.weight((Double(n) + 0.5 - centre) / stretch)
                guard weight != 0 else { continue }
                pixels.append(min(max(n, lo), hi - 1))
                weights.append(weight)
            }
            let sum = weights.reduce(0, +)
            return (pixels, weights.map { Float($0 / sum) })
        }
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let out = region.clipped(to: extent)
        guard !out.isEmpty, state.pixels(self, out) == nil else { return }
        let xs = Self.taps(out.x..<out.maxX, scale: scaleX, lo: bounds.x, hi: bounds.maxX, kernel: kernel)
        let ys = Self.taps(out.y..<out.maxY, scale: scaleY, lo: bounds.y, hi: bounds.maxY, kernel: kernel)
        let allX = xs.flatMap(\.pixels), allY = ys.flatMap(\.pixels)
        let s = Region(x: allX.min()!, y: allY.min()!, width: allX.max()! - allX.min()! + 1, height: allY.max()! - allY.min()! + 1)
        let source = materialise(input, s, state)
        let xTaps = xs.map { Taps(indices: $0.pixels.map { $0 - s.x }, weights: $0.weights) }
        // Output plane row j is Core Image row out.maxY − 1 − j; source plane rows count down from s.maxY − 1.
        let yTaps = (0..<out.height).map { j in
            let t = ys[out.height - 1 - j]
            return Taps(indices: t.pixels.map { s.maxY - 1 - $0 }, weights: t.weights)
        }
        state.store(separable(source, xTaps: xTaps, yTaps: yTaps), self, out)
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let o = region.clipped(to: extent)
        copyPrepared(self, o.isEmpty ? nil : o, region, rows, out, state)
    }
}
