/// The bilinear warp of `PixelPlane.warpedPerspective` for 8-bit planes: raw code values in fixed point.
///
/// Same sampling positions and border rule as the generic path. The scheme is the classic one of fast warpers
/// (OpenCV's `warpPerspective` also rounds positions to fixed point, 1/32 pixel, and interpolates in integers), with
/// finer steps so the result stays within one code of exact bilinear interpolation:
///
/// - Positions. Along an output row, `x′`, `y′` and `w′` of the homography advance by constants, so the source
///   position `f(t) = (a + bt)/(c + dt)` is a smooth function of the column `t`, with
///   `|f″| = 2|d(ad − bc)|/|c + dt|³` and `|f‴| = 6d²|ad − bc|/|c + dt|⁴`. For each 256-column tile of a row:
///   when the quadratic through the exact (Double) positions at the tile's ends and middle errs by at most
///   `L³ · max|f‴| / (72√3)` ≤ `spanTolerance` = 1/1024 pixel, the tile follows that quadratic by second-order
///   forward differences in 32.32 fixed point (the usual case: for the 12 MP benchmark the bound is under 10⁻⁵
///   pixel); otherwise positions are exact at the ends of spans and linear in between, linear interpolation over
///   `L` pixels erring by at most `L² · max|f″| / 8`, with the longest span (at most 32) keeping that within the
///   tolerance. Tiles where `w′` changes sign, or where spans would be shorter than 2 pixels, use the exact position
///   of every pixel.
/// - Rounding. Positions are rounded to 1/1024 pixel (`fractionBits`): at most 1/2048 pixel per axis.
/// - Interpolation. Fractions `ax, ay ∈ 0…1023` (in 1/1024) give four weights in 1/16384 summing to 16384, of which
///   only the product term is rounded (`WarpKernelUInt8.weightPairs`, at most 0.016 code); the weighted sum of the
///   four taps is exact in 32-bit integers and rounded half up. RGB tiles wholly inside the source do the same
///   arithmetic on the three channels at once, two taps per 32-bit lane (`Lanes.bilinearRGB`), so every path gives
///   the same bytes.
///
/// Error budget against exact bilinear interpolation at the exact position: the position errs by less than
/// 1/1024 + 1/2048 pixel per axis, which moves the value by at most `255 · 2 · 0.0015 ≈ 0.75` code on the steepest
/// possible edge (white noise between neighbours), and the weights' rounding by at most 0.016 more, so before
/// rounding the value is within one code, and after rounding within 1 code of the exactly rounded value (the tests
/// check this against a Double reference). Each output pixel depends only on its row and its 256-column tile, never
/// on the row bands, so results are identical for any thread count.
func warpRowsUInt8(
    source: UnsafePointer<UInt8>, sourceWidth: Int, sourceHeight: Int, sourceStride: Int, channels: Int,
    output: UnsafeMutablePointer<UInt8>, outputWidth: Int, outputStride: Int, rows: Range<Int>, m: [Double],
    fill: UInt8
) {
    let kernel = WarpKernelUInt8(
        source: source, sourceStride: sourceStride, channels: channels, lastX: sourceWidth - 1,
        lastY: sourceHeight - 1, fill: fill)
    let m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7], m8 = m[8]
    let bits = WarpKernelUInt8.fractionBits
    let scale = Double(1 << bits)
    let lowLimit = -scale, limitX = Double(sourceWidth) * scale, limitY = Double(sourceHeight) * scale
    // Adding 1.5 · 2⁵² to a Double in ±2³¹ leaves it rounded to the nearest integer in the low mantissa bits, two's
    // complement: a rounding conversion in one addition, with no range trap (the guard bounds the value first).
    let magic = 6_755_399_441_055_744.0
    let fixedRounding = Int64(1) << (31 - bits)  // half a 1/1024 step, in 32.32
    let outside = Int32.min  // marks a column whose position lies outside (−1, width) × (−1, height)
    // Tiles of 256 columns × the band's rows: a slanted warp walks across many source rows along one output row,
    // and revisiting them tile by tile keeps them in cache (a tile's source rows, 256 × 3 bytes each, stay in L2).
    // Each tile row first gets its taps (offsets and weights; for the usual RGB tile straight from its quadratic,
    // otherwise through positions in 1/1024 pixel), then its pixels, in tight loops. Per tile row the set-up (three
    // exact positions, the error bounds, the range check) costs about as much as 25 pixels: 256 columns took 26 %
    // less CPU time than 64 on the 12 MP benchmark, and 512 or 1024 were no better than 256. A multiple of 4, as
    // `quadraticTaps` fills whole groups of four columns.
    let tileWidth = 256
    // Byte offsets of the hot loop are 32-bit; larger sources take the general path.
    let sourceBytes = sourceStride.multipliedReportingOverflow(by: sourceHeight)
    let compactOffsets = !sourceBytes.overflow && sourceBytes.partialValue < Int(Int32.max)
    // Tap coordinates and the row stride that fit signed 16-bit lanes let the quadratic tiles compute offsets with
    // one multiply-add of (x, y) pairs; wider sources take the position pass.
    let wordTaps = compactOffsets && sourceStride < 32768 && sourceWidth < 32768 && sourceHeight < 32768
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * tileWidth) { positions in
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * tileWidth) { weights in
            guard let xs = positions.baseAddress, let uppers = weights.baseAddress else { return }
            let ys = xs + tileWidth, offsets = ys + tileWidth, lowers = uppers + tileWidth
            for tile in stride(from: 0, to: outputWidth, by: tileWidth) {
                let tileEnd = min(outputWidth, tile + tileWidth)
                for j in rows {
                    let yc = Double(j) + 0.5
                    // Row origins (column 0, centre x = 0.5) and the per-column steps m0, m3, m6.
                    let u0 = m0 * 0.5 + m1 * yc + m2, v0 = m3 * 0.5 + m4 * yc + m5, w0 = m6 * 0.5 + m7 * yc + m8

                    /// Column `i`'s exact position in 1/1024 pixel, relative to sample centres, stored at `k`.
                    @inline(__always) func exactPosition(_ i: Int, _ k: Int) {
                        let fi = Double(i)
                        let inverse = scale / (w0 + m6 * fi)
                        let sx = (u0 + m0 * fi) * inverse - scale / 2, sy = (v0 + m3 * fi) * inverse - scale / 2
                        // NaN and infinities fail these comparisons too.
                        guard sx > lowLimit, sy > lowLimit, sx < limitX, sy < limitY else {
                            xs[k] = outside
                            return
                        }
                        xs[k] = Int32(truncatingIfNeeded: (sx + magic).bitPattern)
                        ys[k] = Int32(truncatingIfNeeded: (sy + magic).bitPattern)
                    }
                    let row = WarpRowPositions(u: u0, du: m0, v: v0, dv: m3, w: w0, dw: m6)
                    /// The exact position of column `i` in 32.32 fixed point, or nil when it is far outside any image.
                    @inline(__always) func exactFixed(_ i: Int) -> (x: Double, y: Double)? {
                        row.exactFixed(at: Double(i))
                    }

                    // One quadratic for the whole tile, or the span length (see the documentation above).
                    let count = tileEnd - tile
                    let (span, quadratic) = row.stepping(tile, tileEnd)
                    var allInterior = true, tapsReady = false
                    if quadratic, let q = row.fittedQuadratic(tile, tileEnd) {
                        let inside = q.isInside(width: sourceWidth, height: sourceHeight)
                        let (x, dx, ddx) = q.x, (y, dy, ddy) = q.y
                        if inside && channels == 3 && wordTaps {
                            // The usual tile: taps straight from the quadratic, with no position pass.
                            kernel.quadraticTaps(
                                x: (x, dx, ddx), y: (y, dy, ddy), count: count, into: (offsets, uppers, lowers))
                            tapsReady = true
                        } else {
                            var x = x, y = y, dx = dx, dy = dy
                            for k in 0..<count {
                                xs[k] = Int32(truncatingIfNeeded: x &>> (32 - bits))
                                ys[k] = Int32(truncatingIfNeeded: y &>> (32 - bits))
                                x &+= dx
                                y &+= dy
                                dx &+= ddx
                                dy &+= ddy
                            }
                        }
                        if !inside {
                            allInterior = false
                            for k in 0..<count {
                                let fx = Double(xs[k]), fy = Double(ys[k])
                                if !(fx > lowLimit && fy > lowLimit && fx < limitX && fy < limitY) {
                                    xs[k] = outside
                                }
                            }
                        }
                    } else if span >= 2 {
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
                                allInterior = false
                                for i in s..<e { exactPosition(i, i - tile) }
                                continue
                            }
                            let dx = Int64((b.x - a.x) / Double(n)), dy = Int64((b.y - a.y) / Double(n))
                            var x = Int64(a.x) + fixedRounding, y = Int64(a.y) + fixedRounding
                            // Columns advance linearly, so if both ends of the span sit inside, every column does.
                            let lastXs = x + Int64(n - 1) * dx, lastYs = y + Int64(n - 1) * dy
                            let inside =
                                kernel.isInterior(x >> 32, y >> 32)
                                && kernel.isInterior(lastXs >> 32, lastYs >> 32)
                            let k0 = s - tile
                            for k in k0..<(k0 + n) {
                                xs[k] = Int32(truncatingIfNeeded: x &>> (32 - bits))
                                ys[k] = Int32(truncatingIfNeeded: y &>> (32 - bits))
                                x &+= dx
                                y &+= dy
                            }
                            if !inside {
                                allInterior = false
                                for k in k0..<(k0 + n) {
                                    let fx = Double(xs[k]), fy = Double(ys[k])
                                    if !(fx > lowLimit && fy > lowLimit && fx < limitX && fy < limitY) {
                                        xs[k] = outside
                                    }
                                }
                            }
                        }
                    } else {
                        allInterior = false
                        for i in tile..<tileEnd { exactPosition(i, i - tile) }
                    }
                    let out = output + j * outputStride + tile * channels
                    if allInterior && channels == 3 && compactOffsets {
                        if !tapsReady { kernel.taps(xs, ys, count: count, into: (offsets, uppers, lowers)) }
                        kernel.interiorRun3(out, count: count, taps: (offsets, uppers, lowers))
                    } else {
                        for k in 0..<(tileEnd - tile) {
                            if xs[k] == outside {
                                kernel.fillPixel(out + k * channels)
                            } else {
                                kernel.pixel(out + k * channels, Int(xs[k]), Int(ys[k]))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The per-pixel work of the 8-bit warp: source taps and fixed-point bilinear interpolation.
package struct WarpKernelUInt8 {
    /// Positions and weights are in 1/2^fractionBits pixel. Computed, not stored, so that shifts by it fold to
    /// constants in the position loops (read from a stored static, they compiled to checked variable shifts).
    package static var fractionBits: Int { 10 }

    let source: UnsafePointer<UInt8>
    let sourceStride: Int
    let channels: Int
    let lastX: Int
    let lastY: Int
    let fill: UInt8

    /// A kernel reading `channels` bytes a pixel from `source`, `sourceStride` bytes a row, whose last column and row
    /// are `lastX` and `lastY`; taps outside read `fill`.
    package init(
        source: UnsafePointer<UInt8>, sourceStride: Int, channels: Int, lastX: Int, lastY: Int, fill: UInt8
    ) {
        (self.source, self.sourceStride, self.channels) = (source, sourceStride, channels)
        (self.lastX, self.lastY, self.fill) = (lastX, lastY, fill)
    }

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

    /// The four bilinear weights of the fractions `ax, ay ∈ 0…1023` (in 1/1024), in 1/16384, as the upper row's
    /// (left, right) and the lower row's (left, right) pairs, each pair two UInt16 with the left weight low.
    ///
    /// Only the product `ax · ay / 64` is rounded (half up); the others follow from it so that each row pair and each
    /// column pair sums exactly as the exact weights do, and the four sum to 16384. The rounding moves a value by at
    /// most `½ · |p00 − p10 − p01 + p11| / 16384 ≤ 510 / 32768 ≈ 0.016` code. Every weight is at most 16384, so
    /// the pairs fit the signed 16-bit multiply-add of the vector kernel.
    @inline(__always)
    static func weightPairs(_ ax: Int32, _ ay: Int32) -> (upper: UInt32, lower: UInt32) {
        let w11 = (ax &* ay &+ 32) >> 6
        let w10 = (ax << 4) &- w11, w01 = (ay << 4) &- w11
        let w00 = 16384 &- (ax << 4) &- (ay << 4) &+ w11
        let upper = UInt32(bitPattern: w00) | UInt32(bitPattern: w10) << 16
        return (upper, UInt32(bitPattern: w01) | UInt32(bitPattern: w11) << 16)
    }

    /// Where each of a run's pixels reads: the byte offset of its upper-left tap and its two weight pairs.
    package typealias Taps = (
        offsets: UnsafeMutablePointer<Int32>, uppers: UnsafeMutablePointer<UInt32>, lowers: UnsafeMutablePointer<UInt32>
    )

    /// The taps of `count` positions in 1/1024 pixel whose 2 × 2 taps are all inside, in a loop the compiler
    /// vectorises.
    @inline(never)
    func taps(_ xs: UnsafePointer<Int32>, _ ys: UnsafePointer<Int32>, count: Int, into taps: Taps) {
        let bits = Int32(WarpKernelUInt8.fractionBits), mask = Int32(1 << bits) - 1
        let stride = Int32(truncatingIfNeeded: sourceStride)
        for k in 0..<count {
            let fx = xs[k], fy = ys[k]
            taps.offsets[k] = (fy >> bits) &* stride &+ (fx >> bits) &* 3
            (taps.uppers[k], taps.lowers[k]) = WarpKernelUInt8.weightPairs(fx & mask, fy & mask)
        }
    }

    /// The taps of `count` RGB columns whose positions, in 32.32 fixed point, follow the forward differences
    /// `p(k + 1) = p(k) + d(k)`, `d(k + 1) = d(k) + dd` from `(p, d, dd)` of each axis, all inside the source; the
    /// coordinates and the row stride fit 16 bits.
    ///
    /// Four columns at a time in vector lanes, with no position pass. Lane `r` steps by four columns:
    /// `p(k) = p + k·d + dd·k(k − 1)/2` in wrapping integers, so `p(k + 4) − p(k) = 4d + dd·(4k + 6)`, itself growing
    /// by `16·dd`, reproduces the scalar recurrence exactly and the taps are those `taps(_:_:count:into:)` gives for
    /// the same positions. The weights are `weightPairs` lane by lane. Writes whole groups of four: the buffers hold
    /// `count` rounded up to a multiple of 4.
    @inline(never)
    package func quadraticTaps(
        x: (p: Int64, d: Int64, dd: Int64), y: (p: Int64, d: Int64, dd: Int64), count: Int, into taps: Taps
    ) {
        /// Lanes (r, r + 1) of an axis: positions and their four-column steps at column 0.
        func start(_ a: (p: Int64, d: Int64, dd: Int64), _ r: Int64) -> (SIMD2<Int64>, SIMD2<Int64>) {
            func p(_ r: Int64) -> Int64 { a.p &+ r &* a.d &+ a.dd &* (r &* (r &- 1) / 2) }
            func step(_ r: Int64) -> Int64 { 4 &* a.d &+ a.dd &* (4 &* r &+ 6) }
            return (SIMD2(p(r), p(r + 1)), SIMD2(step(r), step(r + 1)))
        }
        var (x01, dx01) = start(x, 0), (x23, dx23) = start(x, 2)
        var (y01, dy01) = start(y, 0), (y23, dy23) = start(y, 2)
        let ddx = SIMD2<Int64>(repeating: 16 &* x.dd), ddy = SIMD2<Int64>(repeating: 16 &* y.dd)
        let shift = 32 - WarpKernelUInt8.fractionBits, bits = Int32(WarpKernelUInt8.fractionBits)
        let mask = SIMD4<Int32>(repeating: (1 << bits) - 1)
        let strides = SIMD4<Int32>(repeating: Int32(channels) | Int32(truncatingIfNeeded: sourceStride) << 16)
        let offsets = UnsafeMutableRawPointer(taps.offsets), uppers = UnsafeMutableRawPointer(taps.uppers)
        let lowers = UnsafeMutableRawPointer(taps.lowers)
        for k in stride(from: 0, to: count, by: 4) {
            let fx = Lanes.lowWords(x01, x23, shiftedRight: shift), fy = Lanes.lowWords(y01, y23, shiftedRight: shift)
            // x · channels + y · stride as one multiply-add of the 16-bit pairs (x, y) and (channels, stride).
            let corner = (fx &>> bits) | (fy &>> bits) &<< 16
            offsets.storeBytes(of: Lanes.multiplyAddPairs(corner, strides), toByteOffset: 4 * k, as: SIMD4<Int32>.self)
            let ax = fx & mask, ay = fy & mask
            let w11 = (Lanes.multiplyAddPairs(ax, ay) &+ 32) &>> 6
            let ax16 = ax &<< 4, ay16 = ay &<< 4
            let w10 = ax16 &- w11, w01 = ay16 &- w11, w00 = (16384 &+ w11) &- (ax16 &+ ay16)
            uppers.storeBytes(of: w00 | w10 &<< 16, toByteOffset: 4 * k, as: SIMD4<Int32>.self)
            lowers.storeBytes(of: w01 | w11 &<< 16, toByteOffset: 4 * k, as: SIMD4<Int32>.self)
            x01 &+= dx01
            x23 &+= dx23
            y01 &+= dy01
            y23 &+= dy23
            dx01 &+= ddx
            dx23 &+= ddx
            dy01 &+= ddy
            dy23 &+= ddy
        }
    }

    /// `count` RGB pixels from their taps, all inside: the hot loop, kept out of line (inlined, it measured slower).
    ///
    /// Each pixel is one vector of 16-bit (code, code) pairs per source row, multiplied and added with its row's
    /// weight pair (`Lanes.bilinearRGB`): the integer arithmetic of `interpolate`, so this path and the plain one give
    /// the same bytes. Pixels go in twos, which share the packing and the loop's own steps. Each pixel is stored as a
    /// 4-byte word whose last byte the next pixel overwrites; the run's last pixel is stored byte by byte so that
    /// nothing outside it is touched.
    @inline(never)
    func interiorRun3(_ out: UnsafeMutablePointer<UInt8>, count: Int, taps: Taps) {
        guard count > 0 else { return }
        let source = UnsafeRawPointer(self.source), rowStride = sourceStride
        typealias Pixel = (p0: UnsafeRawPointer, p1: UnsafeRawPointer, upper: UInt32, lower: UInt32)
        @inline(__always) func pixel(_ k: Int) -> Pixel {
            let p0 = source + Int(taps.offsets[k])
            return (p0, p0 + rowStride, taps.uppers[k], taps.lowers[k])
        }
        var target = UnsafeMutableRawPointer(out)
        var k = 0
        while k + 2 < count {
            let two = Lanes.bilinearRGB(pixel(k), pixel(k + 1))
            target.storeBytes(of: UInt32(truncatingIfNeeded: two), as: UInt32.self)
            target.storeBytes(of: UInt32(truncatingIfNeeded: two >> 32), toByteOffset: 3, as: UInt32.self)
            target += 6
            k += 2
        }
        if k + 1 < count {
            let (p0, p1, upper, lower) = pixel(k)
            target.storeBytes(of: Lanes.bilinearRGB(p0, p1, upper: upper, lower: lower), as: UInt32.self)
            target += 3
            k += 1
        }
        let (p0, p1, upper, lower) = pixel(k)
        let last = Lanes.bilinearRGB(p0, p1, upper: upper, lower: lower)
        target.storeBytes(of: UInt16(truncatingIfNeeded: last), as: UInt16.self)
        target.storeBytes(of: UInt8(truncatingIfNeeded: last >> 16), toByteOffset: 2, as: UInt8.self)
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

    /// Bilinear interpolation of four taps with fractions `ax, ay ∈ 0…1023` (in 1/1024): the weights of
    /// `weightPairs`, the sum rounded half up.
    @inline(__always)
    func interpolate(_ p00: UInt8, _ p10: UInt8, _ p01: UInt8, _ p11: UInt8, _ ax: Int32, _ ay: Int32) -> UInt8 {
        let (upper, lower) = WarpKernelUInt8.weightPairs(ax, ay)
        let sum =
            UInt32(p00) &* (upper & 0xFFFF) &+ UInt32(p10) &* (upper >> 16) &+ UInt32(p01) &* (lower & 0xFFFF)
            &+ UInt32(p11) &* (lower >> 16)
        return UInt8(truncatingIfNeeded: (sum &+ 8192) >> 14)
    }
}
