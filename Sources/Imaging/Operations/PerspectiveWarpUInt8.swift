/// The bilinear warp of `PixelPlane.warpedPerspective` for 8-bit planes: raw code values in fixed point.
///
/// Same sampling positions and border rule as the generic path. The scheme is the classic one of fast warpers
/// (OpenCV's `warpPerspective` also rounds positions to fixed point and interpolates in integers), with finer steps
/// so the result stays within one code of exact bilinear interpolation:
///
/// - Positions. Along an output row, `x′`, `y′` and `w′` of the homography advance by constants, so the source
///   position `x′/w′` is a smooth function of the column. It is computed exactly (Double) at the ends of short spans
///   and linearly in between, in 32.32 fixed point. For `f(t) = (a + bt)/(c + dt)`, `|f″| = 2|d(ad − bc)|/|c + dt|³`,
///   and linear interpolation over a span of `L` pixels errs by at most `L² · max|f″| / 8`; each row picks the
///   longest span (at most 32) keeping that below `spanTolerance` = 1/4096 pixel. Rows where `w′` changes sign, or
///   where spans would be shorter than 2 pixels, use the exact position of every pixel.
/// - Rounding. Positions are rounded to 1/1024 pixel (`fractionBits`): at most 1/2048 pixel per axis.
/// - Interpolation. With integer weights `ax, ay ∈ 0…1024`, horizontal then vertical linear interpolation in 32-bit
///   integers (`255 · 2²⁰` fits), rounded half up once at the end.
///
/// Error budget against exact bilinear interpolation at the exact position: the position errs by less than
/// 1/4096 + 1/2048 pixel per axis, which moves the value by at most `255 · 2 · 0.00074 ≈ 0.37` code on the steepest
/// possible edge (white noise), so the result is within 1 code of the exactly rounded value (the tests check this
/// against a Double reference). Each output pixel depends only on its row and its 64-column tile, never on the row
/// bands, so results are identical for any thread count.
func warpRowsUInt8(
    source: UnsafePointer<UInt8>, sourceWidth: Int, sourceHeight: Int, sourceStride: Int, channels: Int,
    output: UnsafeMutablePointer<UInt8>, outputWidth: Int, outputStride: Int, rows: Range<Int>, m: [Double],
    fill: UInt8
) {
    let kernel = WarpKernelUInt8(
        source: source, sourceStride: sourceStride, channels: channels, lastX: sourceWidth - 1,
        lastY: sourceHeight - 1, fill: fill)
    let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
    let finite = m.allSatisfy(\.isFinite)
    let bits = WarpKernelUInt8.fractionBits
    let scale = Double(1 << bits)
    let lowLimit = -scale, limitX = Double(sourceWidth) * scale, limitY = Double(sourceHeight) * scale
    // Adding 1.5 · 2⁵² to a Double in ±2³¹ leaves it rounded to the nearest integer in the low mantissa bits, two's
    // complement: a rounding conversion in one addition, with no range trap (the guard bounds the value first).
    let magic = 6_755_399_441_055_744.0
    let fixedOne = 4_294_967_296.0  // 2³²: span positions are 32.32 fixed point
    let fixedRounding = Int64(1) << (31 - bits)  // half a 1/1024 step, in 32.32
    let spanTolerance = 1.0 / 4096
    // Tiles of 64 columns × the band's rows: a slanted warp walks across many source rows along one output row,
    // and revisiting them tile by tile keeps them in cache.
    let tileWidth = 64
    for tile in stride(from: 0, to: outputWidth, by: tileWidth) {
        let tileEnd = min(outputWidth, tile + tileWidth)
        for j in rows {
            let yc = Double(j) + 0.5
            // Row origins (column 0, centre x = 0.5) and the per-column steps m0, m3, m6.
            let u0 = m0 * 0.5 + m1 * yc + m2, v0 = m3 * 0.5 + m4 * yc + m5, w0 = m6 * 0.5 + m7 * yc + m8
            let row = output + j * outputStride

            /// The exact position of column `i` in 1/1024 pixel, relative to sample centres, and the output pixel.
            @inline(__always) func exactPixel(_ i: Int) {
                let fi = Double(i)
                let inverse = scale / (w0 + m6 * fi)
                let sx = (u0 + m0 * fi) * inverse - scale / 2, sy = (v0 + m3 * fi) * inverse - scale / 2
                let out = row + i * channels
                // NaN and infinities fail these comparisons too.
                guard sx > lowLimit, sy > lowLimit, sx < limitX, sy < limitY else {
                    kernel.fillPixel(out)
                    return
                }
                kernel.pixel(
                    out, Int(Int32(truncatingIfNeeded: (sx + magic).bitPattern)),
                    Int(Int32(truncatingIfNeeded: (sy + magic).bitPattern)))
            }
            /// The exact position of column `i` in 32.32 fixed point, or nil when it is far outside any image.
            @inline(__always) func exactFixed(_ i: Int) -> (x: Int64, y: Int64)? {
                let fi = Double(i)
                let inverse = 1 / (w0 + m6 * fi)
                let sx = (u0 + m0 * fi) * inverse - 0.5, sy = (v0 + m3 * fi) * inverse - 0.5
                guard abs(sx) < 1_048_576, abs(sy) < 1_048_576 else { return nil }
                return (Int64(sx * fixedOne), Int64(sy * fixedOne))
            }

            // The span length for this tile of this row, from the bound on |f″| (see the function's documentation).
            let wA = w0 + m6 * Double(tile), wB = w0 + m6 * Double(tileEnd)
            var span = 0
            if finite && (wA > 0) == (wB > 0) && wA != 0 && wB != 0 {
                let minW = min(abs(wA), abs(wB))
                let curvature = 2 * abs(m6) * max(abs(u0 * m6 - m0 * w0), abs(v0 * m6 - m3 * w0)) / (minW * minW * minW)
                let longest = curvature > 0 ? (8 * spanTolerance / curvature).squareRoot() : 32
                span = longest.isFinite ? Int(min(32, longest)) : 0
            }
            guard span >= 2 else {
                for i in tile..<tileEnd { exactPixel(i) }
                continue
            }
            var s = tile
            var start = exactFixed(s)
            while s < tileEnd {
                let e = min(tileEnd, s + span), n = e - s
                let end = exactFixed(e)
                defer {
                    start = end
                    s = e
                }
                guard let a = start, let b = end else {
                    for i in s..<e { exactPixel(i) }
                    continue
                }
                let dx = (b.x - a.x) / Int64(n), dy = (b.y - a.y) / Int64(n)
                var x = a.x + fixedRounding, y = a.y + fixedRounding
                let out = row + s * channels
                // Columns advance linearly, so if both ends of the span sit inside, every column does.
                let lastXs = x + Int64(n - 1) * dx, lastYs = y + Int64(n - 1) * dy
                if kernel.isInterior(x >> 32, y >> 32) && kernel.isInterior(lastXs >> 32, lastYs >> 32) {
                    for k in 0..<n {
                        kernel.interiorPixel(
                            out + k * channels, Int(truncatingIfNeeded: x >> (32 - bits)),
                            Int(truncatingIfNeeded: y >> (32 - bits)))
                        x &+= dx
                        y &+= dy
                    }
                } else {
                    for k in 0..<n {
                        let fx = Int(truncatingIfNeeded: x >> (32 - bits))
                        let fy = Int(truncatingIfNeeded: y >> (32 - bits))
                        if Double(fx) > lowLimit && Double(fy) > lowLimit && Double(fx) < limitX
                            && Double(fy) < limitY
                        {
                            kernel.pixel(out + k * channels, fx, fy)
                        } else {
                            kernel.fillPixel(out + k * channels)
                        }
                        x &+= dx
                        y &+= dy
                    }
                }
            }
        }
    }
}

