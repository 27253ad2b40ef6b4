import Foundation

/// Standard normal deviates by the ziggurat method (Marsaglia & Tsang 2000, "The Ziggurat Method
/// for Generating Random Variables", J. Stat. Softw. 5(8)) with 128 layers, in single precision.
///
/// About 98.8 % of draws cost one table look-up, one comparison and one multiply; the rest take
/// the wedge or tail test with fresh random bits. That is why it replaces the inverse-CDF
/// rational approximation in the per-pixel noise chain, which needed a division per deviate.
/// The tables are computed here from the method's constants (r = 3.442619855899, the layer
/// area v = 9.91256303526217·10⁻³), not copied; they never change after `init`, so threads share them.
final class ZigguratNormal: @unchecked Sendable {
    /// Layer acceptance thresholds on |hz| (hz a signed 32-bit draw).
    let k: UnsafeMutablePointer<UInt32>
    /// Scale from hz to x per layer.
    let w: UnsafeMutablePointer<Float>
    /// The density exp(−x²/2) at each layer edge.
    let f: UnsafeMutablePointer<Float>

    static let r: Float = 3.442619855899
    /// The tables, built once per process.
    static let shared = ZigguratNormal()

    private init() {
        k = .allocate(capacity: 128)
        w = .allocate(capacity: 128)
        f = .allocate(capacity: 128)
        let m1 = 2_147_483_648.0
        var dn = 3.442619855899
        var tn = dn
        let vn = 9.91256303526217e-3
        let q = vn / exp(-0.5 * dn * dn)
        k[0] = UInt32(dn / q * m1)
        k[1] = 0
        w[0] = Float(q / m1)
        w[127] = Float(dn / m1)
        f[0] = 1
        f[127] = Float(exp(-0.5 * dn * dn))
        for i in stride(from: 126, through: 1, by: -1) {
            dn = (-2 * log(vn / dn + exp(-0.5 * dn * dn))).squareRoot()
            k[i + 1] = UInt32(dn / tn * m1)
            tn = dn
            f[i] = Float(exp(-0.5 * dn * dn))
            w[i] = Float(dn / m1)
        }
    }

    /// A deviate from the top 21 or more bits of `bits` (bits 11…17 pick the layer, all of them
    /// the abscissa); `more` supplies fresh 64-bit draws for the rare rejections.
    @inline(__always) func sample(_ bits: UInt32, more: inout FallbackBits) -> Float {
        let hz = Int32(bitPattern: bits)
        let iz = Int((bits >> 11) & 127)
        if hz.magnitude < k[iz] { return Float(hz) * w[iz] }
        return slow(hz, iz, &more)
    }

    @inline(never) private func slow(_ hz0: Int32, _ iz0: Int, _ more: inout FallbackBits) -> Float {
        var hz = hz0
        var iz = iz0
        while true {
            let x = Float(hz) * w[iz]
            if iz == 0 {
                // The base strip's tail beyond r (Marsaglia 1964).
                while true {
                    let bits = more.next()
                    let u1 = (Float(UInt32(truncatingIfNeeded: bits >> 40)) + 0.5) * 0x1p-24
                    let u2 = (Float(UInt32(truncatingIfNeeded: bits >> 16) & 0xFF_FFFF) + 0.5) * 0x1p-24
                    let t = -logf(u1) / ZigguratNormal.r
                    let y = -logf(u2)
                    if y + y >= t * t { return hz > 0 ? ZigguratNormal.r + t : -(ZigguratNormal.r + t) }
                }
            }
            let bits = more.next()
            let u = (Float(UInt32(truncatingIfNeeded: bits >> 40)) + 0.5) * 0x1p-24
            if f[iz] + u * (f[iz - 1] - f[iz]) < expf(-0.5 * x * x) { return x }
            let fresh = UInt32(truncatingIfNeeded: bits)
            hz = Int32(bitPattern: fresh)
            iz = Int((fresh >> 11) & 127)
            if hz.magnitude < k[iz] { return Float(hz) * w[iz] }
        }
    }
}

/// Fresh random words for ziggurat rejections: a counter stream private to one pixel, keyed by
/// draw `index` of a stream but only hashed when a rejection asks for it.
struct FallbackBits {
    let streamKey: UInt64
    let index: UInt64
    var counter: UInt64 = 0

    @inline(__always) init(streamKey: UInt64, index: UInt64) {
        self.streamKey = streamKey
        self.index = index
    }

    @inline(__always) mutating func next() -> UInt64 {
        counter &+= 1
        let key = CounterRandom.draw(streamKey: streamKey, index: index)
        return CounterRandom.mix(key ^ (counter &* 0xD6E8_FEB8_6659_FD93))
    }
}
