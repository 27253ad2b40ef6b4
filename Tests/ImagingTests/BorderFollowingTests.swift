import Foundation
import Imaging
import Testing

/// A mask from rows of text: `#` foreground, anything else background.
private func mask(_ rows: [String]) -> (values: [Bool], width: Int, height: Int) {
    let width = rows.map(\.count).max() ?? 0
    let values = rows.flatMap { row in
        Array(row.padding(toLength: width, withPad: ".", startingAt: 0)).map { $0 == "#" }
    }
    return (values, width, rows.count)
}

/// The regions of `values` by flood fill: 8-connected when `diagonal`, else 4-connected; each region's pixels.
private func regions(_ values: [Bool], width: Int, height: Int, of kind: Bool, diagonal: Bool) -> [[Int]] {
    var seen = [Bool](repeating: false, count: values.count)
    var out: [[Int]] = []
    for seed in values.indices where values[seed] == kind && !seen[seed] {
        var stack = [seed], members: [Int] = []
        seen[seed] = true
        while let k = stack.popLast() {
            members.append(k)
            for dy in -1...1 {
                for dx in -1...1 where (dx, dy) != (0, 0) && (diagonal || dx == 0 || dy == 0) {
                    let (x, y) = (k % width + dx, k / width + dy)
                    guard x >= 0, y >= 0, x < width, y < height else { continue }
                    let j = y * width + x
                    if values[j] == kind && !seen[j] {
                        seen[j] = true
                        stack.append(j)
                    }
                }
            }
        }
        out.append(members)
    }
    return out
}

@Suite struct BorderFollowingTests {
    @Test func aLonePixelIsABorderOfOne() {
        let m = mask(["...", ".#.", "..."])
        let borders = BorderFollowing.borders(of: m.values, width: m.width, height: m.height)
        #expect(borders.count == 1)
        #expect(borders.first?.pixels == [SIMD2(1, 1)] && borders.first?.isHole == false)
        #expect(borders.first?.parent == nil)
    }

    @Test func aSquaresOuterBorderVisitsItsEdgePixelsOnceEach() throws {
        // The 3 × 3 square's eight edge pixels, from the top-left one down its left side first (the border keeps
        // the region on its left as it goes, on a screen whose rows run down).
        let m = mask([".....", ".###.", ".###.", ".###.", "....."])
        let borders = BorderFollowing.borders(of: m.values, width: m.width, height: m.height)
        #expect(borders.count == 1)
        let border = try #require(borders.first)
        #expect(!border.isHole && border.parent == nil)
        #expect(
            border.pixels == [
                SIMD2(1, 1), SIMD2(1, 2), SIMD2(1, 3), SIMD2(2, 3), SIMD2(3, 3), SIMD2(3, 2), SIMD2(3, 1), SIMD2(2, 1),
            ])
    }

    @Test func holesAndIslandsNest() throws {
        // A ring with an island in its hole, and a separate dot: the ring's outer border and the dot are top level,
        // the hole's border is the ring's child, the island is the hole's child.
        let m = mask([
            "..........",
            ".#######..",
            ".#.....#..",
            ".#..#..#.#",
            ".#.....#..",
            ".#######..",
            "..........",
        ])
        let borders = BorderFollowing.borders(of: m.values, width: m.width, height: m.height)
        #expect(borders.count == 4)
        let ring = try #require(borders.firstIndex { !$0.isHole && $0.pixels.contains(SIMD2(1, 1)) })
        let hole = try #require(borders.firstIndex { $0.isHole })
        let island = try #require(borders.firstIndex { $0.pixels == [SIMD2(4, 3)] })
        let dot = try #require(borders.firstIndex { $0.pixels == [SIMD2(9, 3)] })
        #expect(borders[ring].parent == nil && borders[dot].parent == nil)
        #expect(borders[hole].parent == ring && borders[island].parent == hole)
        // The hole's border runs through the ring's pixels that share a side with the 5 × 3 hole: 5 above, 5 below
        // and 3 each side, 16 (the inner corners touch it only diagonally, and the border cuts across them).
        #expect(Set(borders[hole].pixels).count == 16)
    }

    @Test func diagonalNeighboursAreOneRegionButDiagonalGapsAreNoHole() {
        // Two pixels touching at a corner are one region. A diamond of four pixels touching at their corners closes
        // round its centre, which the background reaches only diagonally: a hole.
        let pair = mask(["....", ".#..", "..#.", "...."])
        let borders = BorderFollowing.borders(of: pair.values, width: pair.width, height: pair.height)
        #expect(borders.count == 1 && Set(borders[0].pixels) == [SIMD2(1, 1), SIMD2(2, 2)])
        let diamond = mask([".....", "..#..", ".#.#.", "..#..", "....."])
        let nested = BorderFollowing.borders(of: diamond.values, width: diamond.width, height: diamond.height)
        #expect(nested.count == 2 && nested[1].isHole && nested[1].parent == 0)
    }

    @Test func bordersCountTheRegionsAndHolesAFloodFillFinds() {
        // A fixed scatter of blobs: outer borders match the 8-connected regions of foreground, hole borders the
        // 4-connected regions of background clear of the picture's edge.
        var state: UInt64 = 7
        let (width, height) = (40, 30)
        var values = [Bool](repeating: false, count: width * height)
        for _ in 0..<60 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let (cx, cy, r) = (Int(state >> 40) % width, Int(state >> 20) % height, 1 + Int(state >> 8) % 3)
            for y in max(0, cy - r)..<min(height, cy + r + 1) {
                for x in max(0, cx - r)..<min(width, cx + r + 1)
                where (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r {
                    values[y * width + x].toggle()
                }
            }
        }
        let borders = BorderFollowing.borders(of: values, width: width, height: height)
        let foreground = regions(values, width: width, height: height, of: true, diagonal: true)
        let background = regions(values, width: width, height: height, of: false, diagonal: false)
        let enclosed = background.filter { region in
            region.allSatisfy { k in k % width > 0 && k % width < width - 1 && k / width > 0 && k / width < height - 1 }
        }
        #expect(borders.filter { !$0.isHole }.count == foreground.count)
        #expect(borders.filter(\.isHole).count == enclosed.count)
        // Every border pixel is foreground, and each outer border lies on one region.
        for border in borders {
            #expect(border.pixels.allSatisfy { values[$0.y * width + $0.x] })
        }
    }

    @Test func theDetectorSplitsAtMidGreyAfterRaisingTheContrastAboutThePivot() {
        // Values 0.30, 0.35 and 0.45 about a pivot of 0.3 raised twofold: 0.3, 0.4 and 0.6, so only the first two
        // are dark (the split falls at 0.3 + 0.2/2 = 0.4); at a pivot of 0.5 the split is 0.5 and all three are.
        let luma = PixelPlane<Float>(width: 3, height: 1, elements: [0.30, 0.35, 0.45])
        #expect(ContourDetector(contrast: 2, pivot: 0.3).mask(luma) == [true, true, false])
        #expect(ContourDetector(contrast: 2, pivot: 0.5).mask(luma) == [true, true, true])
        #expect(ContourDetector(contrast: 2, pivot: 0.5, darkOnLight: false).mask(luma) == [false, false, false])
    }
}
