import Foundation
import Imaging

/// Global sub-pixel translation between two frames lit differently (the ambient frame and the flash
/// frame of a Constant Color capture), and the resampling that applies it.
///
/// The frames differ by more than a gain: the flash adds light that falls off with distance and
/// shades surfaces differently. Both are therefore compared through a *structure* image: the log
/// of the green signal, which turns the flash's smooth multiplicative change into a smooth additive
/// one, minus its local mean (a box filter), which removes that smooth part and keeps the edges and
/// texture. On a Gaussian-free 2× box pyramid the shift is found by an exhaustive integer search
/// at the coarsest level (sum of squared differences over the overlap), then refined level by level
/// with Lucas–Kanade iterations in the inverse-compositional form (Baker & Matthews 2004, IJCV
/// 56:221), which give sub-pixel precision.
///
/// Convention: the returned d satisfies moving(x + d) ≈ reference(x).
public enum FrameRegistration {
    /// The translation (pixels, x right, y down) that aligns `moving` to `reference`.
    ///
    /// - Parameters:
    ///   - reference, moving: one linear plane each (e.g. green electrons), row-major `width × height`.
    ///   - maximumShift: the largest shift searched, pixels at full resolution.
    public static func translation(
        reference: [Float], moving: [Float], width: Int, height: Int, maximumShift: Double = 32
    ) -> SIMD2<Double> {
        precondition(reference.count == width * height && moving.count == width * height, "plane size mismatch")
        var levels = [(ref: reference, mov: moving, w: width, h: height)]
        let s = reduction(width: width, height: height)
        for _ in 0..<s {
            guard let last = levels.last else { break }
            let (r, w, h) = halve(last.ref, last.w, last.h)
            let (m, _, _) = halve(last.mov, last.w, last.h)
            levels.append((r, m, w, h))
        }
        guard let finest = levels.last else { return .zero }
        return translation(
            reducedReference: finest.ref, reducedMoving: finest.mov, width: finest.w, height: finest.h, reduction: s,
            maximumShift: maximumShift)
    }

    /// The translation from planes already reduced `reduction` times by 2 (2ˢ × 2ˢ box means, size
    /// `width × height` after reduction), in full-resolution pixels.
    ///
    /// The finest level refined holds at most `finestPixels`: beyond that, the Lucas–Kanade sums
    /// gain precision the 0.1 px requirement does not need (the estimate's noise falls with the
    /// square root of the pixel count, and a textured 1 MP level brings it near 0.01 of its pixel),
    /// while each finer level costs four times all coarser ones together. `reduction(width:height:)`
    /// is the reduction that reaches it, so a caller can average its frames straight to that level.
    static func translation(
        reducedReference reference: [Float], reducedMoving moving: [Float], width: Int, height: Int, reduction s: Int,
        maximumShift: Double = 32
    ) -> SIMD2<Double> {
        precondition(reference.count == width * height && moving.count == width * height, "plane size mismatch")
        var levels = [(ref: reference, mov: moving, w: width, h: height)]
        while let last = levels.last, last.w >= 96, last.h >= 96, levels.count + s < 8,
            maximumShift >= Double(coarsestRadius << (levels.count + s))
        {
            let (r, w, h) = halve(last.ref, last.w, last.h)
            let (m, _, _) = halve(last.mov, last.w, last.h)
            levels.append((r, m, w, h))
        }
        var d = SIMD2<Double>(0, 0)
        for (index, level) in levels.enumerated().reversed() {
            let scale = Double(1 << (index + s))
            let ref = structure(level.ref, level.w, level.h)
            let mov = structure(level.mov, level.w, level.h)
            if index == levels.count - 1 {
                let radius = max(1, Int((maximumShift / scale).rounded(.up)))
                d = integerSearch(ref, mov, level.w, level.h, radius: radius)
            } else {
                d *= 2
            }
            d = refine(ref, mov, level.w, level.h, start: d, iterations: index + s == 0 ? 4 : 6)
        }
        return d * Double(1 << s)
    }

    /// How many times a `width × height` frame is halved before registration: until the level holds
    /// at most `finestPixels` (a 12 MP frame is refined at 1008 × 756), as the pyramid is built
    /// (levels of at least 96 pixels a side, at most 8 levels).
    static func reduction(width: Int, height: Int) -> Int {
        var (w, h, s) = (width, height, 0)
        while w * h > finestPixels, w >= 96, h >= 96, s < 7 {
            (w, h, s) = (w / 2, h / 2, s + 1)
        }
        return s
    }

    /// The fewest pixels of the coarsest level that the largest shift spans: its integer search then looks at least
    /// this far each way. The pyramid stops there rather than at its smallest size, because a coarse level's pixel
    /// sees the frames' lighting more than their structure. The structure image keeps detail up to about nine of a
    /// level's pixels, so on a level of 32-pixel blocks it compares whole objects, which the flash lights unlike the
    /// room (near ones brighter, far ones darker); a one-pixel step there is a 32-pixel step of the photo, and the
    /// smaller mismatch of lighting can win it (a still 12 MP pair of near objects before a far wall registered
    /// 26 pixels off when the search ran on 126 × 94 blocks with a reach of one).
    static let coarsestRadius = 3

