import Imaging

/// The ambient light relative to the flash over the whole picture, per camera channel: the fill's exposure where no
/// tile nearby measures its own (`FillRatios`), and a diagnostic of the capture.
struct AmbientRatio: Sendable {
    /// Σ ambient ⊘ Σ flash-only, per camera channel.
    let ratio: SIMD3<Double>
    /// Whether the ratio was measured on the pair (false: grey world on the ambient frame).
    let fromPair: Bool

    /// Σ ambient / Σ flash-only over the unclipped pixels away from edges (`TileStatistics.edgeFree`) of tiles with
    /// confidence ≥ 0.5. With fewer than 1 % such pixels, grey world on the ambient frame gives the colour (its mean
    /// taken as neutral, Buchsbaum 1980), scaled so that the ambient mean matches the flash-only mean in green.
    init(statistics: PairStatistics, map: ConfidenceMap, flashNeutral: SIMD3<Double>) {
        var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0), allA = SIMD3<Double>(0, 0, 0)
        var allF = 0.0, count = 0.0
        for (t, s) in statistics.tiles.enumerated() {
            allA += s.ambient
            allF += s.flashOnly.y
            guard map.values[t] >= 0.5 else { continue }
            a += s.edgeFree.ambient
            f += s.edgeFree.flashOnly
            count += s.edgeFree.pixels
        }
        let pixels = statistics.grid.width * statistics.grid.height
        if count * 100 >= Double(pixels), f.x > 0, f.y > 0, f.z > 0, a.x > 0, a.y > 0, a.z > 0 {
            (ratio, fromPair) = (a / f, true)
            return
        }
        guard allA.x > 0, allA.y > 0, allA.z > 0 else {
            (ratio, fromPair) = (SIMD3(1, 1, 1), false)
            return
        }
        let neutral = allA / allA.y
        let level = allF > 0 ? allA.y / allF : 1
        (ratio, fromPair) = (neutral / flashNeutral * level, false)
    }
}
