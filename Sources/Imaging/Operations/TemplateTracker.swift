import Foundation

/// Follows a region of a picture from frame to frame by normalised cross-correlation (NCC) against a template, the
/// classic correlation tracker (Lewis, "Fast Normalized Cross-Correlation", Vision Interface 1995, gives the
/// measure).
///
/// - The template is the region's luma resampled to at most `templateSide` pixels on its longer side, taken from
///   the first frame.
/// - In each later frame the region is looked for around where it was: every offset up to half the region's size
///   each way, one template pixel apart, at each of `scales` times its size, then a quarter of a template pixel
///   apart around the best. The best match is where the region now is, and its NCC (0 when negative) says how
///   sure the tracker is.
/// - A match better than 0.8 blends a tenth of itself into the template, so that the tracker follows slow changes
///   of light and pose (our choice), while a poor one leaves the template as it was.
public struct TemplateTracker: Sendable {
    /// A region in a picture's pixels, origin at the top left.
    public struct Region: Sendable, Equatable {
        public var x: Double, y: Double, width: Double, height: Double
        public init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// The longest side of the template (our choice: 32 pixels hold a face's or an object's layout).
    public static let templateSide = 32

    public private(set) var region: Region
    package let templateWidth: Int, templateHeight: Int
    /// The template, zero-mean and unit-norm, row by row.
    package private(set) var template: [Float]

    /// A tracker of `region` of `luma` (one channel, 0…1); nil when the region is empty, lies outside the picture or
    /// holds no contrast to follow.
    public init?(luma: PixelPlane<Float>, region: Region) {
        guard region.width >= 1, region.height >= 1, region.x < Double(luma.width), region.y < Double(luma.height),
            region.x + region.width > 0, region.y + region.height > 0
        else { return nil }
        let side = Double(Self.templateSide)
        let scale = side / max(region.width, region.height)
        templateWidth = max(4, Int((region.width * scale).rounded()))
        templateHeight = max(4, Int((region.height * scale).rounded()))
        self.region = region
        let view = Self.reduced(luma, for: region, templateWidth: templateWidth)
        guard let patch = Self.normalisedPatch(view, region, width: templateWidth, height: templateHeight) else {
            return nil
        }
        template = patch
    }

    /// Finds the region in the next frame; returns where it is and the match's NCC (0…1).
    public mutating func track(_ luma: PixelPlane<Float>, scales: [Double] = [1]) -> (region: Region, score: Float) {
        let view = Self.reduced(luma, for: region, templateWidth: templateWidth)
        let step = region.width / Double(templateWidth)
        let reach = templateWidth / 2
        var best = (region: region, score: -Float.infinity)
        func consider(_ candidate: Region) {
            guard let score = score(view, candidate) else { return }
            if score > best.score { best = (candidate, score) }
        }
        for s in scales {
            let (w, h) = (region.width * s, region.height * s)
            let (cx, cy) = (region.x + region.width / 2, region.y + region.height / 2)
            for j in -reach...reach {
                for i in -reach...reach {
                    consider(
                        Region(
                            x: cx - w / 2 + Double(i) * step, y: cy - h / 2 + Double(j) * step, width: w, height: h))
                }
            }
        }
        let coarse = best.region
        for j in -3...3 {
            for i in -3...3 where i != 0 || j != 0 {
                var candidate = coarse
                candidate.x += Double(i) * step / 4
                candidate.y += Double(j) * step / 4
                consider(candidate)
            }
        }
        guard best.score > -Float.infinity else { return (region, 0) }
        region = best.region
        if best.score > 0.8,
            let patch = Self.normalisedPatch(view, region, width: templateWidth, height: templateHeight)
        {
            let blended = zip(template, patch).map { 0.9 * $0 + 0.1 * $1 }
            let norm = blended.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { template = blended.map { $0 / norm } }
        }
        return (region, max(0, best.score))
    }