/// The per-pixel work of the 8-bit warp: source taps and fixed-point bilinear interpolation.
struct WarpKernelUInt8 {
    /// Positions and weights are in 1/2^fractionBits pixel.
    static let fractionBits = 10

    let source: UnsafePointer<UInt8>
    let sourceStride: Int
    let channels: Int
    let lastX: Int
    let lastY: Int
    let fill: UInt8

    /// Whether the 2 × 2 taps at `(x0, y0)` all lie inside the source.
    @inline(__always)
    func isInterior(_ x0: Int64, _ y0: Int64) -> Bool {
        // One unsigned comparison per axis: a negative value wraps to a huge one.
        UInt64(bitPattern: x0) < UInt64(lastX) && UInt64(bitPattern: y0) < UInt64(lastY)
    }

    @inline(__always)
    func fillPixel(_ out: UnsafeMutablePointer<UInt8>) {
        for c in 0..<channels { out[c] = fill }
    }

    /// The pixel at a source position `(fx, fy)` in 1/1024 pixel whose 2 × 2 taps are all inside.
    @inline(__always)
    func interiorPixel(_ out: UnsafeMutablePointer<UInt8>, _ fx: Int, _ fy: Int) {
        let bits = WarpKernelUInt8.fractionBits, mask = (1 << bits) - 1
        let x0 = fx >> bits, y0 = fy >> bits
        let ax = Int32(truncatingIfNeeded: fx & mask), ay = Int32(truncatingIfNeeded: fy & mask)
        let p0 = source + (y0 &* sourceStride &+ x0 &* channels)
        let p1 = p0 + sourceStride
        if channels == 3 {
            out[0] = interpolate(p0[0], p0[3], p1[0], p1[3], ax, ay)
            out[1] = interpolate(p0[1], p0[4], p1[1], p1[4], ax, ay)
            out[2] = interpolate(p0[2], p0[5], p1[2], p1[5], ax, ay)
        } else {
            for c in 0..<channels {
                out[c] = interpolate(p0[c], p0[c + channels], p1[c], p1[c + channels], ax, ay)
            }
        }
    }

