import Imaging
import Sensor

/// The flash and the ambient raw frame of a Constant Color capture read side by side, pixel by pixel:
/// electron rates of both, (DN − black) / gain / time, with the ambient frame resampled at x + d (the
/// registration shift, bilinear, samples outside clamped to the border), and whether the pixel
/// clipped (any channel at the white level in the flash frame, or in an ambient sample the
/// interpolation weighs).
///
/// The pipeline's passes compute these again from the 16-bit frames each time they need them instead
/// of keeping rate, resampled-ambient, flash-only and clip planes: at 12 MP each float plane is
/// 145 MB, and writing, first touching and reading it back cost more than the dozen loads and
/// conversions that remake a pixel. The arithmetic is the same in every pass, so the passes agree.
struct FramePair: @unchecked Sendable {
    /// One pixel of the pair.
    struct Sample {
        /// Flash-frame rates, e⁻/s.
        var flash: SIMD3<Float>
        /// Ambient-frame rates at x + d, e⁻/s.
        var ambient: SIMD3<Float>
        /// Clipped in either frame.
        var clipped: Bool
    }

    /// Start of the pixel rows of a sample's row in each frame.
    struct Row {
        let flash: Int, ambient0: Int, ambient1: Int
    }

    private let flash: UnsafePointer<UInt16>
    /// The ambient frame's DN, 3 per pixel (`Reach` reads it).
    let ambient: UnsafePointer<UInt16>
    let width: Int, height: Int
    /// Rates per DN above black of the flash and the ambient frame; black and white levels, DN.
    let scaleF: Float, scaleA: Float, black: Float, white: UInt16
    /// The shift's whole pixels and fractions (x + d = x + ix + ax).
    let ix: Int, iy: Int, ax: Float, ay: Float

    /// Calls `body` with the pair of `flash` and `ambient` (same size), the ambient one sampled at x + `shift`.
    static func with<R>(
        flash: SensorReadout, ambient: SensorReadout, shift: SIMD2<Double>, noise: NoiseParameters, _ body: (FramePair) -> R
    ) -> R {
        precondition(flash.width == ambient.width && flash.height == ambient.height, "frames must match")
        let pixels = flash.width * flash.height
        precondition(flash.dn.count >= 3 * pixels && ambient.dn.count >= 3 * pixels, "three values per pixel")
        return flash.dn.withUnsafeBufferPointer { fb in
            ambient.dn.withUnsafeBufferPointer { ab in
                guard let f = fb.baseAddress, let a = ab.baseAddress else {
                    preconditionFailure("a frame needs at least one pixel")
                }
                let fx = shift.x.rounded(.down), fy = shift.y.rounded(.down)
                let pair = FramePair(
                    flash: f, ambient: a, width: flash.width, height: flash.height,
                    scaleF: Float(1 / (noise.gain(iso: flash.exposure.iso) * flash.exposure.time)),
                    scaleA: Float(1 / (noise.gain(iso: ambient.exposure.iso) * ambient.exposure.time)),
                    black: Float(noise.blackLevel), white: UInt16(min(noise.whiteLevel, 65535)),
                    ix: Int(fx), iy: Int(fy), ax: Float(shift.x - fx), ay: Float(shift.y - fy))
                return body(pair)
            }
        }
    }

    /// The rows sampled for output row `y`.
    @inline(__always)
    func row(_ y: Int) -> Row {
        let y0 = min(max(y + iy, 0), height - 1), y1 = min(max(y + iy + 1, 0), height - 1)
        return Row(flash: y * width, ambient0: y0 * width, ambient1: y1 * width)
    }

    /// The pixel at column `x` of `row`.
    @inline(__always)
    func sample(_ x: Int, _ row: Row) -> Sample {
        let p = 3 * (row.flash + x)
        let r = flash[p], g = flash[p + 1], b = flash[p + 2]
        let rateF = (SIMD3(Float(r), Float(g), Float(b)) - black) * scaleF
        var clipped = max(r, g, b) >= white
        let x0 = min(max(x + ix, 0), width - 1), x1 = min(max(x + ix + 1, 0), width - 1)
        let i00 = 3 * (row.ambient0 + x0), i10 = 3 * (row.ambient0 + x1)
        let i01 = 3 * (row.ambient1 + x0), i11 = 3 * (row.ambient1 + x1)
        @inline(__always) func dn(_ i: Int) -> SIMD3<Float> {
            SIMD3(Float(ambient[i]), Float(ambient[i + 1]), Float(ambient[i + 2]))
        }
        @inline(__always) func clip(_ i: Int) -> Float {
            max(ambient[i], ambient[i + 1], ambient[i + 2]) >= white ? 1 : 0
        }
        let p00 = dn(i00), p10 = dn(i10), p01 = dn(i01), p11 = dn(i11)
        let top = p00 + ax * (p10 - p00), bottom = p01 + ax * (p11 - p01)
        let rateA = (top + ay * (bottom - top) - black) * scaleA
        if !clipped {
            let c00 = clip(i00), c10 = clip(i10), c01 = clip(i01), c11 = clip(i11)
            let ct = c00 + ax * (c10 - c00), cb = c01 + ax * (c11 - c01)
            clipped = ct + ay * (cb - ct) > 0
        }
        return Sample(flash: rateF, ambient: rateA, clipped: clipped)
    }

