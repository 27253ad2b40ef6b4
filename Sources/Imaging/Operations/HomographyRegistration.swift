import Foundation

/// The homography that carries one picture onto another, refined from a first guess by Lucas and Kanade's
/// Gauss–Newton iterations in the forward-additive form (Baker and Matthews, "Lucas–Kanade 20 years on", IJCV
/// 56:221, 2004, §2), on a pyramid of box-halved copies, coarsest first.
///
/// The warp W maps a point of the reference to the point of the moving picture that shows the same thing, so the
/// iterations minimise Σ (M(W(x)) − R(x))² over the reference's pixel centres whose image lies inside the moving
/// picture. Its eight parameters act on coordinates scaled to −1…1 across the larger side (the same on every level),
/// which keeps the normal equations well conditioned; a small Levenberg term (10⁻⁶ of their mean diagonal) keeps them
/// solvable on flat pictures.
public enum HomographyRegistration {
    /// How many halvings the pyramid takes at most, and the smallest side a level may have.
    static let levels = 3
    static let smallestSide = 48

    /// The warp (reference → moving, pixel coordinates with the origin at the top-left corner) refined from
    /// `initial`. Both planes are one channel of the same size; only the moving plane's top-left `movingExtent`
    /// pixels (all of it by default) hold the picture, and the rest is never compared.
    public static func refine(
        reference: PixelPlane<Float>, moving: PixelPlane<Float>, initial: Homography,
        movingExtent: SIMD2<Int>? = nil
    ) -> Homography {
        precondition(
            reference.width == moving.width && reference.height == moving.height && reference.channels == 1
                && moving.channels == 1, "one-channel planes of one size")
        var pyramid = [(reference, moving)]
        while pyramid.count <= levels, let last = pyramid.last,
            min(last.0.width, last.0.height) / 2 >= smallestSide
        {
            pyramid.append((halved(last.0), halved(last.1)))
        }
        let frame = NormalisedFrame(width: Double(reference.width), height: Double(reference.height))
        var h = frame.normalised(initial)
        let extent = movingExtent ?? SIMD2(moving.width, moving.height)
        for (index, level) in pyramid.enumerated().reversed() {
            h = iterate(
                h, reference: level.0, moving: level.1, extent: extent / (1 << index),
                iterations: index == pyramid.count - 1 ? 20 : 8)
        }
        return frame.pixels(h)
    }

    /// Coordinates scaled so the larger side spans −1…1 about the picture's centre: the same for every level of a
    /// pyramid, whose pixels halve as its sides do.
    struct NormalisedFrame {
        let width: Double, height: Double

        /// Pixel → normalised, for a picture `width × height` (or a level of it: pass its own sizes).
        static func toNormalised(width: Double, height: Double) -> Homography {
            let s = 2 / max(width, height)
            return Homography(entries: [s, 0, -s * width / 2, 0, s, -s * height / 2, 0, 0, 1])
        }

        func normalised(_ h: Homography) -> Homography {
            let t = Self.toNormalised(width: width, height: height)
            guard let inverse = t.inverse else { return h }
            return t.concatenating(h).concatenating(inverse)
        }

        func pixels(_ h: Homography) -> Homography {
            let t = Self.toNormalised(width: width, height: height)
            guard let inverse = t.inverse else { return h }
            return inverse.concatenating(h).concatenating(t)
        }
    }

    /// Gauss–Newton steps of the normalised warp `h` on one level.
    static func iterate(
        _ start: Homography, reference: PixelPlane<Float>, moving: PixelPlane<Float>, extent: SIMD2<Int>,
        iterations: Int
    ) -> Homography {
        let (w, hgt) = (reference.width, reference.height)
        let toUnit = NormalisedFrame.toNormalised(width: Double(w), height: Double(hgt))
        guard let toPixels = toUnit.inverse else { return start }
        var h = start
        for _ in 0..<iterations {
            // The warp in this level's pixels.
            let warp = toPixels.concatenating(h).concatenating(toUnit)
            var normal = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
            var used = 0
            for y in 0..<hgt {
                for x in 0..<w {
                    let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                    let q = warp.apply(p)
                    guard q.x >= 1.5, q.y >= 1.5, q.x <= Double(extent.x) - 1.5, q.y <= Double(extent.y) - 1.5 else {
                        continue
                    }
                    let value = sample(moving, q)
                    // The moving picture's gradient at q, in this level's pixels, from samples a pixel either side.
                    let gx = (sample(moving, q + SIMD2(1, 0)) - sample(moving, q - SIMD2(1, 0))) / 2
                    let gy = (sample(moving, q + SIMD2(0, 1)) - sample(moving, q - SIMD2(0, 1))) / 2
                    // The same gradient with respect to the normalised coordinates of q.
                    let scale = Double(max(w, hgt)) / 2
                    let (ux, uy) = (gx * scale, gy * scale)
                    // The normalised point and its image under h.
                    let n = toUnit.apply(p), m = toUnit.apply(q)
                    let m8 = h.entries
                    let denominator = m8[6] * n.x + m8[7] * n.y + m8[8]
                    let jacobian: [Double] = [
                        ux * n.x, ux * n.y, ux, uy * n.x, uy * n.y, uy,
                        -(ux * m.x + uy * m.y) * n.x, -(ux * m.x + uy * m.y) * n.y,
                    ].map { $0 / denominator }
                    let residual = value - Double(reference[x, y])
                    for r in 0..<8 {
                        for c in r..<8 { normal[r][c] += jacobian[r] * jacobian[c] }
                        normal[r][8] -= jacobian[r] * residual
                    }
                    used += 1
                }
            }
            guard used >= 16 else { break }
            let damping = 1e-6 * (0..<8).reduce(0) { $0 + normal[$1][$1] } / 8
            for r in 0..<8 {
                normal[r][r] += damping
                for c in 0..<r { normal[r][c] = normal[c][r] }
            }
            guard let step = Homography.solve(&normal) else { break }
            var entries = h.entries
            for k in 0..<8 { entries[k] += step[k] }
            h = Homography(entries: entries)
            if step.map({ $0 * $0 }).reduce(0, +) < 1e-14 { break }
        }
        return h
    }

    /// The plane's value at a continuous point (pixel centres at i + 0.5), bilinear, the border repeated beyond.
    static func sample(_ plane: PixelPlane<Float>, _ p: SIMD2<Double>) -> Double {
        let x = min(max(p.x - 0.5, 0), Double(plane.width - 1)), y = min(max(p.y - 0.5, 0), Double(plane.height - 1))
        let (x0, y0) = (Int(x), Int(y))
        let (x1, y1) = (min(x0 + 1, plane.width - 1), min(y0 + 1, plane.height - 1))
        let (fx, fy) = (x - Double(x0), y - Double(y0))
        let top = Double(plane[x0, y0]) * (1 - fx) + Double(plane[x1, y0]) * fx
        let bottom = Double(plane[x0, y1]) * (1 - fx) + Double(plane[x1, y1]) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// A 2 × 2 box mean of one channel (the last odd row or column dropped).
    static func halved(_ plane: PixelPlane<Float>) -> PixelPlane<Float> {
        PixelPlane<Float>(width: plane.width / 2, height: plane.height / 2) { x, y, _ in
            (plane[2 * x, 2 * y] + plane[2 * x + 1, 2 * y] + plane[2 * x, 2 * y + 1] + plane[2 * x + 1, 2 * y + 1]) / 4
        }
    }
}