    /// The most pixels of the finest pyramid level refined.
    static let finestPixels = 1_000_000

    /// `interleaved` (with `channels` values per pixel) sampled at x + d by bilinear interpolation;
    /// samples falling outside are clamped to the border.
    public static func shifted(_ interleaved: [Float], channels: Int, width: Int, height: Int, by d: SIMD2<Double>)
        -> [Float]
    {
        if d == .zero { return interleaved }
        let fx = floor(d.x), fy = floor(d.y)
        let ix = Int(fx), iy = Int(fy)
        let ax = Float(d.x - fx), ay = Float(d.y - fy)
        return interleaved.withUnsafeBufferPointer { src -> [Float] in
            guard let base = src.baseAddress else { return [] }
            let source = SharedReadPointer(base: base)
            return BandParallel.fill(count: interleaved.count, rows: height, of: Float.self) { rows, out in
                for y in rows {
                    let y0 = min(max(y + iy, 0), height - 1), y1 = min(max(y + iy + 1, 0), height - 1)
                    for x in 0..<width {
                        let x0 = min(max(x + ix, 0), width - 1), x1 = min(max(x + ix + 1, 0), width - 1)
                        for c in 0..<channels {
                            let p00 = source.base[(y0 * width + x0) * channels + c]
                            let p10 = source.base[(y0 * width + x1) * channels + c]
                            let p01 = source.base[(y1 * width + x0) * channels + c]
                            let p11 = source.base[(y1 * width + x1) * channels + c]
                            let top = p00 + ax * (p10 - p00), bottom = p01 + ax * (p11 - p01)
                            out[(y * width + x) * channels + c] = top + ay * (bottom - top)
                        }
                    }
                }
            }
        }
    }

    /// 2× box downsampling (row bands in parallel).
    static func halve(_ plane: [Float], _ w: Int, _ h: Int) -> ([Float], Int, Int) {
        let w2 = w / 2, h2 = h / 2
        let out = plane.withUnsafeBufferPointer { src -> [Float] in
            let p = SharedReadPointer(src)
            return BandParallel.fill(count: w2 * h2, rows: h2, of: Float.self) { rows, out in
                for y in rows {
                    for x in 0..<w2 {
                        let i = 2 * y * w + 2 * x
                        out[y * w2 + x] = 0.25 * (p.base[i] + p.base[i + 1] + p.base[i + w] + p.base[i + w + 1])
                    }
                }
            }
        }
        return (out, w2, h2)
    }

    /// log(v + ε) minus its local mean over a (2r+1)² box; ε is 1 % of the plane's mean, so the
    /// darkest pixels (read noise) do not dominate. Row bands in parallel; the mean is summed band
    /// by band in order, so the result does not depend on the number of cores.
    static func structure(_ plane: [Float], _ w: Int, _ h: Int) -> [Float] {
        let r = 4
        return plane.withUnsafeBufferPointer { src -> [Float] in
            let p = SharedReadPointer(src)
            let mean = BandParallel.bands(h, initial: 0.0) { rows in
                var s = 0.0
                for y in rows {
                    var row: Float = 0
                    for x in 0..<w { row += p.base[y * w + x] }
                    s += Double(row)
                }
                return s
            }.reduce(0, +)
            let epsilon = Float(max(mean / Double(plane.count), 1e-6) * 0.01)
            // Log, then the horizontal box mean of each row (a running sum over the window).
            var log = [Float](repeating: 0, count: w * h)
            var rowMean = [Float](repeating: 0, count: w * h)
            log.withUnsafeMutableBufferPointer { lb in
                rowMean.withUnsafeMutableBufferPointer { rb in
                    let lg = SharedPointer(lb), rm = SharedPointer(rb)
                    BandParallel.forEachBand(height: h) { rows in
                        for y in rows {
                            let row = lg.base + y * w
                            for x in 0..<w { row[x] = Foundation.log(max(p.base[y * w + x], 0) + epsilon) }
                            var sum: Float = 0
                            for x in 0..<min(w, r) { sum += row[x] }
                            for x in 0..<w {
                                if x + r < w { sum += row[x + r] }
                                if x - r - 1 >= 0 { sum -= row[x - r - 1] }
                                let a = max(0, x - r), b = min(w, x + r + 1)
                                rm.base[y * w + x] = sum / Float(b - a)
                            }
                        }
                    }
                }
            }
            // Vertical box mean of the row means, subtracted from the log.
            return log.withUnsafeBufferPointer { lb in
                rowMean.withUnsafeBufferPointer { rb in
                    let lg = SharedReadPointer(lb), rm = SharedReadPointer(rb)
                    return BandParallel.fill(count: w * h, rows: h, of: Float.self) { rows, out in
                        for y in rows {
                            let a = max(0, y - r), b = min(h, y + r + 1)
                            let inv = 1 / Float(b - a)
                            let o = out + y * w
                            for x in 0..<w { o[x] = 0 }
                            for yy in a..<b {
                                let src = rm.base + yy * w
                                for x in 0..<w { o[x] += src[x] }
                            }
                            for x in 0..<w { o[x] = lg.base[y * w + x] - o[x] * inv }
                        }
                    }
                }
            }
        }
    }

