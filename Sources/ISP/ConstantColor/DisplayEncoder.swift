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
                    return ParallelRows.fill(count: rgb.count, rows: height, of: UInt8.self) { rows, out in
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
    /// times the exposure `scale`; row bands in parallel.
    func encode(linear rgb: [Float], scale: Float, width: Int, height: Int) -> PixelPlane<UInt8> {
        precondition(rgb.count == 3 * width * height, "three values per pixel")
        let top = maximum
        let last = Float(table.count - 1)
        let bytes = rgb.withUnsafeBufferPointer { src -> [UInt8] in
            let source = SharedReadPointer(src)
            return table.withUnsafeBufferPointer { lut -> [UInt8] in
                let lookup = SharedReadPointer(lut)
                return ParallelRows.fill(count: rgb.count, rows: height, of: UInt8.self) { rows, out in
                    // min(max(v, 0), top) / top equals min(max(v, 0) · (1/top), 1) bit for bit when top is a
                    // power of two (both are the exact quotient, rounded once), which saves a division per
                    // value, the loop's slowest instruction beside the square root.
                    let exact = top.significandBitPattern == 0 && top.isNormal
                    let reciprocal = 1 / top
                    for i in (3 * rows.lowerBound * width)..<(3 * rows.upperBound * width) {
                        let v = source.base[i] * scale
                        let c = v > 0 ? v : 0
                        let q = exact ? (c < top ? c * reciprocal : 1) : min(c, top) / top
                        out[i] = lookup.base[Int(q.squareRoot() * last + 0.5)]
                    }
                }
            }
        }
        return PixelPlane(width: width, height: height, channels: 3, elements: bytes)
    }

    /// The PNG tag of this encoding: Display P3 primaries and white, gAMA 1/2.2 (PNG spec §11.3.3.5).
    static let pngColorSpace = PNGColorSpace.other(
        PNGColorChunks(gamma: 1 / gamma, chromaticities: .displayP3))
}
