import Foundation
import Imaging

/// The input cut into cells, each pixel taking the input's value at a point of its cell (`CIHexagonalPixellate`,
/// `CICrystallize`, `CIPointillize`). `locate` gets a pixel centre in Core Image's coordinates and gives the point
/// whose pixel the cell copies, or nil where the pixel lies in no cell (it then takes `background`, premultiplied).
/// A located point is at most `reach` pixels from the pixel asking; points outside the input's extent take its
/// nearest edge pixel. The output has the input's extent.
final class CellRecipe: Recipe, @unchecked Sendable {
    typealias Locate = @Sendable (SIMD2<Float>) -> SIMD2<Float>?
    let input: Recipe
    let reach: Int
    let background: SIMD4<Float>
    let locate: Locate

    init(input: Recipe, reach: Int, background: SIMD4<Float> = .zero, locate: @escaping Locate) {
        self.input = input
        self.reach = max(0, reach)
        self.background = background
        self.locate = locate
        super.init(extent: input.extent)
    }

    /// The input's pixels that a region's cells may copy.
    private func source(_ region: Region) -> Region {
        Region(
            x: region.x - reach, y: region.y - reach, width: region.width + 2 * reach,
            height: region.height + 2 * reach
        )
        .clipped(to: input.extent)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let s = source(region)
        guard !s.isEmpty, state.pixels(self, s) == nil else { return }
        state.store(materialise(input, s, state), self, s)
    }

    override func fill(
        _ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState
    ) {
        let w = region.width
        let s = source(region)
        guard !s.isEmpty, let pixels = state.pixels(self, s) else {
            out.update(repeating: .zero, count: rows.count * w)
            return
        }
        for (k, j) in rows.enumerated() {
            let o = out + k * w
            let ciRow = Recipe.ciRow(region, j)
            guard let inside = columns(region, row: ciRow) else {
                o.update(repeating: .zero, count: w)
                continue
            }
            let y = Float(ciRow) + 0.5
            for i in 0..<w {
                guard inside.contains(i) else {
                    o[i] = .zero
                    continue
                }
                guard let point = locate(SIMD2(Float(region.x + i) + 0.5, y)) else {
                    o[i] = background
                    continue
                }
                let px = min(max(Int(point.x.rounded(.down)), s.x), s.maxX - 1)
                let py = min(max(Int(point.y.rounded(.down)), s.y), s.maxY - 1)
                o[i] = pixels.row(s.maxY - 1 - py)[px - s.x]
            }
        }
    }
}

/// The seeds of a jittered square grid: one a grid cell, offset from the cell's middle by at most a quarter of the
/// spacing along each axis, by a fixed hash of the cell's indices (so every render places them alike). With that
/// bound the nearest seed to any point lies in the 3 × 3 grid cells around it.
struct JitteredSeeds: Sendable {
    let origin: SIMD2<Float>
    let spacing: Float

    /// A 32-bit mix of two integers (a multiply–xorshift hash, our choice).
    static func hash(_ i: Int32, _ j: Int32, _ salt: UInt32) -> UInt32 {
        var h = UInt32(bitPattern: i) &* 0x8DA6_B343 ^ UInt32(bitPattern: j) &* 0xD816_3841 ^ salt &* 0xCB1A_B31F
        h ^= h >> 16
        h = h &* 0x7FEB_352D
        h ^= h >> 15
        h = h &* 0x846C_A68B
        h ^= h >> 16
        return h
    }

    /// The seed of grid cell (i, j).
    func seed(_ i: Int32, _ j: Int32) -> SIMD2<Float> {
        let jx = Float(Self.hash(i, j, 1) >> 8) / Float(1 << 24) - 0.5
        let jy = Float(Self.hash(i, j, 2) >> 8) / Float(1 << 24) - 0.5
        return origin + spacing * SIMD2(Float(i) + 0.5 + jx / 2, Float(j) + 0.5 + jy / 2)
    }

    /// The seed nearest a point, and its squared distance (ties go to the first in row-major order).
    func nearest(_ p: SIMD2<Float>) -> (seed: SIMD2<Float>, distance2: Float) {
        let g = (p - origin) / spacing
        let ci = Int32(g.x.rounded(.down)), cj = Int32(g.y.rounded(.down))
        var best = seed(ci, cj)
        var bestD2 = ((p - best) * (p - best)).sum()
        for dj: Int32 in -1...1 {
            for di: Int32 in -1...1 where di != 0 || dj != 0 {
                let s = seed(ci + di, cj + dj)
                let d2 = ((p - s) * (p - s)).sum()
                if d2 < bestD2 {
                    best = s
                    bestD2 = d2
                }
            }
        }
        return (best, bestD2)
    }
}