    /// The integer shift in −radius…radius² with the least mean squared difference over the overlap (the first in
    /// row order where several tie). Each shift's cost is summed alone, in row order, and the shifts are shared
    /// among the cores, so the choice does not depend on their number.
    static func integerSearch(_ ref: [Float], _ mov: [Float], _ w: Int, _ h: Int, radius: Int) -> SIMD2<Double> {
        let r = min(radius, w / 3, h / 3)
        guard r > 0 else { return .zero }
        let side = 2 * r + 1
        let costs = ref.withUnsafeBufferPointer { rb in
            mov.withUnsafeBufferPointer { mb in
                let rp = SharedReadPointer(rb), mp = SharedReadPointer(mb)
                return BandParallel.bands(side * side, initial: [Double]()) { shifts in
                    shifts.map { k in
                        let dx = k % side - r, dy = k / side - r
                        var sum = 0.0
                        var n = 0
                        for y in max(0, -dy)..<min(h, h - dy) {
                            for x in max(0, -dx)..<min(w, w - dx) {
                                let e = Double(mp.base[(y + dy) * w + x + dx] - rp.base[y * w + x])
                                sum += e * e
                                n += 1
                            }
                        }
                        return n > 0 ? sum / Double(n) : .infinity
                    }
                }.flatMap { $0 }
            }
        }
        var best = (cost: Double.infinity, d: SIMD2<Double>(0, 0))
        for (k, cost) in costs.enumerated() where cost < best.cost {
            best = (cost, SIMD2(Double(k % side - r), Double(k / side - r)))
        }
        return best.d
    }

    /// Lucas–Kanade refinement of a translation (inverse compositional: the Hessian uses the
    /// reference's gradients and is computed once).
    static func refine(_ ref: [Float], _ mov: [Float], _ w: Int, _ h: Int, start: SIMD2<Double>, iterations: Int)
        -> SIMD2<Double>
    {
        var d = start
        let border = 2
        for _ in 0..<iterations {
            let margin = border + Int(max(abs(d.x), abs(d.y)).rounded(.up)) + 1
            guard w > 2 * margin + 2, h > 2 * margin + 2 else { return d }
            let fx = floor(d.x), fy = floor(d.y)
            let ix = Int(fx), iy = Int(fy)
            let ax = Float(d.x - fx), ay = Float(d.y - fy)
            // The normal equations' sums per row band, merged in band order.
            let inner = h - 2 * margin
            let partial = ref.withUnsafeBufferPointer { rb in
                mov.withUnsafeBufferPointer { mb in
                    let rp = SharedReadPointer(rb), mp = SharedReadPointer(mb)
                    return BandParallel.bands(inner, initial: NormalEquations()) { band in
                        var n = NormalEquations()
                        for y in (band.lowerBound + margin)..<(band.upperBound + margin) {
                            for x in margin..<(w - margin) {
                                let i = y * w + x
                                let gx = Double(rp.base[i + 1] - rp.base[i - 1]) * 0.5
                                let gy = Double(rp.base[i + w] - rp.base[i - w]) * 0.5
                                let j = (y + iy) * w + x + ix
                                let top = mp.base[j] + ax * (mp.base[j + 1] - mp.base[j])
                                let bottom = mp.base[j + w] + ax * (mp.base[j + w + 1] - mp.base[j + w])
                                let e = Double(top + ay * (bottom - top) - rp.base[i])
                                n.hxx += gx * gx
                                n.hxy += gx * gy
                                n.hyy += gy * gy
                                n.bx += gx * e
                                n.by += gy * e
                            }
                        }
                        return n
                    }
                }
            }
            var total = NormalEquations()
            for p in partial {
                total.hxx += p.hxx
                total.hxy += p.hxy
                total.hyy += p.hyy
                total.bx += p.bx
                total.by += p.by
            }
            let (hxx, hxy, hyy, bx, by) = (total.hxx, total.hxy, total.hyy, total.bx, total.by)
            let det = hxx * hyy - hxy * hxy
            guard det > 1e-12 else { return d }
            let step = SIMD2((hyy * bx - hxy * by) / det, (hxx * by - hxy * bx) / det)
            d -= step
            if abs(step.x) < 1e-3 && abs(step.y) < 1e-3 { break }
        }
        return d
    }
}

/// The Gauss–Newton normal equations of the translation (Baker & Matthews 2004): the Hessian's xx, xy and yy sums of
/// the reference's gradients, and the two right-hand sides, Σ gradient × residual.
struct NormalEquations: Sendable {
    var hxx = 0.0, hxy = 0.0, hyy = 0.0, bx = 0.0, by = 0.0
}
