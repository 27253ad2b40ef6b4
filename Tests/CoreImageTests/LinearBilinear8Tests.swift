import CoreImage
import Foundation
import Testing

/// The fixed-point warp kernel's two forms: the plain reference (`run`, which decodes each tap's bytes as it mixes
/// them) and the fast path (`decodeBlock` once, then `runDecoded` from the decoded block). They must give the same
/// bytes for every table, and both must stay within one code of the mix computed here from the sRGB formulas.
@Suite struct LinearBilinear8Tests {
    /// A small deterministic generator, so the taps and bytes are the same on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// IEC 61966-2-1: an sRGB code's linear value, and a linear value's code (unrounded).
    static func decoded(_ code: Int) -> Double {
        let v = Double(code) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }
    static func encoded(_ linear: Double) -> Double {
        let v = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return v * 255
    }

    struct Case {
        var bytes: [UInt8]
        let width = 61, height = 37
        var rowStride: Int { 4 * width + 12 }
        /// Per pixel: upper-left tap column and row, and the four weights (1/16384, summing to 16384).
        var taps: [(x: Int, y: Int, w: (Int32, Int32, Int32, Int32))] = []

        init(seed: UInt64, count: Int) {
            var g = Generator(state: seed)
            bytes = [UInt8](repeating: 0, count: 4 * width * height + 12 * height)
            for y in 0..<height {
                for x in 0..<width {
                    for c in 0..<3 { bytes[y * (4 * width + 12) + 4 * x + c] = UInt8(g.next(256)) }
                    bytes[y * (4 * width + 12) + 4 * x + 3] = 255
                }
            }
            // Weights at every corner of their range, and interior ones; the first taps the block's corners.
            let corners = [(0, 0), (width - 2, 0), (0, height - 2), (width - 2, height - 2)]
            for k in 0..<count {
                let (x, y) = k < corners.count ? corners[k] : (g.next(width - 1), g.next(height - 1))
                let ax = Int32(k % 5 == 0 ? 0 : k % 5 == 1 ? 1023 : g.next(1024))
                let ay = Int32(k % 7 == 0 ? 0 : k % 7 == 1 ? 1023 : g.next(1024))
                let w11 = (ax * ay + 32) >> 6
                taps.append((x, y, (16384 - 16 * ax - 16 * ay + w11, 16 * ax - w11, 16 * ay - w11, w11)))
            }
        }

        /// Runs `body` with the taps laid out for a source whose pixels are `pixelBytes` apart and rows `stride`
        /// apart, from column `x0` and row `y0`.
        func withTaps<R>(
            pixelBytes: Int, stride: Int, origin: (x: Int, y: Int), _ body: ((UnsafeMutablePointer<Int32>, UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>)) -> R
        ) -> R {
            var offsets = taps.map { Int32(($0.y + origin.y) * stride + ($0.x + origin.x) * pixelBytes) }
            var uppers = taps.map { UInt32(bitPattern: $0.w.0) | UInt32(bitPattern: $0.w.1) << 16 }
            var lowers = taps.map { UInt32(bitPattern: $0.w.2) | UInt32(bitPattern: $0.w.3) << 16 }
            return offsets.withUnsafeMutableBufferPointer { o in
                uppers.withUnsafeMutableBufferPointer { u in
                    lowers.withUnsafeMutableBufferPointer { l in body((o.baseAddress!, u.baseAddress!, l.baseAddress!)) }
                }
            }
        }

        func reference(_ kernel: LinearBilinear8) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: 4 * taps.count)
            withTaps(pixelBytes: 4, stride: rowStride, origin: (0, 0)) { t in
                bytes.withUnsafeBufferPointer { b in
                    out.withUnsafeMutableBufferPointer { o in
                        kernel.run(
                            source: b.baseAddress!, rowStride: rowStride, taps: t, count: taps.count,
                            into: o.baseAddress!)
                    }
                }
            }
            return out
        }

        /// The fast path over a block that starts at column 3 and row 2 of a larger imagined source, so that the
        /// offsets carry an origin, as a band's block does.
        func fast(_ kernel: LinearBilinear8) -> [UInt8] {
            let blockStride = width * LinearBilinear8.blockPixelBytes
            let block = UnsafeMutableRawPointer.allocate(byteCount: blockStride * height, alignment: 16)
            defer { block.deallocate() }
            var out = [UInt8](repeating: 0, count: 4 * taps.count)
            bytes.withUnsafeBufferPointer { b in
                kernel.decodeBlock(
                    source: b.baseAddress!, rowStride: rowStride, columns: 0..<width, rows: 0..<height, into: block)
            }
            let origin = 3 * LinearBilinear8.blockPixelBytes + 2 * blockStride
            withTaps(pixelBytes: LinearBilinear8.blockPixelBytes, stride: blockStride, origin: (3, 2)) { t in
                out.withUnsafeMutableBufferPointer { o in
                    kernel.runDecoded(
                        block: block, blockStride: blockStride, origin: origin, taps: t, count: taps.count,
                        into: o.baseAddress!)
                }
            }
            return out
        }
    }

    @Test(arguments: [(true, true), (true, false), (false, true), (false, false)])
    func theDecodedBlockGivesTheReferenceBytes(_ decode: Bool, _ encode: Bool) {
        let kernel = LinearBilinear8(decode: decode, encode: encode)
        let c = Case(seed: 0x5EED + UInt64(decode ? 2 : 0) + UInt64(encode ? 1 : 0), count: 3000)
        let reference = c.reference(kernel), fast = c.fast(kernel)
        let differing = zip(reference, fast).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(fast.count) bytes differ")
        #expect(stride(from: 3, to: fast.count, by: 4).allSatisfy { fast[$0] == 255 })
    }

    /// Colour-managed: each channel within one code of the sRGB-decoded taps mixed in Double and encoded again.
    @Test func theFastPathMixesInLinearLight() {
        let kernel = LinearBilinear8(decode: true, encode: true)
        let c = Case(seed: 0xC0DE, count: 3000)
        let fast = c.fast(kernel)
        var worst = 0.0
        for (k, tap) in c.taps.enumerated() {
            let weights = [tap.w.0, tap.w.1, tap.w.2, tap.w.3].map { Double($0) / 16384 }
            let positions = [(tap.x, tap.y), (tap.x + 1, tap.y), (tap.x, tap.y + 1), (tap.x + 1, tap.y + 1)]
            for channel in 0..<3 {
                var mix = 0.0
                for (w, (x, y)) in zip(weights, positions) {
                    mix += w * Self.decoded(Int(c.bytes[y * c.rowStride + 4 * x + channel]))
                }
                worst = max(worst, abs(Double(fast[4 * k + channel]) - Self.encoded(mix)))
            }
        }
        // Half a code of rounding, and the tables' small steps.
        #expect(worst < 1, "worst \(worst) codes")
    }
}
