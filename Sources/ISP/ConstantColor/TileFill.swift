import Imaging

/// Spreading per-tile values into the tiles that lack one.
enum TileFill {
    /// Each tile not `known` takes the mean of its known 4-neighbours, ring by ring outwards until no tile
    /// changes, and becomes known: a value measured on some tiles (an ambient/flash ratio, the ambient light
    /// relative to the flash) that changes slowly across the picture, carried into the tiles where it could
    /// not be measured. Tiles no ring reaches keep their value and stay unknown.
    static func fillInward<V: SIMD>(_ values: inout [V], known: inout [Bool], width mw: Int, height mh: Int)
    where V.Scalar: BinaryFloatingPoint {
        guard known.contains(true) else { return }
        var changed = true
        while changed {
            changed = false
            let previous = known
            for ty in 0..<mh {
                for tx in 0..<mw where !previous[ty * mw + tx] {
                    var sum = V(), n: V.Scalar = 0
                    for (nx, ny) in [(tx - 1, ty), (tx + 1, ty), (tx, ty - 1), (tx, ty + 1)]
                    where nx >= 0 && nx < mw && ny >= 0 && ny < mh && previous[ny * mw + nx] {
                        sum += values[ny * mw + nx]
                        n += 1
                    }
                    guard n > 0 else { continue }
                    values[ty * mw + tx] = sum / n
                    known[ty * mw + tx] = true
                    changed = true
                }
            }
        }
    }
}
