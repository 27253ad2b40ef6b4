import Imaging

/// Bilinear interpolation of opaque 8-bit RGBA in fixed point, in the working space: the interior of `BytesWarp`
/// when the image is opaque and a run of output columns lies wholly inside the source.
///
/// Core Image samples in the working space, so an sRGB image is decoded to linear light before its taps are mixed,
/// and the mix is encoded again on the way out (the general path does this in `Float`). Here each byte's working
/// value comes from a 256-entry table in 1/32767, the four taps are weighted with `WarpKernelUInt8`'s weights
/// (1/16384, summing to 16384) in exact 32-bit integers, and the sum, in 1/(32767 · 16384), indexes a table of the
/// output code at every 1/16383.5 of the working range: the decode's rounding moves a value by at most 1/65534,
/// the weights' by 1/32768 of a tap's difference, the index by 1/32767, so the mixed value differs from the `Float`
/// path's by well under one of the encode table's steps, and the code by at most one (`CIPerspectiveCorrectionTests`
/// compares every pixel of both paths).
struct LinearBilinear8 {
    /// Each byte's working value in 1/32767.
    let decode: [Int32]
    /// The output code of each sum, shifted down by 15 bits with rounding.
    let encode: [UInt8]

    /// `decode`: whether bytes are sRGB codes to decode (colour-managed) or plain values in 1/255; `encode`: whether
    /// the output is sRGB-encoded or written linearly in 1/255, as `RGBA8.store` does.
    init(decode: Bool, encode: Bool) {
        let values: [Int32] = (0..<256).map { c in
            let value = decode ? Double(SRGBCurve.decodeTable[c]) : Double(c) / 255
            return Int32((value * 32767).rounded())
        }
        self.decode = values
        self.encode = SRGBCurve.encodeTable.withUnsafeBufferPointer { table in
            (0...LinearBilinear8.lastIndex).map { i in
                let value = Float(min(1, Double(i) / (32767.0 / 2)))
                return encode ? RGBA8.encoded(value, table.baseAddress!) : UInt8(value * 255 + 0.5)
            }
        }
    }

    /// The kernel for each combination, built once.
    static func shared(decode: Bool, encode: Bool) -> LinearBilinear8 {
        switch (decode, encode) {
        case (true, true): managed
        case (true, false): decodedOnly
        case (false, true): encodedOnly
        case (false, false): plain
        }
    }
    private static let managed = LinearBilinear8(decode: true, encode: true)
    private static let decodedOnly = LinearBilinear8(decode: true, encode: false)
    private static let encodedOnly = LinearBilinear8(decode: false, encode: true)
    private static let plain = LinearBilinear8(decode: false, encode: false)

    /// The largest index a sum can reach: (32767 · 16384 + 16384) >> 15.
    static let lastIndex = 16384

    /// `count` opaque pixels from their taps, into `out` as RGBA with alpha 255: the bytes of each pixel's upper-left
    /// tap are at `source + taps.offsets[k]`, the lower row `rowStride` bytes on.
    func run(
        source: UnsafePointer<UInt8>, rowStride: Int, taps: WarpKernelUInt8.Taps, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        decode.withUnsafeBufferPointer { d in
            encode.withUnsafeBufferPointer { e in
                let d = d.baseAddress!, e = e.baseAddress!
                let target = UnsafeMutableRawPointer(out)
                for k in 0..<count {
                    let p0 = source + Int(taps.offsets[k]), p1 = p0 + rowStride
                    let upper = taps.uppers[k], lower = taps.lowers[k]
                    let w00 = Int32(upper & 0xFFFF), w10 = Int32(upper >> 16)
                    let w01 = Int32(lower & 0xFFFF), w11 = Int32(lower >> 16)
                    @inline(__always) func channel(_ c: Int) -> UInt32 {
                        let sum = w00 &* d[Int(p0[c])] &+ w10 &* d[Int(p0[c + 4])] &+ w01 &* d[Int(p1[c])]
                            &+ w11 &* d[Int(p1[c + 4])]
                        return UInt32(e[Int((sum &+ 16384) &>> 15)])
                    }
                    let word = channel(0) | channel(1) << 8 | channel(2) << 16 | 0xFF00_0000
                    target.storeBytes(of: word.littleEndian, toByteOffset: 4 * k, as: UInt32.self)
                }
            }
        }
    }
}
