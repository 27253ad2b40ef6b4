import Foundation
import Imaging

/// One step of a `CIImage`'s recipe. Nothing is computed when a recipe is built: a context asks the
/// root for a region, each node first `prepare`s what it needs from its inputs (only nodes that read
/// neighbourhoods compute anything there), and then rows stream through `fill` in parallel bands, so
/// a chain of per-pixel operations is one pass over the pixels.
class Recipe: @unchecked Sendable {
    /// The region where the image is defined, in Core Image's coordinates; outside it the image is
    /// clear (0, 0, 0, 0). May be infinite (generators, clamped images).
    let extent: CGRect

    init(extent: CGRect) { self.extent = extent }

    /// Computes what `fill` will need for `region`. Called once per render, from one thread.
    func prepare(_ region: Region, _ state: RenderState) {}

    /// Writes rows `rows` of `region` (premultiplied RGBA in the working space) to `out`, which points
    /// at the first of those rows, `region.width` pixels apart. Writes every pixel.
    func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        fatalError("every recipe fills its rows")
    }

    /// The Core Image row `y` of plane row `j` in a region.
    @inline(__always)
    static func ciRow(_ region: Region, _ j: Int) -> Int { region.y + region.height - 1 - j }

    /// The columns of a region's rows that lie inside an extent (whose pixel centres do), or nil.
    func columns(_ region: Region, row y: Int) -> Range<Int>? {
        if extent.isInfinite { return 0..<region.width }
        let cy = CGFloat(y) + 0.5
        guard cy > extent.minY, cy < extent.maxY else { return nil }
        let x0 = max(0, Int((extent.minX - 0.5).rounded(.up)) - region.x)
        let x1 = min(region.width, Int((extent.maxX - 0.5).rounded(.up)) - region.x)
        return x0 < x1 ? x0..<x1 : nil
    }
}

/// Renders a recipe over a region into new pixels, in parallel row bands.
func materialise(_ node: Recipe, _ region: Region, _ state: RenderState) -> Pixels {
    let pixels = Pixels(width: max(0, region.width), height: max(0, region.height))
    guard !region.isEmpty else { return pixels }
    node.prepare(region, state)
    let w = region.width
    BandParallel.forEachBand(height: region.height) { rows in
        node.fill(region, rows: rows, into: pixels.base + rows.lowerBound * w, state)
    }
    return pixels
}

/// An image held in memory: 8-bit RGBA (straight alpha) or premultiplied floats, with how its values
/// are encoded.
final class BitmapRecipe: Recipe, @unchecked Sendable {
    enum Encoding {
        /// sRGB-encoded colour: decoded to linear in a colour-managed context.
        case sRGB
        /// Linear values, or data that is not colour (depth, disparity, mattes): used as they are.
        case linear
    }

    enum Storage {
        /// R, G, B, A bytes, straight alpha, rows top first, `rowStride` bytes apart.
        case bytes([UInt8], rowStride: Int)
        /// Premultiplied RGBA, rows top first.
        case floats([SIMD4<Float>])
    }

    let width: Int
    let height: Int
    let originX: Int
    let originY: Int
    let storage: Storage
    let encoding: Encoding
    /// Whether every alpha byte is known to be 255 (an image without alpha): the 8-bit warp's fast path then
    /// skips alpha (see `BytesWarp`).
    let isOpaque: Bool

    init(
        width: Int, height: Int, originX: Int = 0, originY: Int = 0, storage: Storage, encoding: Encoding,
        isOpaque: Bool = false
    ) {
        self.width = width
        self.height = height
        self.originX = originX
        self.originY = originY
        self.storage = storage
        self.encoding = encoding
        self.isOpaque = isOpaque
        super.init(extent: CGRect(x: originX, y: originY, width: width, height: height))
    }

