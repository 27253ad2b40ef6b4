import Foundation
import Imaging

/// One pixel of a neighbourhood: its offset from the centre in Core Image's directions (x right, y up) and its weight.
struct KernelTap: Sendable {
    var dx: Int
    var dy: Int
    var weight: Float
}

/// The pixels around one centre in a rendered source plane, addressed by offsets in Core Image's directions.
struct KernelWindow {
    let centre: UnsafeMutablePointer<SIMD4<Float>>
    let stride: Int

    /// The pixel `dx` to the right of the centre and `dy` above it.
    @inline(__always)
    func at(_ dx: Int, _ dy: Int) -> SIMD4<Float> { centre[dx - dy * stride] }
}

/// A filter that computes each output pixel from a fixed neighbourhood of its input pixel: weighted sums (the
/// convolutions and the disc and motion blurs), per-component maxima, minima and medians (morphology, the median
/// filter), or any rule over the window. Prepare renders the input over the output region widened by the taps'
/// reach and computes the output there, in parallel row bands; the input reads as it is outside its extent (clear,
/// unless it was clamped).
final class KernelRecipe: Recipe, @unchecked Sendable {
    /// What a pixel's taps make.
    enum Rule: @unchecked Sendable {
        /// Σ weight · pixel, plus a bias on every component (premultiplied values, alpha included).
        case sum(bias: SIMD4<Float>)
        /// Σ weight · unpremultiplied colour plus the bias on red, green and blue, premultiplied again by the centre's
        /// alpha, which is kept.
        case colourSum(bias: Float)
        /// The largest value of each component over the taps.
        case maximum
        /// The smallest value of each component over the taps.
        case minimum
        /// The median of each component over the taps (an odd number of them).
        case median
        /// The largest minus the smallest value of red, green and blue over the taps, with the largest alpha.
        case range
        /// Any rule over the window; `reach` on the recipe says how far it may look.
        case window(@Sendable (KernelWindow) -> SIMD4<Float>)
    }

    let input: Recipe
    let taps: [KernelTap]
    let rule: Rule
    let reachX: Int
    let reachY: Int

    /// `taps` over `input` by `rule`; the output is defined over `extent`. A window rule reads up to `reach` pixels
    /// away on each axis, the others as far as their taps do.
    init(input: Recipe, taps: [KernelTap], rule: Rule, extent: CGRect, reach: (x: Int, y: Int) = (0, 0)) {
        self.input = input
        self.taps = taps.isEmpty ? [KernelTap(dx: 0, dy: 0, weight: 1)] : taps
        self.rule = rule
        reachX = max(reach.x, self.taps.map { abs($0.dx) }.max() ?? 0)
        reachY = max(reach.y, self.taps.map { abs($0.dy) }.max() ?? 0)
        super.init(extent: extent)
    }

    /// The input's extent grown by a reach on each axis (infinite stays infinite).
    static func grown(_ extent: CGRect, _ x: Int, _ y: Int) -> CGRect {
        extent.isInfinite || extent.isNull ? extent : extent.insetBy(dx: -CGFloat(x), dy: -CGFloat(y))
    }

    /// The offsets within `radius` of the centre (dx² + dy² ≤ radius²), each weighted `1 / count`: a disc.
    static func disc(radius: Double) -> [KernelTap] {
        let r = max(0, radius), reach = Int(r.rounded(.down))
        var offsets: [(Int, Int)] = []
        for dy in -reach...reach {
            for dx in -reach...reach where Double(dx * dx + dy * dy) <= r * r { offsets.append((dx, dy)) }
        }
        let w = 1 / Float(offsets.count)
        return offsets.map { KernelTap(dx: $0.0, dy: $0.1, weight: w) }
    }

    /// A row (`horizontal`) or column of `count` pixels centred on the pixel (`count` odd), equally weighted.
    static func line(count: Int, horizontal: Bool) -> [KernelTap] {
        let reach = max(0, count / 2), w = 1 / Float(2 * reach + 1)
        return (-reach...reach).map {
            horizontal ? KernelTap(dx: $0, dy: 0, weight: w) : KernelTap(dx: 0, dy: $0, weight: w)
        }
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let out = region.clipped(to: extent)
        guard !out.isEmpty, state.pixels(self, out) == nil else { return }
        let rx = reachX, ry = reachY
        let source = materialise(
            input, Region(x: out.x - rx, y: out.y - ry, width: out.width + 2 * rx, height: out.height + 2 * ry), state)
        let result = Pixels(width: out.width, height: out.height)
        let stride = source.width, w = out.width
        let offsets = taps.map { $0.dx - $0.dy * stride }, weights = taps.map(\.weight)
        let rule = rule
        BandParallel.forEachBand(height: out.height) { rows in
            var scratch = [Float](repeating: 0, count: offsets.count)
            for j in rows {
                let src = source.row(j + ry) + rx, dst = result.row(j)
                for i in 0..<w {
                    dst[i] = Self.apply(rule, src + i, offsets, weights, stride, &scratch)
                }
            }
        }
        state.store(result, self, out)
    }

