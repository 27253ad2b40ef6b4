import Imaging

extension SurfaceColours {
    /// One clipped patch of one paint has one colour: the estimates of the tiles of a patch (hot tiles near
    /// clipping with two key channels or three, joined to their 8-neighbours with the same key channels, at the
    /// same depth within 3σ of its 0.5 % and with the same chromaticity in those channels within 3σ of 0.02;
    /// with one key channel the chromaticity says nothing, and a chart's clipped white patch would join the
    /// patches around it) that stray more than 10 % from the patch's trust-weighted median colour in an
    /// estimated channel take that colour instead, at half the median tile's trust, and no longer raise the
    /// confidence map. Only where the tiles within 10 % of the
    /// median hold at least two-thirds of the patch's trust: a patch split evenly between two colours is left
    /// as it is.
    ///
    /// Each tile's donors are weighed by distance, so along the edge of a clipped patch the nearest lit surface
    /// wins, even when it is another one that matches on depth, key chromaticity and level (a thin object lying on
    /// the clipped surface's edge, where a strong coloured light keeps the clipped channel's bounds almost empty);
    /// the patch's median puts the edge tiles back on the patch's own colour.
    static func agreeWithinPatches(
        _ colours: inout [SIMD4<Float>], _ confidence: inout [Double], hot: [HotTileStatistics], grid: TileGrid
    ) {
        let mw = grid.columns, mh = grid.rows
        func depth(_ t: Int) -> Double { hot[t].meanHotDepth }
        func key(_ t: Int) -> [Bool] { hot[t].keyChannels }
        func shares(_ t: Int) -> SIMD3<Double> { hot[t].keyShares }
        var member = [Bool](repeating: false, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw {
                let t = ty * mw + tx
                member[t] = hot[t].hot > 0 && depth(t).isFinite && key(t).filter({ $0 }).count >= 2
                    && shares(t).sum() > 0 && HotTileStatistics.nearClipping(hot, tx: tx, ty: ty, grid: grid)
            }
        }
        func joined(_ a: Int, _ b: Int) -> Bool {
            guard key(a) == key(b), abs(depth(b) / depth(a) - 1) <= 3 * depthSigma else { return false }
            let sa = shares(a), sb = shares(b)
            for c in 0..<3 where key(a)[c] && sa[c] > 0 {
                if abs(sb[c] / sa[c] - 1) > 3 * chromaSigma { return false }
            }
            return true
        }
        // Patches: connected components, found by a flood fill over joined 8-neighbours.
        var patch = [Int](repeating: -1, count: mw * mh)
        var patches: [[Int]] = []
        for start in 0..<(mw * mh) where member[start] && patch[start] < 0 {
            var tiles = [start], next = 0
            patch[start] = patches.count
            while next < tiles.count {
                let t = tiles[next]
                next += 1
                let tx = t % mw, ty = t / mw
                for ny in max(0, ty - 1)...min(mh - 1, ty + 1) {
                    for nx in max(0, tx - 1)...min(mw - 1, tx + 1) {
                        let n = ny * mw + nx
                        guard member[n], patch[n] < 0, joined(t, n) else { continue }
                        patch[n] = patches.count
                        tiles.append(n)
                    }
                }
            }
            patches.append(tiles)
        }
        for tiles in patches {
            let estimated = tiles.filter { colours[$0][3] > 0 }
            guard estimated.count >= 3 else { continue }
            let missing = SIMD3<Float>(key(estimated[0]).map { $0 ? 0 : 1 })
            // The trust-weighted median of the estimated channels' sum (one clipped channel as a rule).
            func estimate(_ t: Int) -> Float { (SIMD3(colours[t][0], colours[t][1], colours[t][2]) * missing).sum() }
            let sorted = estimated.sorted { estimate($0) < estimate($1) }
            let total = sorted.reduce(Float(0)) { $0 + colours[$1][3] }
            var running: Float = 0
            var median = sorted[0]
            for t in sorted {
                running += colours[t][3]
                if running >= total / 2 {
                    median = t
                    break
                }
            }
            let centre = estimate(median)
            guard centre > 0 else { continue }
            func strays(_ t: Int) -> Bool { abs(estimate(t) / centre - 1) > 0.1 }
            let agreeing = estimated.filter { !strays($0) }.reduce(Float(0)) { $0 + colours[$1][3] }
            guard agreeing >= 2 * total / 3 else { continue }
            for t in estimated where strays(t) {
                var colour = colours[median]
                colour[3] *= 0.5
                colours[t] = colour
                confidence[t] = 0
            }
        }
    }

