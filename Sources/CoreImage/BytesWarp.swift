import Foundation
import Imaging

/// The fast path of a warp rendered to 8-bit RGBA when its input is an image held as bytes: the common case of
/// `CIPerspectiveCorrection` (and the other warps) of a `CGImage` or BGRA frame, written by `createCGImage`.
///
/// The general path renders the warp's source region to premultiplied floats first (for a 12 MP frame, 12 million
/// pixels decoded and 190 MB written and read back), then samples them and encodes the result. This path samples
/// the bytes directly: each output pixel reads its four taps' bytes, turns them into working values with the
/// bitmap recipe's own conversion (`BitmapRecipe.workingValue`), interpolates them with `WarpRecipe.fill`'s
/// arithmetic and positions, and encodes with `RGBA8.store`. It is the same sequence of floating-point operations
/// on the same values, so its bytes equal the general path's exactly, not merely within a code; taps outside the
/// prepared source region or the bitmap are clear, as the general path's prepared plane holds them.
///
/// For an image known to be opaque, interior pixels skip alpha: every tap's alpha is `255 · (1/255)`, exactly 1 in
/// `Float`, so the interpolated alpha is exactly 1, the unpremultiply is skipped, and only the three colours are
/// interpolated, with the tap values read from a 256-entry table of the conversion's results.
struct BytesWarp: @unchecked Sendable {
    private let bytes: [UInt8]
    private let rowStride: Int
    private let bitmap: BitmapRecipe
    private let decode: Bool
    /// The output region and the columns and rows of it inside the warp's extent.
    private let region: Region
    private let output: Region
    /// The source region the general path would prepare, in Core Image's coordinates.
    private let source: Region
    private let m: [Double]
    /// Each byte as the working value of a colour component at alpha 255 (only used when that alpha is exactly 1).
    private let opaqueValues: [Float]
    private let opaqueFastPath: Bool

    /// Nil unless the warp's input is a bitmap recipe holding bytes.
    init?(_ warp: WarpRecipe, region: Region, state: RenderState) {
        guard let bitmap = warp.input as? BitmapRecipe, case .bytes(let bytes, let rowStride) = bitmap.storage else {
            return nil
        }
        self.bytes = bytes
        self.rowStride = rowStride
        self.bitmap = bitmap
        self.region = region
        decode = state.context.managesColor && bitmap.encoding == .sRGB
        m = warp.outputToSource.entries
        if let (o, s) = warp.regions(region) {
            output = o
            source = s
        } else {
            output = Region(x: region.x, y: region.y, width: 0, height: 0)
            source = output
        }
        let decode = self.decode
        let opaque: [UInt8] = [0, 0, 0, 255]
        opaqueValues = (0..<256).map { v in
            SRGBCurve.decodeTable.withUnsafeBufferPointer { table in
                [UInt8(v), 0, 0, 255].withUnsafeBufferPointer {
                    BitmapRecipe.workingValue($0.baseAddress!, decode: decode, table: table.baseAddress!).x
                }
            }
        }
        let alphaOne = opaque.withUnsafeBufferPointer { p in
            SRGBCurve.decodeTable.withUnsafeBufferPointer {
                BitmapRecipe.workingValue(p.baseAddress!, decode: decode, table: $0.baseAddress!).w
            }
        }
        opaqueFastPath = bitmap.isOpaque && alphaOne == 1
    }

