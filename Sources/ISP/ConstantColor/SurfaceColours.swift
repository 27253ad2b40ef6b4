import Foundation
import Imaging
import Sensor

/// The flash-only colour of the surface under each tile's clipped pixels, from neighbouring tiles where
/// the flash frame did not clip: what `ConstantColorPipeline.clippedFill` scales by a clipped pixel's
/// unclipped channels.
///
/// A pixel whose red clips in the flash frame still measures green and blue. Its surface's red is
/// that of the same surface nearby where red did not clip, in proportion to the channels both
/// measure. The ambient frame cannot say it: under a coloured spot the ambient/flash ratio of the clipped
/// patch is unknown (its own flash-only red is what is missing), and a ratio borrowed from tiles outside
/// the spot puts red far too high.
///
/// A donor tile (our choices) is at least half unclipped, its frames agree (consistency ≥ 0.9) and its
/// flash-only sum stands 5σ above zero in every channel, as for `localRatios`. Within 10 tiles (at 640 pixels
/// wide; `radius`) of a tile
/// with clipped pixels, a donor counts with the weight
/// exp(−d²/2·2² − (Δz/z / 0.005)²/2 − (Δc / 0.02)²/2 − (ln(l_s/l_t) / 0.15)²/2) × its unclipped pixels:
/// d the distance in tiles; Δz/z the relative difference of the mean depths (a leaf in front of a pot
/// is another surface); Δc the largest relative difference of the unclipped channels' shares of their
/// sum (the chromaticity both measure); l the mean flash-only level of those channels (the same paint a
/// few tiles away is about as bright under the flash; a leaf may share a pot's green and blue, seldom
/// also its level and depth). Each is cut off at 3σ, and so are the three together (the root of their
/// squared sum). The depth's σ, 2.5 mm at half a metre, suits the
/// renderer's depth; a noisy depth map would need it smoothed first (as `FlashIrradiance` notes). A
/// donor must also agree with what the sensor says of the clipped channel: its colour must put that
/// channel between the flash frame's white level and twice it, less the ambient (the bounds of
/// `clippedFill`), or it is another surface (a green leaf next to a red pot has the pot's green and
/// blue, but too little red to have clipped).
///
/// Trust 0…1: the donors' agreement (1 at a relative spread of 0 in the estimated channels, 0 at 10 %
/// and beyond) times their support (the weights' sum without the distance term, against half a tile)
/// times 1 − d/(2 · radius), d the distance in tiles to the nearest donor (half at the search's edge). Where no
/// donor qualifies the tile has none and the fill falls back to the ambient ratio; the confidence map
/// then stays at the clipped tile's low value.
///
/// Only tiles with a clipped pixel in them or next to them are estimated (`nearClipping`), so a bright
/// surface away from any clipping keeps its measured colour.
struct SurfaceColours: Sendable {
    /// Per tile, the surface's flash-only colour, channels as shares of the tile's key channels (those
    /// that stay below `ClipLimits.featherStart`), and its trust in lane 3; all zero where none.
    let colours: [SIMD4<Float>]
    /// Per tile, the trust times the donors' weighted confidence (0 where none).
    let confidence: [Double]
    let tile: Int, mw: Int, mh: Int

    /// Sums per tile in the pass: see `sums(_:_:shift:limits:tile:noise:)`.
    static let sumsPerTile = 26
    /// The search radius and the distance weight's σ at 640 pixels wide, in tiles; both grow with the picture
    /// (`ConstantColorPipeline.neighbourhoodScale`), as a highlight and the surface around it do in tiles.
    static let radius = 10
    static let spatialSigma = 2.0, depthSigma = 0.005, chromaSigma = 0.02, levelSigma = 0.15