    /// Tiles with hot pixels near clipping that found no donor of their own (inside a clipped patch wider than
    /// the donors' reach, as a large highlight at 12 MP has) take the trust-weighted mean colour of their
    /// 8-neighbours that have one, whose hot pixels lie at the same depth (within 3σ of the depth's 0.5 %) and
    /// whose colour has the tile's chromaticity in the two or three channels it measures (within 3σ of 0.02;
    /// with one, a chart's white patch would take the next patch's colour), at half
    /// their trust, ring by ring inwards for up to `rings` rings: one patch of one paint has one
    /// colour. (Not a tile with a weak colour of its own: on a chart its neighbours at the same depth are other
    /// paints.) Without it, the fill falls back on the ambient ratio, which under a coloured light puts the
    /// clipped channel at twice its value (a blotch of another hue on the highlight). The confidence map is not
    /// raised for them.
    static func fillHoles(_ colours: inout [SIMD4<Float>], hot: [HotTileStatistics], grid: TileGrid, rings: Int) {
        let mw = grid.columns, mh = grid.rows
        func depth(_ t: Int) -> Double { hot[t].meanHotDepth }
        var wanted = [Bool](repeating: false, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw {
                let t = ty * mw + tx
                wanted[t] = colours[t][3] == 0 && hot[t].hot > 0 && depth(t).isFinite
                    && HotTileStatistics.nearClipping(hot, tx: tx, ty: ty, grid: grid)
            }
        }
        for _ in 0..<rings {
            let previous = colours
            var changed = false
            for ty in 0..<mh {
                for tx in 0..<mw where wanted[ty * mw + tx] && previous[ty * mw + tx][3] == 0 {
                    let t = ty * mw + tx
                    let z = depth(t)
                    let key = hot[t].keyChannels, shares = hot[t].keyShares
                    // Two key channels at least, or the chromaticity says nothing.
                    guard shares.sum() > 0, key.filter({ $0 }).count >= 2 else { continue }
                    var sum = SIMD4<Float>(repeating: 0), weights: Float = 0, count: Float = 0
                    for ny in max(0, ty - 1)...min(mh - 1, ty + 1) {
                        for nx in max(0, tx - 1)...min(mw - 1, tx + 1) {
                            let n = ny * mw + nx, c = previous[n]
                            let zn = depth(n)
                            guard c[3] > 0, zn.isFinite, abs(zn / z - 1) <= 3 * depthSigma else { continue }
                            // The same chromaticity in the channels the tile measures, as a donor must have: on
                            // a chart the patch next door is at the same depth.
                            let cKey = (0..<3).reduce(Float(0)) { $0 + (key[$1] ? c[$1] : 0) }
                            guard cKey > 0,
                                (0..<3).allSatisfy({
                                    !key[$0]
                                        || abs(Double(c[$0] / cKey) / shares[$0] - 1) <= 3 * chromaSigma
                                })
                            else { continue }
                            sum += c[3] * c
                            weights += c[3]
                            count += 1
                        }
                    }
                    guard weights > 0 else { continue }
                    var colour = sum / weights
                    colour[3] = 0.5 * weights / count
                    colours[ty * mw + tx] = colour
                    changed = true
                }
            }
            if !changed { break }
        }
    }
}
