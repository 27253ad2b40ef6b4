/// The source positions along one output row of a perspective warp, and how a run of its columns can be stepped in
/// fixed point: the planning half of the 8-bit warp (`warpRowsUInt8`), shared by every warp that samples 8-bit bytes
/// with `WarpKernelUInt8`'s taps.
///
/// Along a row, the homography's numerators and denominator advance by constants, so the source position of column
/// `t` is `x(t) = (u + du·t)/(w + dw·t) − ½` and `y(t) = (v + dv·t)/(w + dw·t) − ½`, in source pixels relative to
/// sample centres. `warpRowsUInt8` documents the error bounds that decide between a quadratic per tile, linear spans
/// and exact positions.
package struct WarpRowPositions {
    package var u: Double, du: Double
    package var v: Double, dv: Double
    package var w: Double, dw: Double

    package init(u: Double, du: Double, v: Double, dv: Double, w: Double, dw: Double) {
        (self.u, self.du, self.v, self.dv, self.w, self.dw) = (u, du, v, dv, w, dw)
    }

    /// 2³²: positions in 32.32 fixed point.
    static let fixedOne = 4_294_967_296.0
    /// The most a stepped position may err from the exact one, in pixels.
    static let spanTolerance = 1.0 / 1024

    /// The exact position of column `t` in 32.32 fixed point, or nil when it is far outside any image.
    @inline(__always)
    func exactFixed(at t: Double) -> (x: Double, y: Double)? {
        let one = WarpRowPositions.fixedOne
        let inverse = one / (w + dw * t)
        let sx = (u + du * t) * inverse - one / 2, sy = (v + dv * t) * inverse - one / 2
        guard abs(sx) < 0x1p52, abs(sy) < 0x1p52 else { return nil }
        return (sx, sy)
    }

    /// How columns `start..<end` can be stepped: the longest linear span (0 when none is safe) and whether one
    /// quadratic is within tolerance over all of them, from the bounds on |x″| and |x‴|.
    func stepping(_ start: Int, _ end: Int) -> (span: Int, quadratic: Bool) {
        let finite = u.isFinite && du.isFinite && v.isFinite && dv.isFinite && w.isFinite && dw.isFinite
        let wA = w + dw * Double(start), wB = w + dw * Double(end)
        guard finite && (wA > 0) == (wB > 0) && wA != 0 && wB != 0 else { return (0, false) }
        let length = Double(end - start)
        let minW = min(abs(wA), abs(wB))
        let determinant = max(abs(u * dw - du * w), abs(v * dw - dv * w))
        let curvature = 2 * abs(dw) * determinant / (minW * minW * minW)
        let longest = curvature > 0 ? (8 * WarpRowPositions.spanTolerance / curvature).squareRoot() : 32
        let span = longest.isFinite ? Int(min(32, longest)) : 0
        let third = 6 * dw * dw * determinant / (minW * minW * minW * minW)
        return (span, third * length * length * length / (72 * 3.0.squareRoot()) <= WarpRowPositions.spanTolerance)
    }

    /// The quadratic through the exact positions at the ends and the middle of columns `start..<end`, when one
    /// quadratic is within tolerance there.
    package func quadratic(_ start: Int, _ end: Int) -> WarpTileQuadratic? {
        stepping(start, end).quadratic ? fittedQuadratic(start, end) : nil
    }

    /// The quadratic through the exact positions at the ends and the middle of columns `start..<end`, whether or not
    /// it is within tolerance; nil when one of them is far outside any image.
    func fittedQuadratic(_ start: Int, _ end: Int) -> WarpTileQuadratic? {
        guard let f0 = exactFixed(at: Double(start)), let fm = exactFixed(at: Double(start) + Double(end - start) / 2),
            let f1 = exactFixed(at: Double(end))
        else { return nil }
        return WarpTileQuadratic(f0, fm, f1, count: end - start)
    }
}

/// A run of columns whose source positions follow one quadratic in 32.32 fixed point, stepped by forward
/// differences, with the range the positions span.
package struct WarpTileQuadratic {
    /// Each axis' first position (rounded to the nearest 1/1024 pixel once shifted), first step and step of steps.
    package let x: (p: Int64, d: Int64, dd: Int64)
    package let y: (p: Int64, d: Int64, dd: Int64)
    /// The smallest and largest position on each axis over the run, in pixels.
    package let low: (x: Double, y: Double)
    package let high: (x: Double, y: Double)

    init(_ f0: (x: Double, y: Double), _ fm: (x: Double, y: Double), _ f1: (x: Double, y: Double), count: Int) {
        let one = WarpRowPositions.fixedOne, length = Double(count)
        // q(k) = f0 + b k + c k² through the three exact positions, stepped by forward differences:
        // q(k + 1) − q(k) = b + c (2k + 1), whose own step is 2c.
        let cx = 2 * (f0.x - 2 * fm.x + f1.x) / (length * length)
        let cy = 2 * (f0.y - 2 * fm.y + f1.y) / (length * length)
        let bx = (f1.x - f0.x) / length - cx * length, by = (f1.y - f0.y) / length - cy * length
        // The quadratic's extremes over the run lie at its ends or its vertex.
        func range(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double) {
            let last = length - 1
            let end = a + b * last + c * last * last
            var low = min(a, end), high = max(a, end)
            let vertex = c != 0 ? -b / (2 * c) : 0
            if vertex > 0 && vertex < last {
                low = min(low, a + b * vertex + c * vertex * vertex)
                high = max(high, a + b * vertex + c * vertex * vertex)
            }
            return (low / one, high / one)
        }
        let (lowX, highX) = range(f0.x, bx, cx), (lowY, highY) = range(f0.y, by, cy)
        low = (lowX, lowY)
        high = (highX, highY)
        let rounding = Int64(1) << (31 - WarpKernelUInt8.fractionBits)  // half a 1/1024 step, in 32.32
        x = (Int64(f0.x) + rounding, Int64(bx + cx), Int64(2 * cx))
        y = (Int64(f0.y) + rounding, Int64(by + cy), Int64(2 * cy))
    }

    /// Whether every 2 × 2 tap of the run lies inside columns `0..<width` and rows `0..<height`, with a margin of
    /// 1/64 pixel for the fixed-point steps.
    package func isInside(width: Int, height: Int) -> Bool { isInside(columns: 0..<width, rows: 0..<height) }

    /// Whether every 2 × 2 tap of the run lies inside `columns` and `rows`, with a margin of 1/64 pixel for the
    /// fixed-point steps.
    package func isInside(columns: Range<Int>, rows: Range<Int>) -> Bool {
        let margin = 1.0 / 64
        return low.x >= Double(columns.lowerBound) + margin && low.y >= Double(rows.lowerBound) + margin
            && high.x < Double(columns.upperBound - 1) - margin && high.y < Double(rows.upperBound - 1) - margin
    }
}
