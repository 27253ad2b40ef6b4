#if arch(x86_64) && !OBSCURA_PORTABLE
import _Builtin_intrinsics.intel
#endif

/// Vector steps on a few lanes, each lane the scalar IEEE or integer operation, so the results are bit for bit those
/// of the scalar code: the one file that names processor intrinsics.
///
/// Why they exist: under the x86-64 baseline the standard library's generic vector square root, comparisons,
/// conversions and integer bit tricks go lane by lane through scalar code, which made the pixel loops several times
/// slower. Every step has a portable body, the same values written lane by lane; building with `OBSCURA_PORTABLE`
/// (or on another architecture) selects it, and the differential tests compare the two. A few steps serve only
/// vector kernels that have a separate scalar loop for the portable build, and exist only where that kernel does.
///
/// Public, because the pixel loops of Sensor and ISP must inline them across modules, which the release build does
/// for public `@inlinable` code but did not for `package` code.
public enum Lanes {
    #if arch(x86_64) && !OBSCURA_PORTABLE
    /// The correctly rounded square root of each lane.
    @inlinable @inline(__always) public static func squareRoot(_ x: SIMD4<Float>) -> SIMD4<Float> { _mm_sqrt_ps(x) }
    /// Each lane `x < y ? x : y` (y where x is NaN).
    @inlinable @inline(__always) public static func minimum(_ x: SIMD4<Float>, _ y: Float) -> SIMD4<Float> {
        _mm_min_ps(x, SIMD4(repeating: y))
    }
    /// Each lane `x > y ? x : y` (y where x is NaN).
    @inlinable @inline(__always) public static func maximum(_ x: SIMD4<Float>, _ y: Float) -> SIMD4<Float> {
        _mm_max_ps(x, SIMD4(repeating: y))
    }
    /// Each lane `x < y ? x : y` (y where either is NaN).
    @inlinable @inline(__always) public static func minimum(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        _mm_min_ps(x, y)
    }
    /// Each lane `x > y ? x : y` (y where either is NaN).
    @inlinable @inline(__always) public static func maximum(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        _mm_max_ps(x, y)
    }
    /// Bit i set where lane i of x is below y.
    @inlinable @inline(__always) public static func lessThan(_ x: SIMD4<Float>, _ y: Float) -> Int32 {
        _mm_movemask_ps(_mm_cmplt_ps(x, SIMD4(repeating: y)))
    }
    /// Bit i set where lane i of x is at least lane i of y.
    @inlinable @inline(__always) public static func greaterOrEqual(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> Int32 {
        _mm_movemask_ps(_mm_cmpge_ps(x, y))
    }
    /// Bit i set where lane i of x is above lane i of y.
    @inlinable @inline(__always) public static func greaterThan(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> Int32 {
        _mm_movemask_ps(_mm_cmpgt_ps(x, y))
    }
    /// The bitwise or of the lanes' patterns.
    @inlinable @inline(__always) public static func bitwiseOr(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        _mm_or_ps(x, y)
    }
    /// Lanes 0–2 of x (each in 0…65535.5), truncated, as three UInt16 at `target`.
    @inlinable @inline(__always) public static func storeTruncated(
        _ x: SIMD4<Float>, to target: UnsafeMutablePointer<UInt16>
    ) {
        // Signed saturation in the pack: shift to −32768…32767 first, then back by flipping the top bit.
        let n = _mm_sub_epi32(_mm_cvttps_epi32(x), _mm_set1_epi32(0x8000))
        let words = _mm_xor_si128(_mm_packs_epi32(n, n), _mm_set1_epi16(Int16.min))
        let bits = UInt64(bitPattern: _mm_cvtsi128_si64(words))
        let raw = UnsafeMutableRawPointer(target)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: bits), as: UInt32.self)
        raw.storeBytes(of: UInt16(truncatingIfNeeded: bits >> 32), toByteOffset: 4, as: UInt16.self)
    }
    /// Lanes 0–2 of x as three Floats at `target`.
    @inlinable @inline(__always) public static func store3(_ x: SIMD4<Float>, to target: UnsafeMutablePointer<Float>) {
        let raw = UnsafeMutableRawPointer(target)
        raw.storeBytes(of: _mm_cvtsi128_si64(_mm_castps_si128(x)), as: Int64.self)
        raw.storeBytes(of: _mm_cvtss_f32(_mm_movehl_ps(x, x)), toByteOffset: 8, as: Float.self)
    }
    /// The three UInt16 at `p` as Floats (exact), lane 3 zero. Reads eight bytes: the caller keeps the fourth
    /// value inside memory it may read.
    @inlinable @inline(__always) public static func threeWords(_ p: UnsafeRawPointer) -> SIMD4<Float> {
        let packed = _mm_loadl_epi64(UnsafePointer<SIMD2<Int64>>(OpaquePointer(p)))
        let words = _mm_and_si128(_mm_unpacklo_epi16(packed, _mm_setzero_si128()), _mm_set_epi32(0, -1, -1, -1))
        return _mm_cvtepi32_ps(words)
    }
    /// Red, green and blue of four pixels held as (r, g, b, unused) in p0…p3, one vector per channel (a 4 × 4
    /// transposition without its last row).
    @inlinable @inline(__always) public static func transposed3(
        _ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>, _ p3: SIMD4<Float>
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let t0: SIMD4<Float> = _mm_unpacklo_ps(p0, p1), t1: SIMD4<Float> = _mm_unpacklo_ps(p2, p3)
        let t2: SIMD4<Float> = _mm_unpackhi_ps(p0, p1), t3: SIMD4<Float> = _mm_unpackhi_ps(p2, p3)
        return (_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3))
    }
    /// (x0, y0, x1, y1).
    @inlinable @inline(__always)
    public static func interleavedLow(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        _mm_unpacklo_ps(x, y)
    }
    /// (x2, x3, y2, y3).
    @inlinable @inline(__always) public static func highHalves(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        _mm_movehl_ps(y, x)
    }
    /// Lanes 0 and 1 widened to Double (exact).
    @inlinable @inline(__always) public static func widenedLow(_ x: SIMD4<Float>) -> SIMD2<Double> { _mm_cvtps_pd(x) }
    /// Both lanes rounded to Float (to nearest, as `Float(_:)`).
    @inlinable @inline(__always) public static func narrowed(_ x: SIMD2<Double>) -> SIMD2<Float> {
        let f = _mm_cvtpd_ps(x)
        return SIMD2(f.x, f.y)
    }
    /// x (0 ≤ x < 2³¹) truncated toward zero, without the range and NaN checks of `Int(_:)`, which the caller's
    /// bounds make unreachable.
    @inlinable @inline(__always) public static func truncated(_ x: Float) -> Int {
        Int(_mm_cvttss_si32(SIMD4(x, 0, 0, 0)))
    }
    /// Each lane's bit pattern plus 1023, shifted into the exponent field: 2ᵏ where the pattern's low bits hold k
    /// (only (k + 1023) mod 2¹² survives the shift).
    @inlinable @inline(__always) public static func exponentScale(_ x: SIMD2<Double>) -> SIMD2<Double> {
        _mm_castsi128_pd(_mm_slli_epi64(_mm_add_epi64(_mm_castpd_si128(x), _mm_set1_epi64x(1023)), 52))
    }
    /// Whether low < y < high in both lanes; y is never NaN.
    @inlinable @inline(__always)
    public static func bothBetween(_ y: SIMD2<Double>, _ low: Double, _ high: Double) -> Bool {
        _mm_movemask_pd(_mm_and_pd(_mm_cmpgt_pd(y, _mm_set1_pd(low)), _mm_cmplt_pd(y, _mm_set1_pd(high)))) == 3
    }
    /// Adds the twelve UInt16 at `p` (16 + 8 bytes) to three sums of four lanes, in order.
    @inlinable @inline(__always) public static func addTwelveWords(
        _ p: UnsafeRawPointer, to s0: inout SIMD4<UInt32>, _ s1: inout SIMD4<UInt32>, _ s2: inout SIMD4<UInt32>
    ) {
        let zero = _mm_setzero_si128()
        let low = _mm_loadu_si128(UnsafePointer<SIMD2<Int64>>(OpaquePointer(p)))
        let high = _mm_loadl_epi64(UnsafePointer<SIMD2<Int64>>(OpaquePointer(p + 16)))
        func lanes(_ x: SIMD4<UInt32>) -> SIMD2<Int64> { unsafeBitCast(x, to: SIMD2<Int64>.self) }
        func sums(_ x: SIMD2<Int64>) -> SIMD4<UInt32> { unsafeBitCast(x, to: SIMD4<UInt32>.self) }
        s0 = sums(_mm_add_epi32(lanes(s0), _mm_unpacklo_epi16(low, zero)))
        s1 = sums(_mm_add_epi32(lanes(s1), _mm_unpackhi_epi16(low, zero)))
        s2 = sums(_mm_add_epi32(lanes(s2), _mm_unpacklo_epi16(high, zero)))
    }
    /// Each lane shifted right by `n` bits, zeros shifted in.
    @inlinable @inline(__always) public static func shiftedRight(_ x: SIMD4<Int32>, by n: Int32) -> SIMD4<Int32> {
        unsafeBitCast(_mm_srli_epi32(unsafeBitCast(x, to: SIMD2<Int64>.self), n), to: SIMD4<Int32>.self)
    }
    /// −1 in each lane where x is above y (signed), else 0.
    @inlinable @inline(__always) public static func greaterThan(_ x: SIMD4<Int32>, _ y: SIMD4<Int32>) -> SIMD4<Int32> {
        let m = _mm_cmpgt_epi32(unsafeBitCast(x, to: SIMD2<Int64>.self), unsafeBitCast(y, to: SIMD2<Int64>.self))
        return unsafeBitCast(m, to: SIMD4<Int32>.self)
    }
    /// The four lanes (each in 0…255) as four bytes, lane 0 lowest.
    @inlinable @inline(__always) public static func packedBytes(_ x: SIMD4<Int32>) -> UInt32 {
        let words = unsafeBitCast(x, to: SIMD2<Int64>.self)
        let bytes = _mm_packus_epi16(_mm_packs_epi32(words, words), _mm_setzero_si128())
        return UInt32(bitPattern: _mm_cvtsi128_si32(bytes))
    }
    /// One RGB pixel by bilinear interpolation of its 2 × 2 taps of 8-bit codes, in integers.
    ///
    /// `p0` and `p1` point at the left tap of the upper and lower source row (R G B, then the right tap's R G B).
    /// `upper` holds the weights of the upper row's left and right tap as two UInt16 (left in the low half),
    /// `lower` those of the lower row; the four sum to 16384. Each channel is `(Σ weight · code + 8192) >> 14`,
    /// returned as bytes R, G, B and a fourth of no meaning, in memory order. Reads the four bytes at `p0`, `p0 + 2`,
    /// `p1` and `p1 + 2`, never past the right tap.
    @inlinable @inline(__always) public static func bilinearRGB(
        _ p0: UnsafeRawPointer, _ p1: UnsafeRawPointer, upper: UInt32, lower: UInt32
    ) -> UInt32 {
        let codes = rgbCodes(p0, p1, upper, lower)
        return UInt32(bitPattern: _mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(codes, codes), codes)))
    }
    /// Two RGB pixels, each as `bilinearRGB(_:_:upper:lower:)` gives it: the first one's four bytes in the low half,
    /// the second one's in the high half. Sharing the packing steps makes a pixel cheaper.
    @inlinable @inline(__always) public static func bilinearRGB(
        _ first: (p0: UnsafeRawPointer, p1: UnsafeRawPointer, upper: UInt32, lower: UInt32),
        _ second: (p0: UnsafeRawPointer, p1: UnsafeRawPointer, upper: UInt32, lower: UInt32)
    ) -> UInt64 {
        let words = _mm_packs_epi32(
            rgbCodes(first.p0, first.p1, first.upper, first.lower),
            rgbCodes(second.p0, second.p1, second.upper, second.lower))
        return UInt64(bitPattern: _mm_cvtsi128_si64(_mm_packus_epi16(words, words)))
    }
    /// The three channel codes of `bilinearRGB`, and one of no meaning, in 32-bit lanes.
    @usableFromInline @inline(__always) static func rgbCodes(
        _ p0: UnsafeRawPointer, _ p1: UnsafeRawPointer, _ upper: UInt32, _ lower: UInt32
    ) -> SIMD2<Int64> {
        @inline(__always) func word(_ p: UnsafeRawPointer) -> SIMD2<Int64> {
            _mm_cvtsi32_si128(Int32(bitPattern: p.loadUnaligned(as: UInt32.self)))
        }
        // (left, right) code pairs per channel as 16-bit lanes: R R′ G G′ B B′, then a pair of no meaning. The word
        // read two bytes on, shifted down a byte, starts at the right tap.
        @inline(__always) func pairs(_ p: UnsafeRawPointer) -> SIMD2<Int64> {
            _mm_unpacklo_epi8(_mm_unpacklo_epi8(word(p), _mm_srli_epi32(word(p + 2), 8)), _mm_setzero_si128())
        }
        let upperWeights = _mm_set1_epi32(Int32(bitPattern: upper))
        let lowerWeights = _mm_set1_epi32(Int32(bitPattern: lower))
        let sum = _mm_add_epi32(_mm_madd_epi16(pairs(p0), upperWeights), _mm_madd_epi16(pairs(p1), lowerWeights))
        return _mm_srli_epi32(_mm_add_epi32(sum, _mm_set1_epi32(8192)), 14)
    }
    /// Bits `n ..< n + 32` of each 64-bit lane, a's then b's, as four Int32 (0 ≤ n ≤ 32): what
    /// `Int32(truncatingIfNeeded: lane &>> n)` gives, whichever way the shift fills the top.
    @inlinable @inline(__always) public static func lowWords(
        _ a: SIMD2<Int64>, _ b: SIMD2<Int64>, shiftedRight n: Int
    ) -> SIMD4<Int32> {
        let low = unsafeBitCast(_mm_srli_epi64(a, Int32(n)), to: SIMD4<Int32>.self)
        let high = unsafeBitCast(_mm_srli_epi64(b, Int32(n)), to: SIMD4<Int32>.self)
        return SIMD4(low[0], low[2], high[0], high[2])
    }
    /// Each 32-bit lane: the signed 16-bit halves of a times those of b, the two products added (wrapping).
    @inlinable @inline(__always) public static func multiplyAddPairs(
        _ a: SIMD4<Int32>, _ b: SIMD4<Int32>
    ) -> SIMD4<Int32> {
        let product = _mm_madd_epi16(unsafeBitCast(a, to: SIMD2<Int64>.self), unsafeBitCast(b, to: SIMD2<Int64>.self))
        return unsafeBitCast(product, to: SIMD4<Int32>.self)
    }
    /// One pixel by bilinear interpolation of 2 × 2 taps held as 16-bit values, in integers: the table indices of
    /// `LinearBilinear8`'s encoding.
    ///
    /// `p0` and `p1` point at the left tap of the upper and lower row, each tap four Int16 (R, G, B and a fourth that
    /// must be zero, each in 0…32767), the right tap eight bytes on. `upper` and `lower` are the rows' weight pairs,
    /// as `bilinearRGB` takes them (summing to 16384). Each channel is `(Σ weight · value + 16384) >> 15`, returned
    /// as four 16-bit fields, R lowest, the fourth zero. Reads the sixteen bytes at `p0` and at `p1`.
    @inlinable @inline(__always) public static func bilinearWordIndices(
        _ p0: UnsafeRawPointer, _ p1: UnsafeRawPointer, upper: UInt32, lower: UInt32
    ) -> UInt64 {
        // (left, right) value pairs per channel as 16-bit lanes: R R′ G G′ B B′ and the zero pair.
        @inline(__always) func pairs(_ p: UnsafeRawPointer) -> SIMD2<Int64> {
            let taps = _mm_loadu_si128(UnsafePointer<SIMD2<Int64>>(OpaquePointer(p)))
            return _mm_unpacklo_epi16(taps, _mm_unpackhi_epi64(taps, taps))
        }
        let upperWeights = _mm_set1_epi32(Int32(bitPattern: upper))
        let lowerWeights = _mm_set1_epi32(Int32(bitPattern: lower))
        let sum = _mm_add_epi32(_mm_madd_epi16(pairs(p0), upperWeights), _mm_madd_epi16(pairs(p1), lowerWeights))
        let indices = _mm_srli_epi32(_mm_add_epi32(sum, _mm_set1_epi32(16384)), 15)
        return UInt64(bitPattern: _mm_cvtsi128_si64(_mm_packs_epi32(indices, indices)))
    }
    /// `x.rounded()`: to the nearest integer, ties away from zero. The x86-64 baseline has no rounding
    /// instruction, so `rounded()` is a call into the C library at every pixel; this is the same value from a
    /// truncating conversion and one exact comparison (x − trunc(x) is exact below 2⁵²; beyond, every double is
    /// whole). The sign of a zero result is x's, as `rounded()` keeps it.
    @inlinable @inline(__always) public static func rounded(_ x: Double) -> Double {
        guard abs(x) < 0x1p52 else { return x }
        let whole = Double(Int64(x))
        let rest = x - whole
        let r = rest >= 0.5 ? whole + 1 : rest <= -0.5 ? whole - 1 : whole
        return Double(signOf: x, magnitudeOf: r)
    }
    /// Each lane as `halfPattern` encodes it, stored as four UInt16 at `target`.
    @inlinable @inline(__always) public static func storeHalfPatterns(
        _ x: SIMD4<Float>, to target: UnsafeMutablePointer<UInt16>
    ) {
        let keep = _mm_castps_si128(_mm_cmpge_ps(x, _mm_set1_ps(0x1p-14)))
        let b = _mm_castps_si128(_mm_min_ps(x, _mm_set1_ps(65504)))
        let odd = _mm_and_si128(_mm_srli_epi32(b, 13), _mm_set1_epi32(1))
        let rounded = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(b, _mm_set1_epi32(0x0fff)), odd), 13)
        let patterns = _mm_and_si128(_mm_sub_epi32(rounded, _mm_set1_epi32(112 << 10)), keep)
        // Every pattern lies in 0…0x7bff, so the signed saturation of the pack leaves it alone.
        let words = _mm_packs_epi32(patterns, patterns)
        UnsafeMutableRawPointer(target).storeBytes(of: _mm_cvtsi128_si64(words), as: Int64.self)
    }
    #else
    /// The correctly rounded square root of each lane.
    @inlinable @inline(__always) public static func squareRoot(_ x: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(x[0].squareRoot(), x[1].squareRoot(), x[2].squareRoot(), x[3].squareRoot())
    }
    /// Each lane `x < y ? x : y` (y where x is NaN).
    @inlinable @inline(__always) public static func minimum(_ x: SIMD4<Float>, _ y: Float) -> SIMD4<Float> {
        SIMD4(x[0] < y ? x[0] : y, x[1] < y ? x[1] : y, x[2] < y ? x[2] : y, x[3] < y ? x[3] : y)
    }
    /// Each lane `x > y ? x : y` (y where x is NaN).
    @inlinable @inline(__always) public static func maximum(_ x: SIMD4<Float>, _ y: Float) -> SIMD4<Float> {
        SIMD4(x[0] > y ? x[0] : y, x[1] > y ? x[1] : y, x[2] > y ? x[2] : y, x[3] > y ? x[3] : y)
    }
    /// Each lane `x < y ? x : y` (y where either is NaN).
    @inlinable @inline(__always) public static func minimum(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(
            x[0] < y[0] ? x[0] : y[0], x[1] < y[1] ? x[1] : y[1], x[2] < y[2] ? x[2] : y[2],
            x[3] < y[3] ? x[3] : y[3])
    }
    /// Each lane `x > y ? x : y` (y where either is NaN).
    @inlinable @inline(__always) public static func maximum(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(
            x[0] > y[0] ? x[0] : y[0], x[1] > y[1] ? x[1] : y[1], x[2] > y[2] ? x[2] : y[2],
            x[3] > y[3] ? x[3] : y[3])
    }
    /// Bit i set where lane i of x is below y.
    @inlinable @inline(__always) public static func lessThan(_ x: SIMD4<Float>, _ y: Float) -> Int32 {
        (x[0] < y ? 1 : 0) | (x[1] < y ? 2 : 0) | (x[2] < y ? 4 : 0) | (x[3] < y ? 8 : 0)
    }
    /// Bit i set where lane i of x is at least lane i of y.
    @inlinable @inline(__always) public static func greaterOrEqual(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> Int32 {
        (x[0] >= y[0] ? 1 : 0) | (x[1] >= y[1] ? 2 : 0) | (x[2] >= y[2] ? 4 : 0) | (x[3] >= y[3] ? 8 : 0)
    }
    /// Bit i set where lane i of x is above lane i of y.
    @inlinable @inline(__always) public static func greaterThan(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> Int32 {
        (x[0] > y[0] ? 1 : 0) | (x[1] > y[1] ? 2 : 0) | (x[2] > y[2] ? 4 : 0) | (x[3] > y[3] ? 8 : 0)
    }
    /// The bitwise or of the lanes' patterns.
    @inlinable @inline(__always) public static func bitwiseOr(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        let bits = unsafeBitCast(x, to: SIMD4<UInt32>.self) | unsafeBitCast(y, to: SIMD4<UInt32>.self)
        return unsafeBitCast(bits, to: SIMD4<Float>.self)
    }
    /// Lanes 0–2 of x (each in 0…65535.5), truncated, as three UInt16 at `target`.
    @inlinable @inline(__always) public static func storeTruncated(
        _ x: SIMD4<Float>, to target: UnsafeMutablePointer<UInt16>
    ) {
        for ch in 0..<3 { target[ch] = UInt16(x[ch]) }
    }
    /// Lanes 0–2 of x as three Floats at `target`.
    @inlinable @inline(__always) public static func store3(_ x: SIMD4<Float>, to target: UnsafeMutablePointer<Float>) {
        for ch in 0..<3 { target[ch] = x[ch] }
    }
    /// The three UInt16 at `p` as Floats (exact), lane 3 zero.
    @inlinable @inline(__always) public static func threeWords(_ p: UnsafeRawPointer) -> SIMD4<Float> {
        let w = p.assumingMemoryBound(to: UInt16.self)
        return SIMD4(Float(w[0]), Float(w[1]), Float(w[2]), 0)
    }
    /// Red, green and blue of four pixels held as (r, g, b, unused) in p0…p3, one vector per channel.
    @inlinable @inline(__always) public static func transposed3(
        _ p0: SIMD4<Float>, _ p1: SIMD4<Float>, _ p2: SIMD4<Float>, _ p3: SIMD4<Float>
    ) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(p0[0], p1[0], p2[0], p3[0]), SIMD4(p0[1], p1[1], p2[1], p3[1]), SIMD4(p0[2], p1[2], p2[2], p3[2]))
    }
    /// (x0, y0, x1, y1).
    @inlinable @inline(__always)
    public static func interleavedLow(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(x[0], y[0], x[1], y[1])
    }
    /// (x2, x3, y2, y3).
    @inlinable @inline(__always) public static func highHalves(_ x: SIMD4<Float>, _ y: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(x[2], x[3], y[2], y[3])
    }
    /// Lanes 0 and 1 widened to Double (exact).
    @inlinable @inline(__always) public static func widenedLow(_ x: SIMD4<Float>) -> SIMD2<Double> {
        SIMD2(Double(x[0]), Double(x[1]))
    }
    /// Both lanes rounded to Float (to nearest, as `Float(_:)`).
    @inlinable @inline(__always) public static func narrowed(_ x: SIMD2<Double>) -> SIMD2<Float> {
        SIMD2(Float(x.x), Float(x.y))
    }
    /// x (0 ≤ x < 2³¹) truncated toward zero.
    @inlinable @inline(__always) public static func truncated(_ x: Float) -> Int { Int(x) }
    /// Each lane's bit pattern plus 1023, shifted into the exponent field: 2ᵏ where the pattern's low bits hold k
    /// (only (k + 1023) mod 2¹² survives the shift).
    @inlinable @inline(__always) public static func exponentScale(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let bits = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        return unsafeBitCast((bits &+ 1023) &<< 52, to: SIMD2<Double>.self)
    }
    /// Whether low < y < high in both lanes; y is never NaN.
    @inlinable @inline(__always)
    public static func bothBetween(_ y: SIMD2<Double>, _ low: Double, _ high: Double) -> Bool {
        min(y.x, y.y) > low && max(y.x, y.y) < high
    }
    /// Adds the twelve UInt16 at `p` to three sums of four lanes, in order.
    @inlinable @inline(__always) public static func addTwelveWords(
        _ p: UnsafeRawPointer, to s0: inout SIMD4<UInt32>, _ s1: inout SIMD4<UInt32>, _ s2: inout SIMD4<UInt32>
    ) {
        let w = p.assumingMemoryBound(to: UInt16.self)
        for i in 0..<4 {
            s0[i] &+= UInt32(w[i])
            s1[i] &+= UInt32(w[4 + i])
            s2[i] &+= UInt32(w[8 + i])
        }
    }
    /// Each lane shifted right by `n` bits, zeros shifted in.
    @inlinable @inline(__always) public static func shiftedRight(_ x: SIMD4<Int32>, by n: Int32) -> SIMD4<Int32> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) &>> UInt32(n), to: SIMD4<Int32>.self)
    }
    /// −1 in each lane where x is above y (signed), else 0.
    @inlinable @inline(__always) public static func greaterThan(_ x: SIMD4<Int32>, _ y: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMD4(x[0] > y[0] ? -1 : 0, x[1] > y[1] ? -1 : 0, x[2] > y[2] ? -1 : 0, x[3] > y[3] ? -1 : 0)
    }
    /// The four lanes (each in 0…255) as four bytes, lane 0 lowest.
    @inlinable @inline(__always) public static func packedBytes(_ x: SIMD4<Int32>) -> UInt32 {
        var out: UInt32 = 0
        for i in 0..<4 { out |= UInt32(UInt8(clamping: x[i])) << (8 * UInt32(i)) }
        return out
    }
    /// One RGB pixel by bilinear interpolation of its 2 × 2 taps of 8-bit codes, in integers: each channel
    /// `(Σ weight · code + 8192) >> 14`, as bytes R, G, B and a fourth of no meaning (here zero), in memory order.
    @inlinable @inline(__always) public static func bilinearRGB(
        _ p0: UnsafeRawPointer, _ p1: UnsafeRawPointer, upper: UInt32, lower: UInt32
    ) -> UInt32 {
        let w00 = upper & 0xFFFF, w10 = upper >> 16, w01 = lower & 0xFFFF, w11 = lower >> 16
        var out: UInt32 = 0
        for c in 0..<3 {
            @inline(__always) func code(_ p: UnsafeRawPointer, _ offset: Int) -> UInt32 {
                UInt32(p.load(fromByteOffset: offset, as: UInt8.self))
            }
            let sum = code(p0, c) * w00 + code(p0, c + 3) * w10 + code(p1, c) * w01 + code(p1, c + 3) * w11
            out |= ((sum + 8192) >> 14) << (8 * UInt32(c))
        }
        return out
    }
    /// Bits `n ..< n + 32` of each 64-bit lane, a's then b's, as four Int32 (0 ≤ n ≤ 32).
    @inlinable @inline(__always) public static func lowWords(
        _ a: SIMD2<Int64>, _ b: SIMD2<Int64>, shiftedRight n: Int
    ) -> SIMD4<Int32> {
        @inline(__always) func word(_ x: Int64) -> Int32 { Int32(truncatingIfNeeded: x &>> Int64(n)) }
        return SIMD4(word(a.x), word(a.y), word(b.x), word(b.y))
    }
    /// Each 32-bit lane: the signed 16-bit halves of a times those of b, the two products added (wrapping).
    @inlinable @inline(__always) public static func multiplyAddPairs(
        _ a: SIMD4<Int32>, _ b: SIMD4<Int32>
    ) -> SIMD4<Int32> {
        var out = SIMD4<Int32>()
        for i in 0..<4 {
            @inline(__always) func half(_ x: Int32, _ h: Int32) -> Int32 { Int32(Int16(truncatingIfNeeded: x >> h)) }
            out[i] = half(a[i], 0) &* half(b[i], 0) &+ half(a[i], 16) &* half(b[i], 16)
        }
        return out
    }
    /// Two RGB pixels, each as `bilinearRGB(_:_:upper:lower:)` gives it: the first one's four bytes in the low half,
    /// the second one's in the high half.
    @inlinable @inline(__always) public static func bilinearRGB(
        _ first: (p0: UnsafeRawPointer, p1: UnsafeRawPointer, upper: UInt32, lower: UInt32),
        _ second: (p0: UnsafeRawPointer, p1: UnsafeRawPointer, upper: UInt32, lower: UInt32)
    ) -> UInt64 {
        let low = bilinearRGB(first.p0, first.p1, upper: first.upper, lower: first.lower)
        let high = bilinearRGB(second.p0, second.p1, upper: second.upper, lower: second.lower)
        return UInt64(low) | UInt64(high) << 32
    }
    /// One pixel by bilinear interpolation of 2 × 2 taps held as 16-bit values: each channel
    /// `(Σ weight · value + 16384) >> 15`, as four 16-bit fields, R lowest, the fourth zero.
    @inlinable @inline(__always) public static func bilinearWordIndices(
        _ p0: UnsafeRawPointer, _ p1: UnsafeRawPointer, upper: UInt32, lower: UInt32
    ) -> UInt64 {
        let w00 = Int32(upper & 0xFFFF), w10 = Int32(upper >> 16), w01 = Int32(lower & 0xFFFF), w11 = Int32(lower >> 16)
        var out: UInt64 = 0
        for c in 0..<3 {
            @inline(__always) func value(_ p: UnsafeRawPointer, _ offset: Int) -> Int32 {
                Int32(p.loadUnaligned(fromByteOffset: 2 * offset, as: Int16.self))
            }
            let sum = w00 &* value(p0, c) &+ w10 &* value(p0, c + 4) &+ w01 &* value(p1, c) &+ w11 &* value(p1, c + 4)
            out |= UInt64(UInt32(bitPattern: (sum &+ 16384) &>> 15)) << (16 * UInt64(c))
        }
        return out
    }
    /// `x.rounded()`: to the nearest integer, ties away from zero.
    @inlinable @inline(__always) public static func rounded(_ x: Double) -> Double { x.rounded() }
    /// Each lane as `halfPattern` encodes it, stored as four UInt16 at `target`.
    @inlinable @inline(__always) public static func storeHalfPatterns(
        _ x: SIMD4<Float>, to target: UnsafeMutablePointer<UInt16>
    ) {
        for i in 0..<4 { target[i] = halfPattern(x[i]) }
    }
    #endif

    /// The IEEE half-precision pattern of x·2⁻¹¹² for x ≥ 0 (rounded half to even, as `Float16(_:)` rounds), read
    /// from x's own bits: its exponent field less 112 and its significand's top 10 bits; 0 below 2⁻¹⁴ (and for
    /// NaN), and the largest half, 65504·2⁻¹¹², above 65504. The pattern then decodes exactly as the Float with
    /// bits pattern << 13 (`PackedFactors`).
    @inlinable @inline(__always) public static func halfPattern(_ x: Float) -> UInt16 {
        guard x >= 0x1p-14 else { return 0 }
        let b = min(x, 65504).bitPattern
        return UInt16(truncatingIfNeeded: ((b &+ 0x0fff &+ ((b >> 13) & 1)) >> 13) &- (112 << 10))
    }
}
