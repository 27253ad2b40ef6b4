import Foundation

/// A saliency heat map (`Saliency.map`): `side` × `side` values 0…1 over the picture stretched to a square, top row
/// first, and the salient regions in it.
public struct SaliencyMap: Sendable, Equatable {
    /// The map's side: the 68 × 68 of the heat map Vision delivers for an image handler's request.
    public static let side = 68
    /// Row by row, top row first.
    public let values: [Float]

    /// A salient region: its box normalised to the picture (origin at the top left) and how salient it is.
    public struct Region: Sendable, Equatable {
        public let x: Double, y: Double, width: Double, height: Double
        /// The mean heat of the region's pixels, 0…1.
        public let confidence: Float
    }

    /// The heat that stands out (our choice, in three steps):
    /// 1. Pixels above Otsu's threshold (Otsu 1979) of the map's values, which splits them into the two classes
    ///    that differ most.
    /// 2. 8-connected groups of them whose hottest pixel is at least half the map's highest value, so that a group
    ///    far less salient than the most salient point is none.
    /// 3. The `limit` groups with the most heat in all, most first.
    public func regions(limit: Int) -> [Region] {
        let n = Self.side
        guard limit > 0, (values.max() ?? 0) > 0 else { return [] }
        let threshold = LumaImage(width: n, height: n, values: values).otsuThreshold().threshold
        let peakNeeded = 0.5 * (values.max() ?? 0)
        var label = [Int](repeating: -1, count: n * n)
        var found: [(region: Region, heat: Float)] = []
        for seed in 0..<(n * n) where values[seed] > threshold && label[seed] < 0 {
            // A flood fill from the seed over the pixels above the threshold.
            var stack = [seed], members: [Int] = []
            label[seed] = found.count
            while let k = stack.popLast() {
                members.append(k)
                let (x, y) = (k % n, k / n)
                for dy in -1...1 {
                    for dx in -1...1 {
                        let (u, v) = (x + dx, y + dy)
                        guard u >= 0, v >= 0, u < n, v < n else { continue }
                        let j = v * n + u
                        if label[j] < 0 && values[j] > threshold {
                            label[j] = label[seed]
                            stack.append(j)
                        }
                    }
                }
            }
            let heats = members.map { values[$0] }
            guard let peak = heats.max(), peak >= peakNeeded else { continue }
            // The group's extent, in map pixels.
            var (x0, x1, y0, y1) = (n, -1, n, -1)
            for k in members {
                (x0, x1) = (min(x0, k % n), max(x1, k % n))
                (y0, y1) = (min(y0, k / n), max(y1, k / n))
            }
            let heat = heats.reduce(0, +)
            let region = Region(
                x: Double(x0) / Double(n), y: Double(y0) / Double(n), width: Double(x1 - x0 + 1) / Double(n),
                height: Double(y1 - y0 + 1) / Double(n), confidence: heat / Float(members.count))
            found.append((region, heat))
        }
        // Ties (which a symmetric picture makes) fall to the region nearer the top left, so the order is repeatable.
        return found.sorted { a, b in
            a.heat != b.heat ? a.heat > b.heat : (a.region.y, a.region.x) < (b.region.y, b.region.x)
        }.prefix(limit).map(\.region)
    }
}
