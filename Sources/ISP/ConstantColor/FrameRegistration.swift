import Foundation

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
        while let last = levels.last, last.w >= 96, last.h >= 96, levels.count < 8 {
            let (r, w, h) = halve(last.ref, last.w, last.h)
            let (m, _, _) = halve(last.mov, last.w, last.h)
            levels.append((r, m, w, h))
        }
        var d = SIMD2<Double>(0, 0)
        for (index, level) in levels.enumerated().reversed() {
            let scale = Double(1 << index)
            let ref = structure(level.ref, level.w, level.h)
            let mov = structure(level.mov, level.w, level.h)
            if index == levels.count - 1 {
                let radius = max(1, Int((maximumShift / scale).rounded(.up)))
                d = integerSearch(ref, mov, level.w, level.h, radius: radius)
            } else {
                d *= 2
            }
            d = refine(ref, mov, level.w, level.h, start: d, iterations: index == 0 ? 4 : 6)
        }
        return d
    }

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
            let source = ReadBuffer(base: base)
            return ParallelRows.fill(count: interleaved.count, rows: height, initial: Float(0)) { rows, out in
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

    /// 2× box downsampling.
    static func halve(_ plane: [Float], _ w: Int, _ h: Int) -> ([Float], Int, Int) {
        let w2 = w / 2, h2 = h / 2
        var out = [Float](repeating: 0, count: w2 * h2)
        for y in 0..<h2 {
            for x in 0..<w2 {
                let i = 2 * y * w + 2 * x
                out[y * w2 + x] = 0.25 * (plane[i] + plane[i + 1] + plane[i + w] + plane[i + w + 1])
            }
        }
        return (out, w2, h2)
    }

    /// log(v + ε) minus its local mean over a (2r+1)² box; ε is 1 % of the plane's mean, so the
    /// darkest pixels (read noise) do not dominate.
    static func structure(_ plane: [Float], _ w: Int, _ h: Int) -> [Float] {
        var mean = 0.0
        for v in plane { mean += Double(v) }
        let epsilon = Float(max(mean / Double(plane.count), 1e-6) * 0.01)
        let log = plane.map { Foundation.log(max($0, 0) + epsilon) }
        let r = 4
        // Separable box mean with an integral over each row, then each column.
        var rowMean = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            var prefix = [Float](repeating: 0, count: w + 1)
            for x in 0..<w { prefix[x + 1] = prefix[x] + log[y * w + x] }
            for x in 0..<w {
                let a = max(0, x - r), b = min(w, x + r + 1)
                rowMean[y * w + x] = (prefix[b] - prefix[a]) / Float(b - a)
            }
        }
        var out = [Float](repeating: 0, count: w * h)
        for x in 0..<w {
            var prefix = [Float](repeating: 0, count: h + 1)
            for y in 0..<h { prefix[y + 1] = prefix[y] + rowMean[y * w + x] }
            for y in 0..<h {
                let a = max(0, y - r), b = min(h, y + r + 1)
                out[y * w + x] = log[y * w + x] - (prefix[b] - prefix[a]) / Float(b - a)
            }
        }
        return out
    }

    /// The integer shift in −radius…radius² with the least mean squared difference over the overlap.
    static func integerSearch(_ ref: [Float], _ mov: [Float], _ w: Int, _ h: Int, radius: Int) -> SIMD2<Double> {
        var best = (cost: Double.infinity, d: SIMD2<Double>(0, 0))
        let r = min(radius, w / 3, h / 3)
        guard r > 0 else { return best.d }
        for dy in -r...r {
            for dx in -r...r {
                var sum = 0.0
                var n = 0
                for y in max(0, -dy)..<min(h, h - dy) {
                    for x in max(0, -dx)..<min(w, w - dx) {
                        let e = Double(mov[(y + dy) * w + x + dx] - ref[y * w + x])
                        sum += e * e
                        n += 1
                    }
                }
                let cost = n > 0 ? sum / Double(n) : .infinity
                if cost < best.cost { best = (cost, SIMD2(Double(dx), Double(dy))) }
            }
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
            var hxx = 0.0, hxy = 0.0, hyy = 0.0, bx = 0.0, by = 0.0
            for y in margin..<(h - margin) {
                for x in margin..<(w - margin) {
                    let i = y * w + x
                    let gx = Double(ref[i + 1] - ref[i - 1]) * 0.5
                    let gy = Double(ref[i + w] - ref[i - w]) * 0.5
                    let j = (y + iy) * w + x + ix
                    let top = mov[j] + ax * (mov[j + 1] - mov[j])
                    let bottom = mov[j + w] + ax * (mov[j + w + 1] - mov[j + w])
                    let e = Double(top + ay * (bottom - top) - ref[i])
                    hxx += gx * gx
                    hxy += gx * gy
                    hyy += gy * gy
                    bx += gx * e
                    by += gy * e
                }
            }
            let det = hxx * hyy - hxy * hxy
            guard det > 1e-12 else { return d }
            let step = SIMD2((hyy * bx - hxy * by) / det, (hxx * by - hxy * bx) / det)
            d -= step
            if abs(step.x) < 1e-3 && abs(step.y) < 1e-3 { break }
        }
        return d
    }
}