    /// One output row at a time: the flash rates, the ambient rates at x + d and the clip flags of
    /// every pixel of the row, in buffers a pass reads back. The ambient frame's horizontal
    /// interpolation of a source row is kept for the next output row, which reads that source row
    /// again as its upper neighbour: each source row is interpolated once, not twice. Same
    /// arithmetic as `sample`, so the same values bit for bit.
    final class Rows {
        /// Flash-frame rates of the row, 3 per pixel.
        let flash: UnsafeMutablePointer<Float>
        /// Ambient rates at x + d, 3 per pixel.
        let ambient: UnsafeMutablePointer<Float>
        /// Clipped in either frame.
        let clipped: UnsafeMutablePointer<Bool>
        /// The lowest and the highest ambient rates within reach of x + d, when the rows were made with
        /// `keepsReach` (else nil).
        let reach: Reach?
        private var upper: UnsafeMutablePointer<Float>, lower: UnsafeMutablePointer<Float>
        #if !arch(x86_64) || OBSCURA_PORTABLE
        /// The row converted for `interpolate`'s portable path (the vector path converts as it goes).
        private let converted: UnsafeMutablePointer<Float>
        #endif
        private var upperRow = -1, lowerRow = -1
        private let pair: FramePair

        /// Rows of `pair`; `keepsReach` also fills `reach`.
        init(_ pair: FramePair, keepsReach: Bool = false) {
            self.pair = pair
            let w = pair.width
            reach = keepsReach ? Reach(pair) : nil
            // One spare value: `load` stores four lanes per pixel, the fourth overwritten by the next pixel, and
            // `ConstantColorPipeline.addRowSums` loads four lanes at the last pixel.
            flash = .allocate(capacity: 3 * w + 1)
            ambient = .allocate(capacity: 3 * w + 1)
            clipped = .allocate(capacity: w)
            upper = .allocate(capacity: 4 * w)
            lower = .allocate(capacity: 4 * w)
            #if !arch(x86_64) || OBSCURA_PORTABLE
            converted = .allocate(capacity: 4 * w)
            #endif
        }

        deinit {
            for p in [flash, ambient, upper, lower] { p.deallocate() }
            clipped.deallocate()
            #if !arch(x86_64) || OBSCURA_PORTABLE
            converted.deallocate()
            #endif
        }

        /// Fills the buffers for output row `y`.
        func load(_ y: Int) {
            let w = pair.width, white = pair.white, black = pair.black
            let y0 = min(max(y + pair.iy, 0), pair.height - 1), y1 = min(max(y + pair.iy + 1, 0), pair.height - 1)
            if y0 == lowerRow {
                swap(&upper, &lower)
                swap(&upperRow, &lowerRow)
            }
            if upperRow != y0 {
                interpolate(y0, into: upper)
                upperRow = y0
            }
            if lowerRow != y1 {
                interpolate(y1, into: lower)
                lowerRow = y1
            }
            let ay = pair.ay, scaleA = pair.scaleA, scaleF = pair.scaleF
            var source = pair.flash + 3 * y * w
            var top = UnsafeRawPointer(upper), bottom = UnsafeRawPointer(lower)
            var f = UnsafeMutableRawPointer(flash), a = UnsafeMutableRawPointer(ambient)
            // Four lanes per pixel, each lane the scalar operation (so the same values bit for bit); the fourth
            // lane of each store is overwritten by the next pixel's (the buffers have one value to spare).
            let blackLanes = SIMD4<Float>(repeating: black)
            #if arch(x86_64) && !OBSCURA_PORTABLE
            // The three DN as 32-bit integers from one 8-byte load (its fourth value, the next pixel's, is
            // masked off); the frame's very last pixel, whose load would reach past the frame, takes the
            // scalar path. Clipped: a DN at the white level (exact in Float; the fourth lane is 0) or the ambient
            // clip weight (lane 3 of v) above 0, two compares of four lanes.
            let vectorEnd = y == pair.height - 1 ? w - 1 : w
            let whiteF = Float(white)
            let whiteLanes = SIMD4<Float>(repeating: whiteF)
            let clipLimits = SIMD4<Float>(.infinity, .infinity, .infinity, 0)
            for x in 0..<vectorEnd {
                let dn = Lanes.threeWords(source)
                f.storeBytes(of: (dn - blackLanes) * scaleF, as: SIMD4<Float>.self)
                let t = top.loadUnaligned(as: SIMD4<Float>.self)
                let u = bottom.loadUnaligned(as: SIMD4<Float>.self)
                let v = t + ay * (u - t)
                a.storeBytes(of: (v - blackLanes) * scaleA, as: SIMD4<Float>.self)
                clipped[x] = Lanes.greaterOrEqual(dn, whiteLanes) | Lanes.greaterThan(v, clipLimits) != 0
                source += 3
                f += 12
                a += 12
                top += 16
                bottom += 16
            }
            #else
            let vectorEnd = 0
            #endif
            for x in vectorEnd..<w {
                let r = source[0], g = source[1], b = source[2]
                let dn = SIMD4<Float>(Float(r), Float(g), Float(b), 0)
                f.storeBytes(of: (dn - blackLanes) * scaleF, as: SIMD4<Float>.self)
                let t = top.loadUnaligned(as: SIMD4<Float>.self)
                let u = bottom.loadUnaligned(as: SIMD4<Float>.self)
                let v = t + ay * (u - t)
                a.storeBytes(of: (v - blackLanes) * scaleA, as: SIMD4<Float>.self)
                clipped[x] = max(r, g, b) >= white || v[3] > 0
                source += 3
                f += 12
                a += 12
                top += 16
                bottom += 16
            }
            reach?.load(y)
        }