    /// The pixel at a source position `(fx, fy)` in 1/1024 pixel inside `(−1, width) × (−1, height)`; taps outside
    /// the source read the fill value.
    @inline(__always)
    func pixel(_ out: UnsafeMutablePointer<UInt8>, _ fx: Int, _ fy: Int) {
        let bits = WarpKernelUInt8.fractionBits, mask = (1 << bits) - 1
        let x0 = fx >> bits, y0 = fy >> bits
        if isInterior(Int64(x0), Int64(y0)) {
            interiorPixel(out, fx, fy)
            return
        }
        let ax = Int32(truncatingIfNeeded: fx & mask), ay = Int32(truncatingIfNeeded: fy & mask)
        func tap(_ x: Int, _ y: Int, _ c: Int) -> UInt8 {
            x >= 0 && y >= 0 && x <= lastX && y <= lastY ? source[y * sourceStride + x * channels + c] : fill
        }
        for c in 0..<channels {
            out[c] = interpolate(
                tap(x0, y0, c), tap(x0 + 1, y0, c), tap(x0, y0 + 1, c), tap(x0 + 1, y0 + 1, c), ax, ay)
        }
    }

    /// Bilinear interpolation of four taps with weights `ax, ay ∈ 0…1024`, rounded half up.
    ///
    /// `top·1024 + (bottom − top)·ay` equals the four-weight sum exactly, with one multiply per stage.
    @inline(__always)
    func interpolate(_ p00: UInt8, _ p10: UInt8, _ p01: UInt8, _ p11: UInt8, _ ax: Int32, _ ay: Int32) -> UInt8 {
        let bits = Int32(WarpKernelUInt8.fractionBits)
        let a = Int32(p00), b = Int32(p01)
        let top = (a << bits) &+ (Int32(p10) &- a) &* ax
        let bottom = (b << bits) &+ (Int32(p11) &- b) &* ax
        let value = (top << bits) &+ (bottom &- top) &* ay &+ (1 << (2 * bits - 1))
        return UInt8(truncatingIfNeeded: value >> (2 * bits))
    }
}
