import Foundation
import Imaging
import Spectra

/// Linear camera values → Display P3 with a global tone curve and a pure 2.2 gamma, 8 bits.
///
/// The curve and the gamma are folded into one table indexed by √(v / v_max), which spaces the
/// entries densely near black where the 1/2.2 power is steep; 4,096 entries keep every output code
/// within one step of the exact value.
struct DisplayEncoder: Sendable {
    /// The encoding exponent's reciprocal: output = tone(v)^(1/2.2).
    static let gamma = 2.2
    let table: [UInt8]
    let maximum: Float

    init(toneCurve: ToneCurve) {
        var top = 1.0
        if case let .shoulder(_, white) = toneCurve { top = max(white, 1) }
        maximum = Float(top)
        let n = 4096
        table = (0..<n).map { i in
            let u = Double(i) / Double(n - 1)
            let v = u * u * top
            let e = pow(min(max(toneCurve.apply(v), 0), 1), 1 / DisplayEncoder.gamma)
            return UInt8((e * 255).rounded())
        }
    }

    /// The encoded picture of interleaved camera RGB through a colour kernel (which carries the
    /// exposure), row bands in parallel.
    func encode(_ rgb: [Float], kernel: CorrectionKernel, width: Int, height: Int) -> PixelPlane<UInt8> {
        let top = maximum
        let last = Float(table.count - 1)
        let bytes = rgb.withUnsafeBufferPointer { src -> [UInt8] in
            guard let base = src.baseAddress else { return [] }
            let source = SharedReadPointer(base: base)
            return table.withUnsafeBufferPointer { lut -> [UInt8] in
                guard let lutBase = lut.baseAddress else { return [] }
                let lookup = SharedReadPointer(base: lutBase)
                return kernel.m.withUnsafeBufferPointer { coefficients -> [UInt8] in
                    guard let mBase = coefficients.baseAddress else { return [] }
                    let m = SharedReadPointer(base: mBase)
                    return BandParallel.fill(count: rgb.count, rows: height, of: UInt8.self) { rows, out in
                        for p in (rows.lowerBound * width)..<(rows.upperBound * width) {
                            let v = CorrectionKernel.apply(
                                m.base, source.base[3 * p], source.base[3 * p + 1], source.base[3 * p + 2])
                            for c in 0..<3 {
                                let u = (min(max(v[c], 0), top) / top).squareRoot()
                                out[3 * p + c] = lookup.base[Int(u * last + 0.5)]
                            }
                        }
                    }
                }
            }
        }
        return PixelPlane(width: width, height: height, channels: 3, elements: bytes)
    }

    /// The encoded picture of interleaved linear Display P3 (already through the colour kernel),
    /// times the exposure `scale`; row bands in parallel. The same bytes as `code(_:)` of each
    /// scaled value, through `ExactCodeTable` when it could be built.
    func encode(linear rgb: [Float], scale: Float, width: Int, height: Int) -> PixelPlane<UInt8> {
        precondition(rgb.count == 3 * width * height, "three values per pixel")
        let bytes = rgb.withUnsafeBufferPointer { src -> [UInt8] in
            let source = SharedReadPointer(src)
            guard let exact = ExactCodeTable(self) else {
                return BandParallel.fill(count: rgb.count, rows: height, of: UInt8.self) { rows, out in
                    for i in (3 * rows.lowerBound * width)..<(3 * rows.upperBound * width) {
                        out[i] = code(source.base[i] * scale)
                    }
                }
            }
            return exact.entries.withUnsafeBufferPointer { e -> [UInt8] in
                let entries = SharedReadPointer(e)
                let low = exact.lowBits, high = exact.highBits, first = exact.lowBits >> ExactCodeTable.shift
                let mask = UInt32(1 << ExactCodeTable.shift - 1)
                return BandParallel.fill(count: rgb.count, rows: height, of: UInt8.self) { rows, out in
                    let end = 3 * rows.upperBound * width
                    var start = 3 * rows.lowerBound * width
                    #if arch(x86_64) && !OBSCURA_PORTABLE
                    // Four values at a time, each lane the scalar steps: max(v, 0) is `v > 0 ? v : 0` (0 for NaN
                    // and −0), and for values ≥ 0 the Float order is that of the bit patterns, so the clamp can
                    // be made on Floats; the bucket's offset and the pattern's low bits are below 2¹⁶, so the
                    // signed compare is the unsigned one.
                    let zero = SIMD4<Float>(repeating: 0), scale4 = SIMD4<Float>(repeating: scale)
                    let lowF = SIMD4<Float>(repeating: Float(bitPattern: low))
                    let highF = SIMD4<Float>(repeating: Float(bitPattern: high))
                    let firstLanes = SIMD4<Int32>(repeating: Int32(bitPattern: first))
                    let low16 = SIMD4<Int32>(repeating: 0xFFFF)
                    let maskLanes = SIMD4<Int32>(repeating: Int32(bitPattern: mask)), one = SIMD4<Int32>(repeating: 1)
                    while start + 4 <= end {
                        let v = UnsafeRawPointer(source.base + start).loadUnaligned(as: SIMD4<Float>.self) * scale4
                        let c = Lanes.minimum(Lanes.maximum(Lanes.maximum(v, zero), lowF), highF)
                        let bits = unsafeBitCast(c, to: SIMD4<Int32>.self)
                        let lanes = Lanes.shiftedRight(bits, by: Int32(ExactCodeTable.shift)) &- firstLanes
                        let e = SIMD4<UInt32>(
                            entries.base[Int(lanes[0])], entries.base[Int(lanes[1])],
                            entries.base[Int(lanes[2])], entries.base[Int(lanes[3])])
                        let entry = unsafeBitCast(e, to: SIMD4<Int32>.self)
                        let below = Lanes.greaterThan(entry & low16, bits & maskLanes)
                        let codes = Lanes.shiftedRight(entry, by: 16) &+ (one &+ below)
                        UnsafeMutableRawPointer(out + start).storeBytes(of: Lanes.packedBytes(codes), as: UInt32.self)
                        start += 4
                    }
                    #endif
                    for i in start..<end {
                        let v = source.base[i] * scale
                        // Clamped to the table's range: below it and above it the code is constant.
                        let bits = min(max((v > 0 ? v : 0).bitPattern, low), high)
                        let entry = entries.base[Int(truncatingIfNeeded: bits >> ExactCodeTable.shift &- first)]
                        let step: UInt32 = bits & mask >= entry & 0xFFFF ? 1 : 0
                        out[i] = UInt8(truncatingIfNeeded: entry >> 16 &+ step)
                    }
                }
            }
        }
        return PixelPlane(width: width, height: height, channels: 3, elements: bytes)
    }