        /// The horizontal interpolation at x + dₓ of ambient source row `y`: DN of the three
        /// channels and the clip indicator, 4 per pixel, each source pixel converted to those four
        /// floats once (not once per neighbour that reads it) and interpolated four values at a time.
        private func interpolate(_ y: Int, into out: UnsafeMutablePointer<Float>) {
            let w = pair.width, ix = pair.ix, ax = pair.ax, white = pair.white
            let row = pair.ambient + 3 * y * w
            let target = UnsafeMutableRawPointer(out)
            // Columns whose two neighbours x + ix and x + ix + 1 both lie inside the row need no clamping.
            let inner = max(0, min(w, -ix))..<max(max(0, min(w, -ix)), min(w, w - 1 - ix))
            #if arch(x86_64) && !OBSCURA_PORTABLE
            // Source pixel i as (r, g, b, clip), the scalar conversion (for the few clamped columns at the ends).
            @inline(__always) func pixel(_ i: Int) -> SIMD4<Float> {
                let p = row + 3 &* i
                let r = p[0], g = p[1], b = p[2]
                return SIMD4(Float(r), Float(g), Float(b), max(r, g, b) >= white ? 1 : 0)
            }
            @inline(__always) func lerp(_ x: Int, _ p0: SIMD4<Float>, _ p1: SIMD4<Float>) {
                target.storeBytes(of: p0 + ax * (p1 - p0), toByteOffset: 16 &* x, as: SIMD4<Float>.self)
            }
            // The inner columns convert each source pixel once, as the right neighbour of one column and then
            // the left neighbour of the next, from one 8-byte load (its fourth value masked off): the same floats
            // (DN are exact in Float, so the clip compare on Floats is the integer one). The frame's very last
            // pixel, whose load would reach past the frame, is left to the scalar conversion.
            let vectorEnd = y == pair.height - 1 ? max(inner.lowerBound, inner.upperBound - 1) : inner.upperBound
            @inline(__always) func clamped(_ x: Int) {
                lerp(x, pixel(min(max(x + ix, 0), w - 1)), pixel(min(max(x + ix + 1, 0), w - 1)))
            }
            for x in 0..<inner.lowerBound { clamped(x) }
            if inner.lowerBound < vectorEnd {
                let whiteLanes = SIMD4<Float>(repeating: Float(white)), clipOne = SIMD4<Float>(0, 0, 0, 1)
                var source = UnsafeRawPointer(row + 3 &* (inner.lowerBound &+ ix))
                @inline(__always) func loaded() -> SIMD4<Float> {
                    let dn = Lanes.threeWords(source)
                    // Any of lanes 0–2 at the white level (lane 3, 0, never is) sets lane 3 to 1.
                    return Lanes.greaterOrEqual(dn, whiteLanes) != 0 ? Lanes.bitwiseOr(dn, clipOne) : dn
                }
                var left = loaded()
                for x in inner.lowerBound..<vectorEnd {
                    source += 6
                    let right = loaded()
                    lerp(x, left, right)
                    left = right
                }
            }
            for x in vectorEnd..<w { clamped(x) }
            #else
            var source = row, c = converted
            for _ in 0..<w {
                let r = source[0], g = source[1], b = source[2]
                c[0] = Float(r)
                c[1] = Float(g)
                c[2] = Float(b)
                c[3] = max(r, g, b) >= white ? 1 : 0
                source += 3
                c += 4
            }
            let values = UnsafeRawPointer(converted)
            @inline(__always) func lerp(_ x: Int, _ i0: Int, _ i1: Int) {
                let p0 = values.loadUnaligned(fromByteOffset: 16 &* i0, as: SIMD4<Float>.self)
                let p1 = values.loadUnaligned(fromByteOffset: 16 &* i1, as: SIMD4<Float>.self)
                target.storeBytes(of: p0 + ax * (p1 - p0), toByteOffset: 16 &* x, as: SIMD4<Float>.self)
            }
            for x in 0..<inner.lowerBound { lerp(x, min(max(x + ix, 0), w - 1), min(max(x + ix + 1, 0), w - 1)) }
            for x in inner { lerp(x, x &+ ix, x &+ ix &+ 1) }
            for x in inner.upperBound..<w { lerp(x, min(max(x + ix, 0), w - 1), min(max(x + ix + 1, 0), w - 1)) }
            #endif
        }
    }

