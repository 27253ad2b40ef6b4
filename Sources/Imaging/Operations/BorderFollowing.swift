import Foundation

/// The borders of a binary picture's regions and how they nest, by the border following of Suzuki and Abe
/// ("Topological structural analysis of digitized binary images by border following", CVGIP 30:32, 1985).
///
/// Foreground pixels join their eight neighbours, background pixels their four. Each region of foreground has one
/// outer border, and each hole in it (a 4-connected patch of background it encloses) one hole border. A hole border's
/// parent is the outer border of the region around it; an outer border's parent is the hole it lies in, or none for a
/// region lying on the picture's background. Borders are listed in the raster order of the pixel each starts at,
/// and each is the list of its pixels in the order it is followed, each pixel once per time the border passes it.
public enum BorderFollowing {
    /// One border: its pixels (column, row), whether it is a hole's, and the index of its parent in the list.
    public struct Border: Sendable, Equatable {
        public let pixels: [SIMD2<Int>]
        public let isHole: Bool
        public let parent: Int?
    }

    /// The eight neighbours of a pixel, clockwise on screen (rows running down) from the east.
    private static let steps: [(dx: Int, dy: Int)] = [
        (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1),
    ]

    /// The borders of the foreground (`true`) of a `width × height` mask, row by row.
    public static func borders(of mask: [Bool], width: Int, height: Int) -> [Border] {
        precondition(mask.count == width * height, "one value per pixel")
        guard width > 0, height > 0 else { return [] }
        // The picture inside a frame of background one pixel wide, so every border lies inside it. Values: 0
        // background, 1 foreground not yet on a border, ±n on border n (negative where the border leaves the
        // pixel eastwards onto background).
        let w = width + 2
        var f = [Int](repeating: 0, count: w * (height + 2))
        for y in 0..<height {
            for x in 0..<width where mask[y * width + x] { f[(y + 1) * w + x + 1] = 1 }
        }
        // Border n's kind and parent (border 1 is the frame, a hole with no parent).
        var isHole = [false, true], parentOf: [Int?] = [nil, nil]
        var found: [[SIMD2<Int>]] = [[], []]
        var number = 1
        for y in 1...height {
            var lastBorder = 1
            for x in 1...width {
                let k = y * w + x
                let start: Int?
                if f[k] == 1 && f[k - 1] == 0 {
                    start = 4  // an outer border, entered from the west
                } else if f[k] >= 1 && f[k + 1] == 0 {
                    start = 0  // a hole border, entered from the east
                    if f[k] > 1 { lastBorder = f[k] }
                } else {
                    start = nil
                }
                if let start {
                    number += 1
                    let hole = start == 0
                    // The parent: the border last crossed on this row, or its parent when both are of a kind.
                    let parent = hole == isHole[lastBorder] ? parentOf[lastBorder] : lastBorder
                    isHole.append(hole)
                    parentOf.append(parent)
                    found.append(follow(&f, width: w, x: x, y: y, from: start, number: number))
                }
                if f[k] != 0 && f[k] != 1 { lastBorder = abs(f[k]) }
            }
        }
        guard number >= 2 else { return [] }
        return (2...number).map { n in
            Border(
                pixels: found[n].map { SIMD2($0.x - 1, $0.y - 1) }, isHole: isHole[n],
                parent: parentOf[n].flatMap { $0 >= 2 ? $0 - 2 : nil })
        }
    }

    /// Follows border `number` from pixel (x, y), whose background neighbour in direction `start` it was entered
    /// from, marking its pixels in `f`; returns its pixels in the padded picture's coordinates.
    private static func follow(_ f: inout [Int], width w: Int, x: Int, y: Int, from start: Int, number: Int)
        -> [SIMD2<Int>]
    {
        func index(_ p: SIMD2<Int>, _ d: Int) -> Int { (p.y + steps[d].dy) * w + p.x + steps[d].dx }
        let origin = SIMD2(x, y)
        // The first foreground neighbour clockwise from the entry side; none means a lone pixel.
        guard let first = (0..<8).map({ (start + $0) % 8 }).first(where: { f[index(origin, $0)] != 0 }) else {
            f[y * w + x] = -number
            return [origin]
        }
        let firstNeighbour = origin &+ SIMD2(steps[first].dx, steps[first].dy)
        var previous = firstNeighbour, current = origin
        var pixels: [SIMD2<Int>] = []
        while true {
            // Counter-clockwise round the current pixel, from the one after the previous pixel.
            let back = direction(from: current, to: previous)
            var next = back, eastIsBackground = false
            for turn in 1...8 {
                let d = (back - turn + 16) % 8
                if f[index(current, d)] != 0 {
                    next = d
                    break
                }
                if d == 0 { eastIsBackground = true }
            }
            let k = current.y * w + current.x
            if eastIsBackground {
                f[k] = -number
            } else if f[k] == 1 {
                f[k] = number
            }
            pixels.append(current)
            let following = current &+ SIMD2(steps[next].dx, steps[next].dy)
            if following == origin && current == firstNeighbour { break }
            (previous, current) = (current, following)
        }
        return pixels
    }

    /// Which of the eight steps leads from `a` to its neighbour `b`.
    private static func direction(from a: SIMD2<Int>, to b: SIMD2<Int>) -> Int {
        let d = b &- a
        guard let index = steps.firstIndex(where: { $0.dx == d.x && $0.dy == d.y }) else {
            preconditionFailure("a border step joins neighbours")
        }
        return index
    }
}