    /// The 8-bit code of one linear value (after the exposure): the tone/gamma table at √(v / v_max).
    @inline(__always)
    func code(_ v: Float) -> UInt8 {
        let top = maximum, last = Float(table.count - 1)
        let c = v > 0 ? v : 0
        // min(c, top) / top equals min(c, top) · (1/top) bit for bit when top is a power of two (both are
        // the exact quotient, rounded once), which saves a division.
        let exact = top.significandBitPattern == 0 && top.isNormal
        let q = exact ? (c < top ? c * (1 / top) : 1) : min(c, top) / top
        return table[Int(q.squareRoot() * last + 0.5)]
    }

    /// `code(_:)` without a square root: for a value c ≥ 0 the code depends only on c's bit pattern,
    /// and is non-decreasing in it (every step, the product, the square root, the rounding to an
    /// index and the table, is monotonic). So the bit patterns are cut into buckets of 2¹⁴ (a relative
    /// width of 2⁻⁹, a fifth of an 8-bit step at the top), and each bucket stores its lowest code and
    /// the offset of the one pattern inside it where the code rises by one. Bit for bit the same
    /// codes as `code(_:)`: built from it at each bucket's ends, by bisection; `nil` when a bucket
    /// holds more than one rise or the codes are not monotonic.
    struct ExactCodeTable {
        static let shift: UInt32 = 14
        /// Per bucket: lowest code << 16 | offset of the first pattern with the next code (2¹⁴: none).
        let entries: [UInt32]
        /// Patterns below `lowBits` share its code; above `highBits` (the top), that of the top.
        let lowBits: UInt32, highBits: UInt32

        init?(_ encoder: DisplayEncoder) {
            for i in 1..<encoder.table.count where encoder.table[i] < encoder.table[i - 1] { return nil }
            let highBits = encoder.maximum.bitPattern
            func code(_ bits: UInt32) -> UInt32 { UInt32(encoder.code(Float(bitPattern: bits))) }
            // The lowest power of two at and below which every value has the code of 0.
            var exponent = -16
            while exponent > -100, code(Float(sign: .plus, exponent: exponent, significand: 1).bitPattern) != code(0) {
                exponent -= 1
            }
            let lowBits = Float(sign: .plus, exponent: exponent, significand: 1).bitPattern
            // A top below that power (a scale that maps everything near black) has no range left: the formula decides.
            guard exponent > -100, highBits > 0, lowBits <= highBits else { return nil }
            let size = UInt32(1) << Self.shift
            var entries: [UInt32] = []
            entries.reserveCapacity(Int((highBits >> Self.shift) - (lowBits >> Self.shift)) + 1)
            var bucket = lowBits >> Self.shift
            while bucket <= highBits >> Self.shift {
                let first = bucket << Self.shift, last = min(first + size - 1, highBits)
                let base = code(first), top = code(last)
                guard top <= base + 1 else { return nil }
                var offset = size
                if top > base {
                    // Smallest pattern in (first, last] with the higher code.
                    var lo = first, hi = last
                    while lo + 1 < hi {
                        let mid = lo + (hi - lo) / 2
                        if code(mid) > base { hi = mid } else { lo = mid }
                    }
                    offset = hi - first
                }
                entries.append(base << 16 | offset)
                bucket += 1
            }
            self.entries = entries
            self.lowBits = lowBits
            self.highBits = highBits
        }
    }

    /// The PNG tag of this encoding: Display P3 primaries and white, gAMA 1/2.2 (PNG spec §11.3.3.5).
    static let pngColorSpace = PNGColorSpace.other(
        PNGColorChunks(gamma: 1 / gamma, chromaticities: .displayP3))
}