    /// Green rates of both frames averaged over blocks of 2ˢ × 2ˢ pixels (the unshifted frames; the
    /// registration's finest level), row-major (width >> s) × (height >> s).
    static func greenBlocks(_ frame: SensorReadout, noise: NoiseParameters, reduction s: Int) -> [Float] {
        let scale = Float(1 / (noise.gain(iso: frame.exposure.iso) * frame.exposure.time))
        let black = Float(noise.blackLevel)
        let n = 1 << s, width = frame.width
        let w = frame.width >> s, h = frame.height >> s
        // A sum of at most 4⁷ · 65,535 < 2³² is exact in UInt32; in Float it rounds only above 2²⁴
        // (s > 3), far below the noise.
        let inverse = 1 / Float(n * n)
        return frame.dn.withUnsafeBufferPointer { buffer -> [Float] in
            let dn = SharedReadPointer(buffer)
            return BandParallel.fill(count: w * h, rows: h, of: Float.self) { rows, out in
                for y in rows {
                    if n == 1 {
                        // Full resolution: the rates themselves (the general loop's arithmetic).
                        for x in 0..<w { out[y * w + x] = (Float(dn.base[3 * (y * width + x) + 1]) - black) * scale }
                        continue
                    }
                    // Plain pointer steps (the indices stay inside the frame checked above); the integer sum is
                    // exact in any order.
                    let target = out + y * w
                    #if arch(x86_64) && !OBSCURA_PORTABLE
                    if n == 4 {
                        blocks4(from: dn.base + 3 * (y * 4 * width), width: width, count: w, into: target) {
                            (Float($0) * inverse - black) * scale
                        }
                        continue
                    }
                    #endif
                    var block = dn.base + 3 * (y * n * width) + 1
                    for x in 0..<w {
                        var sum: UInt32 = 0
                        var row = block
                        for _ in 0..<n {
                            var value = row
                            for _ in 0..<n {
                                sum &+= UInt32(value.pointee)
                                value += 3
                            }
                            row += 3 &* width
                        }
                        target[x] = (Float(sum) * inverse - black) * scale
                        block += 3 &* n
                    }
                }
            }
        }
    }

    #if arch(x86_64) && !OBSCURA_PORTABLE
    /// The green sums of `count` blocks of 4 × 4 pixels starting at `start` (a pixel's red value; rows `width`
    /// pixels apart), each passed through `rate` into `target`. The four rows of a block are added first as
    /// whole runs of twelve 32-bit values (one 16-byte and one 8-byte load per row, all inside the block), then
    /// the four greens of the column sums (values 1, 4, 7, 10) are added: an exact integer sum, so the same as
    /// any other order.
    @inline(__always)
    private static func blocks4(
        from start: UnsafePointer<UInt16>, width: Int, count: Int, into target: UnsafeMutablePointer<Float>,
        rate: (UInt32) -> Float
    ) {
        let rowBytes = 6 &* width
        var block = UnsafeRawPointer(start)
        for x in 0..<count {
            var v0 = SIMD4<UInt32>.zero, v1 = SIMD4<UInt32>.zero, v2 = SIMD4<UInt32>.zero
            var row = block
            for _ in 0..<4 {
                Lanes.addTwelveWords(row, to: &v0, &v1, &v2)
                row += rowBytes
            }
            target[x] = rate(v0[1] &+ v1[0] &+ v1[3] &+ v2[2])
            block += 24
        }
    }
    #endif
}
