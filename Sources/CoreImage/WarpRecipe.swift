import Foundation
import Imaging

/// The input resampled through a projective map (affine transforms, perspective transforms and
/// corrections), with bilinear interpolation by Imaging's `warpedPerspective`, the warp the scanner's
/// perspective correction uses. Outside the input the image is clear, so its edges fade over one pixel.
final class WarpRecipe: Recipe, @unchecked Sendable {
    let input: Recipe
    /// From output to input, in Core Image's coordinates.
    let outputToSource: Homography

    init(input: Recipe, outputToSource: Homography, extent: CGRect) {
        self.input = input
        self.outputToSource = outputToSource
        super.init(extent: extent)
    }

    /// An affine transform of the input (`transformed(by:)`).
    convenience init(input: Recipe, transform t: CGAffineTransform) {
        let inverse = t.inverted()
        let h = Homography(entries: [
            Double(inverse.a), Double(inverse.c), Double(inverse.tx), Double(inverse.b), Double(inverse.d),
            Double(inverse.ty), 0, 0, 1,
        ])
        self.init(input: input, outputToSource: h, extent: input.extent.isInfinite ? .infinite : input.extent.applying(t))
    }

    /// The part of the output a region asks for, and the part of the input it reads.
    private func regions(_ region: Region) -> (output: Region, source: Region)? {
        let out = region.clipped(to: extent)
        guard !out.isEmpty else { return nil }
        let corners = [SIMD2(Double(out.x), Double(out.y)), SIMD2(Double(out.maxX), Double(out.y)),
                       SIMD2(Double(out.maxX), Double(out.maxY)), SIMD2(Double(out.x), Double(out.maxY))]
        let mapped = corners.map(outputToSource.apply)
        guard mapped.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return nil }
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        var box = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            .insetBy(dx: -2, dy: -2)
        if !input.extent.isInfinite { box = box.intersection(input.extent.insetBy(dx: -1, dy: -1)) }
        guard !box.isNull, let source = Region(covering: box), !source.isEmpty else { return nil }
        return (out, source)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        guard let (out, s) = regions(region), state.pixels(self, out) == nil else { return }
        let source = materialise(input, s, state).plane
        // Plane coordinates: output (u, v) is (out.x + u, out.maxY − v); source (X, Y) is (X − s.x, s.maxY − Y).
        let fromOutputPlane = Homography(entries: [1, 0, Double(out.x), 0, -1, Double(out.maxY), 0, 0, 1])
        let toSourcePlane = Homography(entries: [1, 0, -Double(s.x), 0, -1, Double(s.maxY), 0, 0, 1])
        let h = toSourcePlane.concatenating(outputToSource).concatenating(fromOutputPlane)
        let warped = source.warpedPerspective(h, width: out.width, height: out.height)
        state.store(Pixels(warped), self, out)
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        copyPrepared(self, regions(region)?.output, region, rows, out, state)
    }
}

/// Copies the rows of a prepared region into a requested region's rows; clear where nothing was prepared.
func copyPrepared(
    _ node: Recipe, _ prepared: Region?, _ region: Region, _ rows: Range<Int>, _ out: UnsafeMutablePointer<SIMD4<Float>>,
    _ state: RenderState
) {
    let w = region.width
    out.update(repeating: .zero, count: rows.count * w)
    guard let p = prepared, let pixels = state.pixels(node, p) else { return }
    let x0 = p.x - region.x
    for (k, j) in rows.enumerated() {
        let y = Recipe.ciRow(region, j)
        guard y >= p.y, y < p.maxY else { continue }
        let src = pixels.row(p.maxY - 1 - y)
        (out + k * w + max(0, x0)).update(from: src + max(0, -x0), count: min(p.maxX, region.maxX) - max(p.x, region.x))
    }
}