    /// Per tile, over "hot" pixels (clipped, or a flash channel at `featherStart` or above): their count, Σ depth
    /// and finite depths, Σ flash-only RGB, per channel the hot pixels where that channel is at `featherStart` or
    /// above; over unclipped pixels Σ depth and finite depths; per channel c, over the pixels where c clipped
    /// (flash rate ≥ `flashWhite`), Σ (white − ambient_c), Σ flash-only RGB, and their count.
    static func sums(
        _ flashFrame: SensorReadout, _ ambient: SensorReadout, depth measured: [Float], shift: SIMD2<Double>,
        limits: ClipLimits, tile: Int,
        noise: NoiseParameters
    ) -> [Double] {
        let width = flashFrame.width, height = flashFrame.height
        let mw = (width + tile - 1) / tile, mh = (height + tile - 1) / tile
        let stride = sumsPerTile
        var sums = [Double](repeating: 0, count: stride * mw * mh)
        // Without a measured depth every pixel reads as unknown (one NaN stands for the plane).
        let hasDepth = measured.count == width * height
        let depth = hasDepth ? measured : [Float.nan]
        FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
            depth.withUnsafeBufferPointer { db in
                sums.withUnsafeMutableBufferPointer { buffer in
                    let out = SharedPointer(buffer)
                    let z = SharedReadPointer(db)
                    BandParallel.forEachBand(height: mh) { tileRows in
                        let rows = FramePair.Rows(pair)
                        let fl = rows.flash, am = rows.ambient, clip = rows.clipped
                        for y in (tileRows.lowerBound * tile)..<min(height, tileRows.upperBound * tile) {
                            rows.load(y)
                            for x in 0..<width {
                                let t = out.base + stride * ((y / tile) * mw + x / tile)
                                let p = 3 &* x
                                let f = SIMD3(fl[p], fl[p + 1], fl[p + 2]), a = SIMD3(am[p], am[p + 1], am[p + 2])
                                let d = hasDepth ? Double(z.base[y * width + x]) : .nan
                                let hot = clip[x] || f.max() >= limits.featherStart
                                if !clip[x], d.isFinite {
                                    t[3] += d
                                    t[4] += 1
                                }
                                guard hot else { continue }
                                let fo = SIMD3<Double>(f - a)
                                t[0] += 1
                                if d.isFinite {
                                    t[1] += d
                                    t[2] += 1
                                }
                                for c in 0..<3 {
                                    t[5 + c] += fo[c]
                                    if f[c] >= limits.featherStart { t[8 + c] += 1 }
                                    guard f[c] >= limits.flashWhite else { continue }
                                    t[11 + c] += Double(limits.flashClip - a[c])
                                    for k in 0..<3 { t[14 + 3 * c + k] += fo[k] }
                                    t[23 + c] += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return sums
    }

    /// The estimate of every tile with hot pixels from the donors around it (see the type's description), made
    /// to agree within each clipped patch (`agreeWithinPatches`), with the holes filled (`fillHoles`).
    init(
        sums hot: [Double], tileSums sums: [Double], map: ConfidenceMap, limits: ClipLimits, flashTime: Double,
        width: Int, height: Int
    ) {
        let tile = map.tileSize
        let mw = (width + tile - 1) / tile, mh = (height + tile - 1) / tile
        self.tile = tile
        self.mw = mw
        self.mh = mh
        let sp = ConstantColorPipeline.sumsPerTile, hp = Self.sumsPerTile
        let scale = ConstantColorPipeline.neighbourhoodScale(width: width)
        let radius = Int((Double(Self.radius) * scale).rounded()), spatialSigma = Self.spatialSigma * scale
        // Donors: normalised later per receiving tile, so only the flash-only sums and depth are kept.
        var donor = [SIMD3<Double>?](repeating: nil, count: mw * mh)
        var donorDepth = [Double](repeating: .nan, count: mw * mh)
        for t in 0..<(mw * mh) {
            let b = sp * t
            let unclipped = sums[b + 3] - sums[b + 2]
            guard map.consistency[t] >= 0.9, unclipped > 0, 2 * unclipped >= sums[b + 3] else { continue }
            let f = SIMD3(sums[b + 7], sums[b + 8], sums[b + 9])
            let v = SIMD3(sums[b + 10], sums[b + 1], sums[b + 11])
            let e = f * flashTime
            guard (0..<3).allSatisfy({ e[$0] > 5 * v[$0].squareRoot() }) else { continue }
            donor[t] = f / unclipped
            if hot[hp * t + 4] > 0 { donorDepth[t] = hot[hp * t + 3] / hot[hp * t + 4] }
        }
        let donors = donor, donorDepths = donorDepth
        var colours = [SIMD4<Float>](repeating: .zero, count: mw * mh)
        var confidence = [Double](repeating: 0, count: mw * mh)
        let clip = Double(limits.flashClip)
        // Each tile's estimate reads only the donors and the sums, so tile rows run in parallel.
        withPointers(&colours, &confidence) { colourOut, confidenceOut in
            BandParallel.forEachBand(height: mh) { tileRows in
                for ty in tileRows {
                    for tx in 0..<mw {
                        let t = ty * mw + tx, h = hp * t
                        guard hot[h] > 0, Self.nearClipping(hot, tx: tx, ty: ty, mw: mw, mh: mh) else { continue }
                        let key = Self.keyChannels(hot, t)
                        guard key.contains(true) else { continue }
                        let keySum = (0..<3).reduce(0.0) { $0 + (key[$1] ? hot[h + 5 + $1] : 0) }
                        guard keySum > 0 else { continue }
                        let z = Self.hotDepth(hot, t)
                        var sumW = 0.0, sumC = SIMD3<Double>(0, 0, 0), sumC2 = SIMD3<Double>(0, 0, 0), sumConf = 0.0
                        var matched = 0.0, nearest = Double.infinity
                        for sy in max(0, ty - radius)...min(mh - 1, ty + radius) {
                            for sx in max(0, tx - radius)...min(mw - 1, tx + radius) {
                                let s = sy * mw + sx
                                guard let f = donors[s] else { continue }
                                // Depth first: most tiles around lie on other surfaces, and it is the cheapest test.
                                var depthTerm = 0.0
                                if z.isFinite {
                                    guard donorDepths[s].isFinite else { continue }
                                    let dz = (donorDepths[s] / z - 1) / Self.depthSigma
                                    guard abs(dz) <= 3 else { continue }
                                    depthTerm = dz * dz / 2
                                }
                                let fKey = (0..<3).reduce(0.0) { $0 + (key[$1] ? f[$1] : 0) }
                                guard fKey > 0 else { continue }
                                let colour = f / fKey
                                let spatial =
                                    Double((sy - ty) * (sy - ty) + (sx - tx) * (sx - tx))
                                    / (2 * spatialSigma * spatialSigma)
                                var exponent = spatial + depthTerm
                                var dc = 0.0, consistent = true
                                for c in 0..<3 {
                                    if key[c] {
                                        dc = max(dc, abs(colour[c] / (hot[h + 5 + c] / keySum) - 1) / Self.chromaSigma)
                                        continue
                                    }
                                    // The clipped channel's bounds, as a share of the key channels of the pixels
                                    // where it clipped.
                                    let n = hot[h + 23 + c]
                                    guard n > 0 else { continue }
                                    let base = (0..<3).reduce(0.0) { $0 + (key[$1] ? hot[h + 14 + 3 * c + $1] : 0) }
                                    guard base > 0 else { continue }
                                    let low = hot[h + 11 + c] / base, high = (hot[h + 11 + c] + clip * n) / base
                                    if colour[c] < 0.95 * low || colour[c] > 1.05 * high { consistent = false }
                                }
                                // The key channels' level: the same paint a few tiles away is as bright under the
                                // flash, give or take the distance and obliquity; another surface mostly is not.
                                let dl = log(fKey / (keySum / hot[h])) / Self.levelSigma
                                // The three differences together within 3σ: a neighbouring surface that is each
                                // time just inside (a leaf hanging over the pot's rim: 2σ nearer, 2σ greener, 1.7σ
                                // darker) is another surface.
                                let match = (exponent - spatial) * 2 + dc * dc + dl * dl
                                guard consistent, match <= 9 else { continue }
                                exponent += dc * dc / 2 + dl * dl / 2
                                let unclipped = sums[sp * s + 3] - sums[sp * s + 2]
                                let w = exp(-exponent) * unclipped
                                // The match alone, without the distance, for the support.
                                matched += exp(-(exponent - spatial)) * unclipped
                                nearest = min(nearest, spatial)
                                sumW += w
                                sumC += w * colour
                                sumC2 += w * colour * colour
                                sumConf += w * map.values[s]
                            }
                        }
                        guard sumW > 0 else { continue }
                        let mean = sumC / sumW
                        var spread = 0.0
                        for c in 0..<3 where !key[c] && mean[c] > 0 {
                            spread = max(spread, max(sumC2[c] / sumW - mean[c] * mean[c], 0).squareRoot() / mean[c])
                        }
                        let agreement = min(max(1 - spread / 0.1, 0), 1)
                        let support = min(matched / Double(tile * tile / 2), 1)
                        // The nearest donor's distance d (tiles): trust falls to half at the search's edge.
                        let distance = (2 * nearest).squareRoot() * spatialSigma
                        let trust = agreement * support * (1 - 0.5 * min(distance / Double(radius), 1))
                        colourOut.base[t] = SIMD4(Float(mean.x), Float(mean.y), Float(mean.z), Float(trust))
                        confidenceOut.base[t] = trust * sumConf / sumW
                    }
                }
            }
        }
        Self.agreeWithinPatches(&colours, &confidence, hot: hot, mw: mw, mh: mh)
        Self.fillHoles(&colours, hot: hot, mw: mw, mh: mh, rings: radius)
        self.colours = colours
        self.confidence = confidence
    }

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
    /// wins, even when it is another one that matches on depth, key chromaticity and level: a leaf lying on a
    /// terracotta pot's rim, under a red spot that leaves the clipped red's bounds almost empty, gave the rim's
    /// tiles its green-and-blue-only colour while the rest of the pot's clipped front took the pot's.
    static func agreeWithinPatches(
        _ colours: inout [SIMD4<Float>], _ confidence: inout [Double], hot: [Double], mw: Int, mh: Int
    ) {
        let hp = sumsPerTile
        func depth(_ t: Int) -> Double { hotDepth(hot, t) }
        func key(_ t: Int) -> [Bool] { keyChannels(hot, t) }
        func shares(_ t: Int) -> SIMD3<Double> { keyShares(hot, t) }
        var member = [Bool](repeating: false, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw {
                let t = ty * mw + tx
                member[t] = hot[hp * t] > 0 && depth(t).isFinite && key(t).filter({ $0 }).count >= 2
                    && shares(t).sum() > 0 && nearClipping(hot, tx: tx, ty: ty, mw: mw, mh: mh)
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
    /// the donors' reach, as a spot-lit pot at 12 MP has) take the trust-weighted mean colour of their
    /// 8-neighbours that have one, whose hot pixels lie at the same depth (within 3σ of the depth's 0.5 %) and
    /// whose colour has the tile's chromaticity in the two or three channels it measures (within 3σ of 0.02;
    /// with one, a chart's white patch would take the next patch's colour), at half
    /// their trust, ring by ring inwards for up to `rings` rings: one patch of one paint has one
    /// colour. (Not a tile with a weak colour of its own: on a chart its neighbours at the same depth are other
    /// paints.) Without it, the fill falls back on the ambient ratio, which under a coloured spot puts the
    /// clipped channel at twice its value (a pink blotch on a terracotta pot). The confidence map is not
    /// raised for them.
    static func fillHoles(_ colours: inout [SIMD4<Float>], hot: [Double], mw: Int, mh: Int, rings: Int) {
        let hp = sumsPerTile
        func depth(_ t: Int) -> Double { hotDepth(hot, t) }
        var wanted = [Bool](repeating: false, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw {
                let t = ty * mw + tx
                wanted[t] = colours[t][3] == 0 && hot[hp * t] > 0 && depth(t).isFinite
                    && nearClipping(hot, tx: tx, ty: ty, mw: mw, mh: mh)
            }
        }
        for _ in 0..<rings {
            let previous = colours
            var changed = false
            for ty in 0..<mh {
                for tx in 0..<mw where wanted[ty * mw + tx] && previous[ty * mw + tx][3] == 0 {
                    let t = ty * mw + tx
                    let z = depth(t)
                    let key = keyChannels(hot, t), shares = keyShares(hot, t)
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

    /// The mean depth of tile `t`'s hot pixels in the pass's sums `hot` (NaN where none has a depth).
    static func hotDepth(_ hot: [Double], _ t: Int) -> Double {
        let h = sumsPerTile * t
        return hot[h + 2] > 0 ? hot[h + 1] / hot[h + 2] : .nan
    }

    /// Tile `t`'s key channels: those no hot pixel of it has near the white level.
    static func keyChannels(_ hot: [Double], _ t: Int) -> [Bool] {
        (0..<3).map { hot[sumsPerTile * t + 8 + $0] == 0 }
    }

    /// Tile `t`'s hot pixels' shares of their key channels' flash-only sum (zero in the other channels, and
    /// all zero where that sum is not positive).
    static func keyShares(_ hot: [Double], _ t: Int) -> SIMD3<Double> {
        let key = keyChannels(hot, t), h = sumsPerTile * t
        let f = SIMD3((0..<3).map { key[$0] ? hot[h + 5 + $0] : 0 })
        let sum = f.sum()
        return sum > 0 ? f / sum : .zero
    }

    /// Whether the tile or one of its 8 neighbours has a pixel whose flash channel reached `flashWhite`: only
    /// there does the feathering run, so a bright but unclipped surface away from any clipping keeps its
    /// measured colour.
    static func nearClipping(_ hot: [Double], tx: Int, ty: Int, mw: Int, mh: Int) -> Bool {
        for ny in max(0, ty - 1)...min(mh - 1, ty + 1) {
            for nx in max(0, tx - 1)...min(mw - 1, tx + 1) {
                let h = sumsPerTile * (ny * mw + nx)
                if hot[h + 23] + hot[h + 24] + hot[h + 25] > 0 { return true }
            }
        }
        return false
    }

    /// The colour at a pixel: the tiles' colours interpolated between tile centres, each weighted by its
    /// trust (so a tile without an estimate does not pull its neighbours' towards zero), and in lane 3 the
    /// interpolated trust; zero where none of the four has one.
    @inline(__always)
    func colour(x: Int, y: Int) -> SIMD4<Float> {
        let u = min(max((Float(x) + 0.5) / Float(tile) - 0.5, 0), Float(mw - 1))
        let v = min(max((Float(y) + 0.5) / Float(tile) - 0.5, 0), Float(mh - 1))
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, mw - 1), y1 = min(y0 + 1, mh - 1)
        let a = u - Float(x0), b = v - Float(y0)
        var sum = SIMD4<Float>(repeating: 0), weights: Float = 0
        for (i, w) in [
            (y0 * mw + x0, (1 - a) * (1 - b)), (y0 * mw + x1, a * (1 - b)),
            (y1 * mw + x0, (1 - a) * b), (y1 * mw + x1, a * b),
        ] {
            let c = colours[i]
            let weight = w * c[3]
            sum += weight * c
            weights += weight
        }
        guard weights > 0 else { return .zero }
        var out = sum / weights
        // The trust itself interpolated with the tiles that have none.
        out[3] = weights
        return out
    }

    /// The confidence map with each tile that has clipped pixels raised to half its estimate's confidence
    /// (our choice: an estimate of a channel is never as good as a measurement), where that is higher.
    func raise(_ map: ConfidenceMap, tileSums sums: [Double]) -> ConfidenceMap {
        var values = map.values
        for t in 0..<values.count where sums[ConstantColorPipeline.sumsPerTile * t + 2] > 0 {
            values[t] = max(values[t], 0.5 * confidence[t])
        }
        return ConfidenceMap(
            values: values, snr: map.snr, consistency: map.consistency, width: map.plane.width,
            height: map.plane.height, tileSize: map.tileSize)
    }
}