    /// The NCC of the template with `candidate` in the (reduced) picture: the same number as the dot product of
    /// `normalisedPatch` with the template (tested against it), in one pass without building the patch. The
    /// template has zero mean, so Σ p·t needs no mean taken off p; the norm comes from Σ p and Σ p². Nil when the
    /// candidate is flat.
    package func score(_ view: (PixelPlane<Float>, Int), _ candidate: Region) -> Float? {
        let (plane, factor) = view
        let f = Double(factor), n = templateWidth * templateHeight
        let stride = plane.rowStride, maxX = Double(plane.width - 1), maxY = Double(plane.height - 1)
        var sum: Float = 0, squares: Float = 0, dot: Float = 0
        plane.withUnsafeBufferPointer { p in
            template.withUnsafeBufferPointer { t in
                for j in 0..<templateHeight {
                    let y = min(
                        max((candidate.y + (Double(j) + 0.5) * candidate.height / Double(templateHeight)) / f - 0.5, 0),
                        maxY)
                    let y0 = Int(y), y1 = min(y0 + 1, plane.height - 1)
                    let b = Float(y - Double(y0))
                    let row0 = y0 * stride, row1 = y1 * stride
                    for i in 0..<templateWidth {
                        let x = min(
                            max(
                                (candidate.x + (Double(i) + 0.5) * candidate.width / Double(templateWidth)) / f - 0.5, 0
                            ),
                            maxX)
                        let x0 = Int(x), x1 = min(x0 + 1, plane.width - 1)
                        let a = Float(x - Double(x0))
                        let top = p[row0 + x0] * (1 - a) + p[row0 + x1] * a
                        let bottom = p[row1 + x0] * (1 - a) + p[row1 + x1] * a
                        let v = top * (1 - b) + bottom * b
                        sum += v
                        squares += v * v
                        dot += v * t[j * templateWidth + i]
                    }
                }
            }
        }
        let spread = squares - sum * sum / Float(n)
        guard spread > 1e-8 else { return nil }
        return dot / spread.squareRoot()
    }

    /// The picture box-averaged by the whole factor that keeps the region at least twice the template's size, so
    /// that sampling it at template resolution does not alias; with the factor.
    package static func reduced(_ luma: PixelPlane<Float>, for region: Region, templateWidth: Int) -> (
        PixelPlane<Float>, Int
    ) {
        let factor = max(1, Int(region.width / Double(2 * templateWidth)))
        guard factor > 1 else { return (luma, 1) }
        let (w, h) = (max(luma.width / factor, 1), max(luma.height / factor, 1))
        var plane = PixelPlane<Float>(width: w, height: h)
        let (inStride, outStride) = (luma.rowStride, plane.rowStride)
        let norm = 1 / Float(factor * factor)
        luma.withUnsafeBufferPointer { p in
            plane.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    for v in (y * factor)..<min((y + 1) * factor, luma.height) {
                        for x in 0..<w {
                            var sum: Float = 0
                            for u in (x * factor)..<min((x + 1) * factor, luma.width) { sum += p[v * inStride + u] }
                            o[y * outStride + x] += sum * norm
                        }
                    }
                }
            }
        }
        return (plane, factor)
    }

    /// The region of the (reduced) picture sampled at `width × height` points (pixel centres of the region's grid,
    /// bilinear, edges clamped), less its mean and divided by its norm; nil when it is flat.
    package static func normalisedPatch(_ view: (PixelPlane<Float>, Int), _ region: Region, width: Int, height: Int)
        -> [Float]?
    {
        let (plane, factor) = view
        let f = Double(factor)
        var patch = [Float](repeating: 0, count: width * height)
        let maxX = Double(plane.width - 1), maxY = Double(plane.height - 1)
        for j in 0..<height {
            let y = min(max((region.y + (Double(j) + 0.5) * region.height / Double(height)) / f - 0.5, 0), maxY)
            let y0 = Int(y), y1 = min(Int(y) + 1, plane.height - 1)
            let b = Float(y - Double(y0))
            for i in 0..<width {
                let x = min(max((region.x + (Double(i) + 0.5) * region.width / Double(width)) / f - 0.5, 0), maxX)
                let x0 = Int(x), x1 = min(Int(x) + 1, plane.width - 1)
                let a = Float(x - Double(x0))
                let top = plane[x0, y0, 0] * (1 - a) + plane[x1, y0, 0] * a
                let bottom = plane[x0, y1, 0] * (1 - a) + plane[x1, y1, 0] * a
                patch[j * width + i] = top * (1 - b) + bottom * b
            }
        }
        let mean = patch.reduce(0, +) / Float(patch.count)
        for i in patch.indices { patch[i] -= mean }
        let norm = patch.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 1e-4 else { return nil }
        return patch.map { $0 / norm }
    }
}