    @inline(__always)
    private static func apply(
        _ rule: Rule, _ c: UnsafeMutablePointer<SIMD4<Float>>, _ offsets: [Int], _ weights: [Float], _ stride: Int,
        _ scratch: inout [Float]
    ) -> SIMD4<Float> {
        switch rule {
        case .sum(let bias):
            var sum = bias
            for k in 0..<offsets.count { sum += c[offsets[k]] * weights[k] }
            return sum
        case .colourSum(let bias):
            var sum = SIMD4<Float>(bias, bias, bias, 0)
            for k in 0..<offsets.count {
                let v = c[offsets[k]]
                let s: Float = v.w > 0 ? 1 / v.w : 0
                sum += SIMD4(v.x * s, v.y * s, v.z * s, 0) * weights[k]
            }
            let a = c[0].w
            return SIMD4(sum.x * a, sum.y * a, sum.z * a, a)
        case .maximum:
            var m = c[offsets[0]]
            for k in 1..<offsets.count { m = pointwiseMax(m, c[offsets[k]]) }
            return m
        case .minimum:
            var m = c[offsets[0]]
            for k in 1..<offsets.count { m = pointwiseMin(m, c[offsets[k]]) }
            return m
        case .range:
            var hi = c[offsets[0]], lo = hi
            for k in 1..<offsets.count {
                hi = pointwiseMax(hi, c[offsets[k]])
                lo = pointwiseMin(lo, c[offsets[k]])
            }
            return SIMD4(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, hi.w)
        case .median:
            var m = SIMD4<Float>.zero
            let n = offsets.count
            for component in 0..<4 {
                for k in 0..<n { scratch[k] = c[offsets[k]][component] }
                scratch.withUnsafeMutableBufferPointer { b in
                    // Insertion sort: the windows are small (nine values for the median filter).
                    for a in 1..<max(1, n) {
                        let v = b[a]
                        var p = a - 1
                        while p >= 0 && b[p] > v {
                            b[p + 1] = b[p]
                            p -= 1
                        }
                        b[p + 1] = v
                    }
                }
                m[component] = scratch[n / 2]
            }
            return m
        case .window(let f):
            return f(KernelWindow(centre: c, stride: stride))
        }
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let o = region.clipped(to: extent)
        copyPrepared(self, o.isEmpty ? nil : o, region, rows, out, state)
    }
}

/// `CIZoomBlur`: each pixel averages the input along the segment from it towards the centre, as long as `amount`
/// per cent of its distance from the centre (our reading of "zoom by amount"), sampled bilinearly about once a pixel
/// (at most 65 samples; a pixel on the centre is unchanged). Outside its extent the input is clear; the output keeps
/// the input's extent.
final class ZoomBlurRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    let centre: SIMD2<Double>
    let fraction: Double
    /// The most samples a pixel takes after its own (evenly spaced, so their mean position stays the segment's
    /// midpoint): long streaks far from the centre are sampled more sparsely rather than without bound.
    static let maximumSteps = 64

    init(input: Recipe, centre: SIMD2<Double>, amount: Double) {
        self.input = input
        self.centre = centre
        fraction = max(0, amount) / 100
        super.init(extent: input.extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let out = region.clipped(to: extent)
        guard !out.isEmpty, state.pixels(self, out) == nil else { return }
        // The samples of a pixel p lie on p + (c − p)·s for s in [0, fraction]: within the box of the region's
        // corners and of those corners moved the whole way, plus a pixel for the bilinear reads.
        let f = fraction, c = centre
        let corners = [
            SIMD2<Double>(Double(out.x), Double(out.y)), SIMD2(Double(out.maxX), Double(out.y)),
            SIMD2(Double(out.x), Double(out.maxY)), SIMD2(Double(out.maxX), Double(out.maxY)),
        ]
        let reached = corners + corners.map { $0 + (c - $0) * f }
        let xs = reached.map(\.x), ys = reached.map(\.y)
        let x0 = Int(xs.reduce(.infinity, min).rounded(.down)) - 1,
            y0 = Int(ys.reduce(.infinity, min).rounded(.down)) - 1
        let x1 = Int(xs.reduce(-.infinity, max).rounded(.up)) + 1, y1 = Int(ys.reduce(-.infinity, max).rounded(.up)) + 1
        let box = Region(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let s = box.clipped(to: input.extent)
        let result = Pixels(width: out.width, height: out.height)
        guard !s.isEmpty else {
            result.base.update(repeating: .zero, count: out.width * out.height)
            state.store(result, self, out)
            return
        }
        let source = materialise(input, s, state)
        BandParallel.forEachBand(height: out.height) { rows in
            for j in rows {
                let y = Double(out.maxY - 1 - j) + 0.5, dst = result.row(j)
                for i in 0..<out.width {
                    let p = SIMD2(Double(out.x + i) + 0.5, y)
                    let d = c - p
                    let length = (d * d).sum().squareRoot() * f
                    let n = min(Self.maximumSteps, max(1, Int(length.rounded(.up))))
                    var sum = SIMD4<Float>.zero
                    for k in 0...n {
                        let q = p + d * (f * Double(k) / Double(n))
                        sum += Self.bilinear(source, s, q)
                    }
                    dst[i] = sum / Float(n + 1)
                }
            }
        }
        state.store(result, self, out)
    }

    /// The source at a point in Core Image's coordinates, interpolated between the four nearest pixel centres;
    /// clear outside the rendered region.
    static func bilinear(_ source: Pixels, _ s: Region, _ q: SIMD2<Double>) -> SIMD4<Float> {
        let fx = q.x - 0.5, fy = q.y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
        func pixel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            guard x >= s.x, x < s.maxX, y >= s.y, y < s.maxY else { return .zero }
            return source.row(s.maxY - 1 - y)[x - s.x]
        }
        let bottom = pixel(x0, y0) * (1 - tx) + pixel(x0 + 1, y0) * tx
        let top = pixel(x0, y0 + 1) * (1 - tx) + pixel(x0 + 1, y0 + 1) * tx
        return bottom * (1 - ty) + top * ty
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let o = region.clipped(to: extent)
        copyPrepared(self, o.isEmpty ? nil : o, region, rows, out, state)
    }
}