    /// One stored RGBA byte pixel as the working value: colour decoded (through `table`, the sRGB decode table) or
    /// scaled to 0…1, then premultiplied by alpha. The one definition both the row fill and `BytesWarp` use, so the
    /// fast path reads exactly the values the general one does.
    @inline(__always)
    static func workingValue(_ p: UnsafePointer<UInt8>, decode: Bool, table: UnsafePointer<Float>) -> SIMD4<Float> {
        let a = Float(p[3]) * (1 / 255)
        let rgb: SIMD4<Float> = decode
            ? SIMD4(table[Int(p[0])], table[Int(p[1])], table[Int(p[2])], 1)
            : SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), 255) * (1 / 255)
        return SIMD4(rgb.x * a, rgb.y * a, rgb.z * a, a)
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let w = region.width
        let decode = state.context.managesColor && encoding == .sRGB
        for (k, j) in rows.enumerated() {
            let o = out + k * w
            let y = Recipe.ciRow(region, j)
            let sy = originY + height - 1 - y
            guard sy >= 0, sy < height else {
                o.update(repeating: .zero, count: w)
                continue
            }
            let x0 = max(0, originX - region.x), x1 = min(w, originX + width - region.x)
            guard x0 < x1 else {
                o.update(repeating: .zero, count: w)
                continue
            }
            if x0 > 0 { o.update(repeating: .zero, count: x0) }
            if x1 < w { (o + x1).update(repeating: .zero, count: w - x1) }
            let sx0 = region.x + x0 - originX
            switch storage {
            case .bytes(let bytes, let rowStride):
                bytes.withUnsafeBufferPointer { b in
                    SRGBCurve.decodeTable.withUnsafeBufferPointer { table in
                        let src = b.baseAddress! + sy * rowStride + 4 * sx0
                        for i in 0..<(x1 - x0) {
                            o[x0 + i] = Self.workingValue(src + 4 * i, decode: decode, table: table.baseAddress!)
                        }
                    }
                }
            case .floats(let floats):
                floats.withUnsafeBufferPointer { f in
                    let src = f.baseAddress! + sy * width + sx0
                    if decode {
                        for i in 0..<(x1 - x0) {
                            let p = src[i]
                            let a = p.w
                            let s = a > 0 ? 1 / a : 0
                            o[x0 + i] = SIMD4(
                                SRGBCurve.decode(p.x * s) * a, SRGBCurve.decode(p.y * s) * a, SRGBCurve.decode(p.z * s) * a, a)
                        }
                    } else {
                        (o + x0).update(from: src, count: x1 - x0)
                    }
                }
            }
        }
    }
}

/// A colour everywhere (an infinite extent).
final class ConstantRecipe: Recipe, @unchecked Sendable {
    let color: SIMD4<Float>

    init(color: SIMD4<Float>) {
        self.color = color
        super.init(extent: .infinite)
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let c = color
        let linear: SIMD4<Float> = state.context.managesColor
            ? SIMD4(SRGBCurve.decode(c.x), SRGBCurve.decode(c.y), SRGBCurve.decode(c.z), c.w) : c
        let premultiplied = SIMD4(linear.x * c.w, linear.y * c.w, linear.z * c.w, c.w)
        out.update(repeating: premultiplied, count: rows.count * region.width)
    }
}

/// The input inside a rectangle, clear outside it (pixels whose centres lie inside are kept).
final class CropRecipe: Recipe, @unchecked Sendable {
    let input: Recipe

    init(input: Recipe, rect: CGRect) {
        self.input = input
        super.init(extent: input.extent.intersection(rect))
    }

    override func prepare(_ region: Region, _ state: RenderState) { input.prepare(region, state) }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let w = region.width
        if extent.isNull || extent.isEmpty {
            out.update(repeating: .zero, count: rows.count * w)
            return
        }
        input.fill(region, rows: rows, into: out, state)
        for (k, j) in rows.enumerated() {
            let o = out + k * w
            guard let inside = columns(region, row: Recipe.ciRow(region, j)) else {
                o.update(repeating: .zero, count: w)
                continue
            }
            if inside.lowerBound > 0 { o.update(repeating: .zero, count: inside.lowerBound) }
            if inside.upperBound < w { (o + inside.upperBound).update(repeating: .zero, count: w - inside.upperBound) }
        }
    }
}

/// The input's edge pixels repeated outwards for ever (`clampedToExtent()`).
final class ClampRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    let bounds: Region

    init?(input: Recipe) {
        guard let bounds = Region(covering: input.extent), !bounds.isEmpty else { return nil }
        self.input = input
        self.bounds = bounds
        super.init(extent: .infinite)
    }

    /// The part of the input that a region reads.
    private func source(_ r: Region) -> Region {
        let x0 = min(max(r.x, bounds.x), bounds.maxX - 1), x1 = max(min(r.maxX, bounds.maxX), bounds.x + 1)
        let y0 = min(max(r.y, bounds.y), bounds.maxY - 1), y1 = max(min(r.maxY, bounds.maxY), bounds.y + 1)
        return Region(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let s = source(region)
        if state.pixels(self, s) == nil { state.store(materialise(input, s, state), self, s) }
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let s = source(region)
        guard let p = state.pixels(self, s) else { return }
        let w = region.width
        for (k, j) in rows.enumerated() {
            let y = min(max(Recipe.ciRow(region, j), s.y), s.maxY - 1)
            let src = p.row(s.y + s.height - 1 - y)
            let o = out + k * w
            for i in 0..<w { o[i] = src[min(max(region.x + i, s.x), s.maxX - 1) - s.x] }
        }
    }
}
