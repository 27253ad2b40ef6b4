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
package struct LinearBilinear8: Sendable {
    /// Each byte's working value in 1/32767.
    package let decode: [Int32]
    /// The output code of each sum, shifted down by 15 bits with rounding.
    package let encode: [UInt8]

    /// `decode`: whether bytes are sRGB codes to decode (colour-managed) or plain values in 1/255; `encode`: whether
    /// the output is sRGB-encoded or written linearly in 1/255, as `RGBA8.store` does.
    package init(decode: Bool, encode: Bool) {
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
    package static func shared(decode: Bool, encode: Bool) -> LinearBilinear8 {
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
    ///
    /// The plain reference: `decodeBlock` followed by `runDecoded` gives the same bytes, as
    /// `LinearBilinear8Tests` checks.
    package func run(
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

extension LinearBilinear8 {
    /// Bytes per pixel of a decoded block: R, G, B and a zero, each an Int16 working value in 1/32767.
    package static let blockPixelBytes = 8

    /// Decodes the opaque RGBA bytes of `columns` × `rows` of an image (rows `rowStride` bytes apart, from `source`'s
    /// first row) into `block`, the block's rows `columns.count · blockPixelBytes` bytes apart: each source byte once,
    /// where `run` would decode it once for every output pixel whose taps read it (about four in a warp near unit
    /// scale).
    package func decodeBlock(
        source: UnsafePointer<UInt8>, rowStride: Int, columns: Range<Int>, rows: Range<Int>,
        into block: UnsafeMutableRawPointer
    ) {
        decode.withUnsafeBufferPointer { d in
            let d = d.baseAddress!
            let blockStride = columns.count * LinearBilinear8.blockPixelBytes
            for (r, y) in rows.enumerated() {
                let line = source + y * rowStride + 4 * columns.lowerBound
                let target = block + r * blockStride
                for x in 0..<columns.count {
                    let p = line + 4 * x
                    let values = UInt64(UInt32(bitPattern: d[Int(p[0])])) | UInt64(UInt32(bitPattern: d[Int(p[1])])) << 16
                        | UInt64(UInt32(bitPattern: d[Int(p[2])])) << 32
                    target.storeBytes(
                        of: values.littleEndian, toByteOffset: LinearBilinear8.blockPixelBytes * x, as: UInt64.self)
                }
            }
        }
    }

    /// `count` opaque pixels from their taps in a decoded block, into `out` as `run` writes them: the working values
    /// of each pixel's upper-left tap are at `block + taps.offsets[k] − origin`, the lower row `blockStride` bytes on.
    /// The same integer sums and tables as `run`, four channels at a time (`Lanes.bilinearWordIndices`).
    package func runDecoded(
        block: UnsafeRawPointer, blockStride: Int, origin: Int, taps: WarpKernelUInt8.Taps, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        encode.withUnsafeBufferPointer { e in
            let e = e.baseAddress!
            let target = UnsafeMutableRawPointer(out)
            for k in 0..<count {
                let p0 = block + (Int(taps.offsets[k]) &- origin)
                let indices = Lanes.bilinearWordIndices(p0, p0 + blockStride, upper: taps.uppers[k], lower: taps.lowers[k])
                let r = UInt32(e[Int(indices & 0xFFFF)]), g = UInt32(e[Int((indices >> 16) & 0xFFFF)])
                let b = UInt32(e[Int((indices >> 32) & 0xFFFF)])
                let word = r | g << 8 | b << 16 | 0xFF00_0000
                target.storeBytes(of: word.littleEndian, toByteOffset: 4 * k, as: UInt32.self)
            }
        }
    }
}
