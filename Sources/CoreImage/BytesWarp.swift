import Foundation
import Imaging

/// The fast path of a warp rendered to 8-bit RGBA when its input is an image held as bytes: the common case of
/// `CIPerspectiveCorrection` (and the other warps) of a `CGImage` or BGRA frame, written by `createCGImage`.
///
/// The general path renders the warp's source region to premultiplied floats first (for a 12 MP frame, 12 million
/// pixels decoded and 190 MB written and read back), then samples them and encodes the result. This path samples
/// the bytes directly, output row by row in runs of 256 columns:
///
/// - A run of an opaque image whose positions follow one quadratic (as they do unless the warp is extreme) and whose
///   taps all lie inside the source is the usual case. Its taps come from the scanner's fixed-point machinery
///   (`WarpRowPositions`, `WarpKernelUInt8.quadraticTaps`: positions in 1/1024 pixel) and are mixed in linear light
///   in integers (`LinearBilinear8`), within one code of the `Float` arithmetic.
/// - Every other pixel reads its four taps' bytes, turns them into working values with the bitmap recipe's own
///   conversion (`BitmapRecipe.workingValue`), interpolates them with `WarpRecipe.fill`'s arithmetic and positions,
///   and encodes with `RGBA8.store`: the same sequence of floating-point operations on the same values, so its bytes
///   equal the general path's exactly. Taps outside the prepared source region or the bitmap are clear, as the
///   general path's prepared plane holds them.
///
/// `PerspectiveCorrectionFastPathTests` compares every pixel with the general path.
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
    /// Whether every alpha byte is 255.
    private let isOpaque: Bool

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
        isOpaque = bitmap.isOpaque
    }

    /// Writes rows `rows` of the region as 8-bit RGBA, `region.width` pixels a row, from `out`.
    func write(rows: Range<Int>, into out: UnsafeMutablePointer<UInt8>, encode: Bool) {
        let w = region.width
        guard output.width > 0, output.height > 0 else {
            out.update(repeating: 0, count: 4 * rows.count * w)
            return
        }
        let o = output
        // Opaque runs of columns wholly inside the source take the fixed-point kernel; its taps come from
        // `WarpKernelUInt8.quadraticTaps`, whose offsets and coordinates must fit its 16-bit lanes.
        let (bw, bh) = (bitmap.width, bitmap.height)
        let interior: LinearBilinear8? =
            isOpaque && rowStride < 32768 && bw < 32768 && bh < 32768 && bytes.count < Int(Int32.max)
            ? LinearBilinear8.shared(decode: decode, encode: encode) : nil
        let runLength = 256
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * runLength) { scratch in
            let taps: WarpKernelUInt8.Taps = (
                UnsafeMutableRawPointer(scratch.baseAddress! + 2 * runLength).assumingMemoryBound(to: Int32.self),
                scratch.baseAddress!, scratch.baseAddress! + runLength
            )
            // Every byte is written once: clear outside the output's columns and rows, and where a position falls
            // outside the source, as the general path leaves them.
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
                let row = line + 4 * left
                let grid = tapGrid(y)
                for start in Swift.stride(from: 0, to: o.width, by: runLength) {
                    let end = min(o.width, start + runLength)
                    if let interior, let q = grid.quadratic(start, end),
                        q.isInside(columns: tapColumns, rows: tapRows)
                    {
                        bytes.withUnsafeBufferPointer { b in
                            let tapper = WarpKernelUInt8(
                                source: b.baseAddress!, sourceStride: rowStride, channels: 4, lastX: bw - 1,
                                lastY: bh - 1, fill: 0)
                            tapper.quadraticTaps(x: q.x, y: q.y, count: end - start, into: taps)
                            interior.run(
                                source: b.baseAddress!, rowStride: rowStride, taps: taps, count: end - start,
                                into: row + 4 * start)
                        }
                    } else {
                        writePixels(start..<end, y: y, into: row, encode: encode)
                    }
                }
            }
        }
    }

    /// The source positions of output row `y`'s columns (counted from the output's first) in the bitmap's tap
    /// grid: columns and rows of its sample centres, rows from the top.
    private func tapGrid(_ y: Int) -> WarpRowPositions {
        let (u, v, w) = rowOrigin(y)
        let top = Double(bitmap.originY + bitmap.height), left = Double(bitmap.originX)
        return WarpRowPositions(
            u: u - left * w, du: m[0] - left * m[6], v: top * w - v, dv: top * m[6] - m[3], w: w, dw: m[6])
    }

    /// The homography's numerators and denominator at the centre of output row `y`'s first column, in Double.
    private func rowOrigin(_ y: Int) -> (u: Double, v: Double, w: Double) {
        let yc = Double(y) + 0.5, x0c = Double(output.x) + 0.5
        return (m[0] * x0c + m[1] * yc + m[2], m[3] * x0c + m[4] * yc + m[5], m[6] * x0c + m[7] * yc + m[8])
    }

    /// The bitmap's columns and rows that taps may read: inside both the bitmap and the prepared source region.
    private var tapColumns: Range<Int> {
        let shift = source.x - bitmap.originX
        return max(0, shift)..<min(bitmap.width, shift + source.width)
    }
    private var tapRows: Range<Int> {
        let shift = bitmap.originY + bitmap.height - source.maxY
        return max(0, shift)..<min(bitmap.height, shift + source.height)
    }

    /// Writes output columns `columns` of row `y` (counted from the output's first, into `row`) as the general path
    /// computes them, in `Float`.
    private func writePixels(_ columns: Range<Int>, y: Int, into row: UnsafeMutablePointer<UInt8>, encode: Bool) {
        let s = source
        let sw = s.width, sh = s.height
        let lastX = Float(sw), lastY = Float(sh)
        let (mx, my, mw) = (Float(m[0]), Float(m[3]), Float(m[6]))
        let sx0 = Float(s.x) + 0.5, sy0 = Float(s.maxY) - 0.5
        // Source-plane tap (x, y) to the bitmap's column and row: columns shift, rows count down from the top in both.
        let columnShift = s.x - bitmap.originX
        let rowShift = bitmap.originY + bitmap.height - s.maxY
        let (bw, bh) = (bitmap.width, bitmap.height)
        let decode = self.decode
        let stride = rowStride
        // Positions as `WarpRecipe.fill` computes them: row origins in Double, steps in Float.
        let origin = rowOrigin(y)
        let u0 = Float(origin.u), v0 = Float(origin.v), w0 = Float(origin.w)
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * columns.count) { positions in
            let pxs = positions.baseAddress!, pys = pxs + columns.count
            // A separate pass over the run's positions, which the compiler vectorises.
            for i in columns {
                let fi = Float(i)
                let wd = w0 + mw * fi
                pxs[i - columns.lowerBound] = (u0 + mx * fi) / wd - sx0
                pys[i - columns.lowerBound] = sy0 - (v0 + my * fi) / wd
            }
            bytes.withUnsafeBufferPointer { b in
                SRGBCurve.decodeTable.withUnsafeBufferPointer { d in
                    SRGBCurve.encodeTable.withUnsafeBufferPointer { e in
                        let base = b.baseAddress!, decodeTable = d.baseAddress!, table = e.baseAddress!
                        /// The working value of source-plane tap (x, y): clear outside the plane or the bitmap.
                        @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD4<Float> {
                            let bx = x + columnShift, by = y + rowShift
                            guard x >= 0, y >= 0, x < sw, y < sh, bx >= 0, by >= 0, bx < bw, by < bh else {
                                return .zero
                            }
                            return BitmapRecipe.workingValue(
                                base + by * stride + 4 * bx, decode: decode, table: decodeTable)
                        }
                        for i in columns {
                            let px = pxs[i - columns.lowerBound], py = pys[i - columns.lowerBound]
                            guard px.isFinite, py.isFinite, px > -1, py > -1, px < lastX, py < lastY
                            else {
                                UnsafeMutableRawPointer(row + 4 * i).storeBytes(of: 0, as: UInt32.self)
                                continue
                            }
                            let x0 = Int(px + 1) - 1, y0 = Int(py + 1) - 1
                            let ax = px - Float(x0), ay = py - Float(y0)
                            let p = row + 4 * i
                            if x0 >= 0, y0 >= 0, x0 + 1 < sw, y0 + 1 < sh {
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
