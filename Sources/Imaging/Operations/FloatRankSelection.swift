/// Exact order statistics of Float samples by two-pass radix selection, in linear time.
///
/// Each finite sample maps to a 32-bit key whose unsigned order is the numeric order (IEEE 754 totalOrder for
/// finite values: flip every bit of a negative number, only the sign bit of a positive one). A histogram of the
/// upper 16 bits finds the bucket holding the wanted rank; a histogram of the lower 16 bits of that bucket's
/// samples finds the key. Two reads of the samples replace an `O(N log N)` sort, and the answer is the same value
/// the sort would give at that rank (−0 and +0 are kept apart, which changes no level numerically).
enum FloatRankSelection {
    /// The order-preserving key of a finite Float.
    @inline(__always)
    static func key(_ value: Float) -> UInt32 {
        let bits = value.bitPattern
        return bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
    }

    /// The Float whose key is `key`.
    @inline(__always)
    static func value(_ key: UInt32) -> Float {
        Float(bitPattern: key & 0x8000_0000 != 0 ? key & 0x7FFF_FFFF : ~key)
    }

    /// The samples of ranks `ranks` (0 = smallest) among `keys`, each rank below `keys.count`.
    static func select(_ ranks: [Int], among keys: UnsafeBufferPointer<UInt32>) -> [Float] {
        // Below 2¹⁵ samples, sorting is cheaper than clearing and scanning two 2¹⁶-bin histograms.
        if keys.count < 1 << 15 {
            let sorted = keys.sorted()
            return ranks.map { value(sorted[$0]) }
        }
        var upper = [Int](repeating: 0, count: 1 << 16)
        for k in keys { upper[Int(k >> 16)] += 1 }
        return ranks.map { rank in
            // The bucket whose cumulative count passes the rank, and the rank left inside it.
            var seen = 0, bucket = 0
            while seen + upper[bucket] <= rank {
                seen += upper[bucket]
                bucket += 1
            }
            var lower = [Int](repeating: 0, count: 1 << 16)
            let high = UInt32(bucket)
            for k in keys where k >> 16 == high { lower[Int(k & 0xFFFF)] += 1 }
            var inside = rank - seen, low = 0
            while inside >= lower[low] {
                inside -= lower[low]
                low += 1
            }
            return value(high << 16 | UInt32(low))
        }
    }
}