    /// Writes rows `rows` of the region as 8-bit RGBA, `region.width` pixels a row, from `out`.
    func write(rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>, encode: Bool) {
        let w = region.width
        guard output.width > 0, output.height > 0 else {
            out.update(repeating: 0, count: 4 * rows.count * w)
            return
        }
        let o = output, s = source, m = self.m
        let sw = s.width, sh = s.height
        let lastX = Float(sw), lastY = Float(sh)
        let (mx, my, mw) = (Float(m[0]), Float(m[3]), Float(m[6]))
        let sx0 = Float(s.x) + 0.5, sy0 = Float(s.maxY) - 0.5
        // Source-plane tap (x, y) to the bitmap's column and row: columns shift, rows count down from the top in both.
        let columnShift = s.x - bitmap.originX
        let rowShift = bitmap.originY + bitmap.height - s.maxY
        let (bw, bh) = (bitmap.width, bitmap.height)
        let decode = self.decode, opaqueFast = opaqueFastPath
        let stride = rowStride
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * max(1, o.width)) { positions in
            let pxs = positions.baseAddress!, pys = pxs + o.width
            bytes.withUnsafeBufferPointer { b in
                SRGBCurve.decodeTable.withUnsafeBufferPointer { d in
                    SRGBCurve.encodeTable.withUnsafeBufferPointer { e in
                        opaqueValues.withUnsafeBufferPointer { v in
                            let base = b.baseAddress!, decodeTable = d.baseAddress!, table = e.baseAddress!
                            let values = v.baseAddress!
                            /// The working value of source-plane tap (x, y): clear outside the plane or the bitmap.
                            @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD4<Float> {
                                let bx = x + columnShift, by = y + rowShift
                                guard x >= 0, y >= 0, x < sw, y < sh, bx >= 0, by >= 0, bx < bw, by < bh else {
                                    return .zero
                                }
                                return BitmapRecipe.workingValue(
                                    base + by * stride + 4 * bx, decode: decode, table: decodeTable)
                            }
                            // Every byte is written once: clear outside the output's columns and rows, and where a
                            // position falls outside the source, as the general path leaves them.
                            let left = o.x - region.x, right = region.maxX - o.maxX
                            for (k, j) in rows.enumerated() {
                                let line = out + 4 * k * w
                                let y = Recipe.ciRow(region, j)
                                guard y >= o.y, y < o.maxY else {
                                    line.update(repeating: 0, count: 4 * w)
                                    continue
                                }
                                if left > 0 { line.update(repeating: 0, count: 4 * left) }
                                if right > 0 { (line + 4 * (w - right)).update(repeating: 0, count: 4 * right) }
                                // Positions as `WarpRecipe.fill` computes them: row origins in Double, steps in Float.
                                let yc = Double(y) + 0.5, x0c = Double(o.x) + 0.5
                                let u0 = Float(m[0] * x0c + m[1] * yc + m[2])
                                let v0 = Float(m[3] * x0c + m[4] * yc + m[5])
                                let w0 = Float(m[6] * x0c + m[7] * yc + m[8])
                                // A separate pass over the row's positions, which the compiler vectorises.
                                for i in 0..<o.width {
                                    let fi = Float(i)
                                    let wd = w0 + mw * fi
                                    pxs[i] = (u0 + mx * fi) / wd - sx0
                                    pys[i] = sy0 - (v0 + my * fi) / wd
                                }
                                let row = line + 4 * left
                                for i in 0..<o.width {
                                    let px = pxs[i], py = pys[i]
                                    guard px.isFinite, py.isFinite, px > -1, py > -1, px < lastX, py < lastY else {
                                        UnsafeMutableRawPointer(row + 4 * i).storeBytes(of: 0, as: UInt32.self)
                                        continue
                                    }
                                    let x0 = Int(px + 1) - 1, y0 = Int(py + 1) - 1
                                    let ax = px - Float(x0), ay = py - Float(y0)
                                    let p = row + 4 * i
                                    if x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh {
                                        let bx = x0 + columnShift, by = y0 + rowShift
                                        if opaqueFast, bx >= 0, by >= 0, bx &+ 1 < bw, by &+ 1 < bh {
                                            let t = base + (by &* stride &+ 4 &* bx), u = t + stride
                                            @inline(__always) func channel(_ c: Int) -> Float {
                                                let a0 = values[Int(t[c])], a1 = values[Int(t[c + 4])]
                                                let b0 = values[Int(u[c])], b1 = values[Int(u[c + 4])]
                                                let top = a0 + (a1 - a0) * ax, bottom = b0 + (b1 - b0) * ax
                                                return top + (bottom - top) * ay
                                            }
                                            let r = min(max(channel(0), 0), 1), g = min(max(channel(1), 0), 1)
                                            let bl = min(max(channel(2), 0), 1)
                                            // One little-endian word: R, G, B, then alpha 255.
                                            let word: UInt32 =
                                                encode
                                                ? UInt32(RGBA8.encoded(r, table)) | UInt32(RGBA8.encoded(g, table)) << 8
                                                    | UInt32(RGBA8.encoded(bl, table)) << 16
                                                : UInt32(UInt8(r * 255 + 0.5)) | UInt32(UInt8(g * 255 + 0.5)) << 8
                                                    | UInt32(UInt8(bl * 255 + 0.5)) << 16
                                            UnsafeMutableRawPointer(p).storeBytes(
                                                of: (word | 0xFF00_0000).littleEndian, as: UInt32.self)
                                            continue
                                        }
                                        let p00 = tap(x0, y0), p10 = tap(x0 + 1, y0)
                                        let p01 = tap(x0, y0 + 1), p11 = tap(x0 + 1, y0 + 1)
                                        let top = p00 + (p10 - p00) * ax, bottom = p01 + (p11 - p01) * ax
                                        RGBA8.store(top + (bottom - top) * ay, p, encode: encode, table: table)
                                    } else {
                                        let top = tap(x0, y0) * (1 - ax) + tap(x0 + 1, y0) * ax
                                        let bottom = tap(x0, y0 + 1) * (1 - ax) + tap(x0 + 1, y0 + 1) * ax
                                        RGBA8.store(top + (bottom - top) * ay, p, encode: encode, table: table)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
