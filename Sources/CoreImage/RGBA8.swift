import Foundation

/// Working values to the 8-bit RGBA a context writes (`CGImage`s, BGRA buffers, files): straight alpha, each
/// component clamped to 0…1, sRGB-encoded through `SRGBCurve.encodeTable` or scaled linearly.
enum RGBA8 {
    /// Writes one premultiplied working value to `p[0...3]`. `table` is `SRGBCurve.encodeTable`'s storage.
    @inline(__always)
    static func store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>, encode: Bool, table: UnsafePointer<UInt8>) {
        let a = min(max(v.w, 0), 1)
        // Opaque pixels (the usual case) need no division to unpremultiply.
        let c = a == 1 ? v : (a > 0 ? v * (1 / a) : .zero)
        // Clamped to 0…1 by hand, and rounded by truncating x + 0.5 (x ≥ 0): the generic SIMD clamps and
        // conversions are not inlined across modules.
        let r = min(max(c.x, 0), 1), g = min(max(c.y, 0), 1), b = min(max(c.z, 0), 1)
        if encode {
            p[0] = encoded(r, table)
            p[1] = encoded(g, table)
            p[2] = encoded(b, table)
        } else {
            p[0] = UInt8(r * 255 + 0.5)
            p[1] = UInt8(g * 255 + 0.5)
            p[2] = UInt8(b * 255 + 0.5)
        }
        p[3] = UInt8(a * 255 + 0.5)
    }

    /// The sRGB code of a linear value already clamped to 0…1 (16384 is `SRGBCurve.encodeSteps`).
    @inline(__always)
    static func encoded(_ linear: Float, _ table: UnsafePointer<UInt8>) -> UInt8 { table[Int(linear * 16384 + 0.5)] }

    /// Straight 8-bit colour premultiplied by its 8-bit alpha, rounded: what a premultiplied output holds.
    @inline(__always)
    static func premultiplied(_ r: UInt8, _ g: UInt8, _ b: UInt8, alpha: UInt8) -> (UInt8, UInt8, UInt8) {
        if alpha == 255 { return (r, g, b) }
        @inline(__always) func times(_ c: UInt8) -> UInt8 { UInt8((UInt32(c) * UInt32(alpha) + 127) / 255) }
        return (times(r), times(g), times(b))
    }

    /// Premultiplied 8-bit colour divided by its 8-bit alpha, rounded and clamped: the straight colour it holds.
    @inline(__always)
    static func straight(_ r: UInt8, _ g: UInt8, _ b: UInt8, alpha: UInt8) -> (UInt8, UInt8, UInt8) {
        if alpha == 255 { return (r, g, b) }
        if alpha == 0 { return (0, 0, 0) }
        @inline(__always) func over(_ c: UInt8) -> UInt8 {
            UInt8(min(255, (UInt32(c) * 255 + UInt32(alpha) / 2) / UInt32(alpha)))
        }
        return (over(r), over(g), over(b))
    }
}
