#if arch(x86_64) && !OBSCURA_PORTABLE
import _Builtin_intrinsics.intel
#endif

/// Vector steps on four `Float` lanes, each lane the scalar IEEE operation, so the results are bit for bit those of
/// the scalar code. On x86-64 they are the SSE2 instructions themselves: the standard library's generic vector square
/// root and comparisons go lane by lane through scalar code under the SSE2 baseline. Public, because the pixel loops
/// of Sensor and ISP must inline them across modules, which the release build does for public `@inlinable` code but
/// did not for `package` code.
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
    /// Bit i set where lane i of x is below y.
    @inlinable @inline(__always) public static func lessThan(_ x: SIMD4<Float>, _ y: Float) -> Int32 {
        _mm_movemask_ps(_mm_cmplt_ps(x, SIMD4(repeating: y)))
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
    /// Bit i set where lane i of x is below y.
    @inlinable @inline(__always) public static func lessThan(_ x: SIMD4<Float>, _ y: Float) -> Int32 {
        (x[0] < y ? 1 : 0) | (x[1] < y ? 2 : 0) | (x[2] < y ? 4 : 0) | (x[3] < y ? 8 : 0)
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
    #endif
}
