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
///   in integers (`LinearBilinear8`), within one code of the `Float` arithmetic. Bands are 64 rows tall, and the
///   source bytes that one run of columns reads in all of a band's rows are decoded to working values once, into a
///   block (`LinearBilinear8.decodeBlock`), instead of once for every pixel that reads them; the block's mix gives
///   the same bytes as decoding each tap (`LinearBilinear8Tests`).
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

    /// Output rows per band: a band's runs of columns decode the source their taps read once, and a taller band
    /// decodes less twice (a tilted run's taps span a few rows more than its band).
    static let rowsPerBand = 64

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
        // Every byte is written once: clear outside the output's columns and rows, and where a position falls outside
        // the source, as the general path leaves them.
        let left = o.x - region.x, right = region.maxX - o.maxX
        var inside: [(k: Int, y: Int)] = []
        for (k, j) in rows.enumerated() {
            let line = out + 4 * k * w
            let y = Recipe.ciRow(region, j)
            guard y >= o.y, y < o.maxY else {
                line.update(repeating: 0, count: 4 * w)
                continue
            }
            if left > 0 { line.update(repeating: 0, count: 4 * left) }
            if right > 0 { (line + 4 * (w - right)).update(repeating: 0, count: 4 * right) }
            inside.append((k, y))
        }
        // Opaque runs of columns wholly inside the source take the fixed-point kernel; its taps come from
        // `WarpKernelUInt8.quadraticTaps`, whose offsets and coordinates must fit its 16-bit lanes.
        let (bw, bh) = (bitmap.width, bitmap.height)
        let interior: LinearBilinear8? =
            isOpaque && rowStride < 32768 && bw < 32768 && bh < 32768 && bytes.count < Int(Int32.max)
            ? LinearBilinear8.shared(decode: decode, encode: encode) : nil
        var block = DecodedBlock()
        defer { block.release() }
        // The band's rows go in blocks of one run of columns each, so that a run's source bytes are decoded once
        // for all the rows that read them.
        let runLength = 256
        var planned: [(k: Int, q: WarpTileQuadratic)] = []
        for start in Swift.stride(from: 0, to: o.width, by: runLength) {
            let end = min(o.width, start + runLength)
            planned.removeAll(keepingCapacity: true)
            for (k, y) in inside {
                let row = out + 4 * k * w + 4 * left
                if interior != nil, let q = tapGrid(y).quadratic(start, end),
                    q.isInside(columns: tapColumns, rows: tapRows)
                {
                    planned.append((k, q))
                } else {
                    writePixels(start..<end, y: y, into: row, encode: encode)
                }
            }
            if let interior, !planned.isEmpty {
                writeInterior(planned, count: end - start, kernel: interior, block: &block) { k in
                    out + 4 * k * w + 4 * (left + start)
                }
            }
        }
    }

    /// Writes the planned runs (each output row `k`'s `count` columns from `target(k)`) with the fixed-point kernel:
    /// from one decoded block of the source bytes their taps read when that block is small, else from the bytes.
    private func writeInterior(
        _ planned: [(k: Int, q: WarpTileQuadratic)], count: Int, kernel: LinearBilinear8, block: inout DecodedBlock,
        target: (Int) -> UnsafeMutablePointer<UInt8>
    ) {
        // The taps' columns and rows: those of every position, less a margin for the fixed-point steps, and the next.
        let margin = 1.0 / 64
        var low = (x: Double.infinity, y: Double.infinity), high = (x: -Double.infinity, y: -Double.infinity)
        for (_, q) in planned {
            low = (min(low.x, q.low.x), min(low.y, q.low.y))
            high = (max(high.x, q.high.x), max(high.y, q.high.y))
        }
        let columns = max(tapColumns.lowerBound, Int((low.x - margin).rounded(.down)))
            ..< min(tapColumns.upperBound, Int((high.x + margin).rounded(.down)) + 2)
        let rows = max(tapRows.lowerBound, Int((low.y - margin).rounded(.down)))
            ..< min(tapRows.upperBound, Int((high.y + margin).rounded(.down)) + 2)
        let blockStride = columns.count * LinearBilinear8.blockPixelBytes
        // A block is worth decoding when each of its pixels serves about one output pixel or more, and fits the
        // taps' 16-bit stride.
        let useBlock = blockStride < 32768 && columns.count * rows.count <= 2 * count * planned.count
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * count + 12) { scratch in
            let lanes = (count + 3) / 4 * 4
            let taps: WarpKernelUInt8.Taps = (
                UnsafeMutableRawPointer(scratch.baseAddress! + 2 * lanes).assumingMemoryBound(to: Int32.self),
                scratch.baseAddress!, scratch.baseAddress! + lanes
            )
            bytes.withUnsafeBufferPointer { b in
                let source = b.baseAddress!
                if useBlock {
                    let base = block.reserve(rows.count * blockStride)
                    kernel.decodeBlock(
                        source: source, rowStride: rowStride, columns: columns, rows: rows, into: base)
                    let tapper = WarpKernelUInt8(
                        source: source, sourceStride: blockStride, channels: LinearBilinear8.blockPixelBytes,
                        lastX: bitmap.width - 1, lastY: bitmap.height - 1, fill: 0)
                    let origin = columns.lowerBound * LinearBilinear8.blockPixelBytes + rows.lowerBound * blockStride
                    for (k, q) in planned {
                        tapper.quadraticTaps(x: q.x, y: q.y, count: count, into: taps)
                        kernel.runDecoded(
                            block: base, blockStride: blockStride, origin: origin, taps: taps, count: count,
                            into: target(k))
                    }
                } else {
                    let tapper = WarpKernelUInt8(
                        source: source, sourceStride: rowStride, channels: 4, lastX: bitmap.width - 1,
                        lastY: bitmap.height - 1, fill: 0)
                    for (k, q) in planned {
                        tapper.quadraticTaps(x: q.x, y: q.y, count: count, into: taps)
                        kernel.run(source: source, rowStride: rowStride, taps: taps, count: count, into: target(k))
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

/// The working memory of one band's decoded blocks, grown as a block needs and freed once at the end.
private struct DecodedBlock {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0

    /// At least `bytes` bytes, their contents undefined.
    mutating func reserve(_ bytes: Int) -> UnsafeMutableRawPointer {
        if let base, capacity >= bytes { return base }
        base?.deallocate()
        capacity = max(bytes, 2 * capacity)
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: max(1, capacity), alignment: 16)
        base = fresh
        return fresh
    }

    mutating func release() {
        base?.deallocate()
        base = nil
        capacity = 0
    }
}
