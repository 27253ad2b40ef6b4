import Imaging
import Sensor

/// What `SurfaceColours` measures in one tile: sums over its "hot" pixels (clipped, or a flash channel at
/// `ClipLimits.featherStart` or above), over its unclipped pixels, and per channel over the pixels where that
/// channel clipped. Rates in e⁻/s, depths in metres.
struct HotTileStatistics: Sendable {
    /// Hot pixels.
    var hot = 0.0
    /// Σ depth of the hot pixels that have one, and their count.
    var hotDepth = 0.0, hotDepthCount = 0.0
    /// Σ depth of the unclipped pixels that have one, and their count.
    var depth = 0.0, depthCount = 0.0
    /// Σ flash-only rates of the hot pixels.
    var hotFlashOnly = SIMD3<Double>(0, 0, 0)
    /// Per channel, the hot pixels where that channel is at `featherStart` or above.
    var nearWhite = SIMD3<Double>(0, 0, 0)
    /// Per channel c, over the pixels where c clipped (flash rate ≥ `flashWhite`): Σ (white − ambient_c).
    var headroom = SIMD3<Double>(0, 0, 0)
    /// Per channel c, Σ flash-only rates (all three channels) over the pixels where c clipped.
    var whereRedClipped = SIMD3<Double>(0, 0, 0), whereGreenClipped = SIMD3<Double>(0, 0, 0)
    var whereBlueClipped = SIMD3<Double>(0, 0, 0)
    /// Per channel, the pixels where that channel clipped.
    var clippedCount = SIMD3<Double>(0, 0, 0)

    /// Σ flash-only rates over the pixels where channel `c` clipped.
    func flashOnly(whereClipped c: Int) -> SIMD3<Double> {
        c == 0 ? whereRedClipped : c == 1 ? whereGreenClipped : whereBlueClipped
    }

    /// The mean depth of the hot pixels (NaN where none has a depth).
    var meanHotDepth: Double { hotDepthCount > 0 ? hotDepth / hotDepthCount : .nan }

    /// The key channels: those no hot pixel has near the white level.
    var keyChannels: [Bool] { (0..<3).map { nearWhite[$0] == 0 } }

    /// The hot pixels' shares of their key channels' flash-only sum (zero in the other channels, and all zero where
    /// that sum is not positive).
    var keyShares: SIMD3<Double> {
        let key = keyChannels
        let f = SIMD3((0..<3).map { key[$0] ? hotFlashOnly[$0] : 0 })
        let sum = f.sum()
        return sum > 0 ? f / sum : .zero
    }

    /// Adds one pixel: flash and ambient rates `f`, `a`, its depth `d` (NaN where unknown), clipped or not.
    @inline(__always)
    mutating func add(
        flash f: SIMD3<Float>, ambient a: SIMD3<Float>, depth d: Double, clipped: Bool, limits: ClipLimits
    ) {
        let isHot = clipped || f.max() >= limits.featherStart
        if !clipped, d.isFinite {
            depth += d
            depthCount += 1
        }
        guard isHot else { return }
        let fo = SIMD3<Double>(f - a)
        hot += 1
        if d.isFinite {
            hotDepth += d
            hotDepthCount += 1
        }
        for c in 0..<3 {
            hotFlashOnly[c] += fo[c]
            if f[c] >= limits.featherStart { nearWhite[c] += 1 }
            guard f[c] >= limits.flashWhite else { continue }
            headroom[c] += Double(limits.flashClip - a[c])
            switch c {
            case 0: whereRedClipped += fo
            case 1: whereGreenClipped += fo
            default: whereBlueClipped += fo
            }
            clippedCount[c] += 1
        }
    }

    /// The statistics of every tile, one pass over the pair. Without a measured depth every pixel reads as unknown.
    /// Bands of whole tile rows own their tiles, summed in pixel order, so the sums never depend on the number of
    /// cores.
    static func gather(
        _ flashFrame: SensorReadout, _ ambient: SensorReadout, depth measured: [Float], shift: SIMD2<Double>,
        limits: ClipLimits, grid: TileGrid, noise: NoiseParameters
    ) -> [HotTileStatistics] {
        let width = grid.width
        var tiles = [HotTileStatistics](repeating: HotTileStatistics(), count: grid.count)
        // One NaN stands for the plane where there is no depth.
        let hasDepth = measured.count == width * grid.height
        let depth = hasDepth ? measured : [Float.nan]
        FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
            depth.withUnsafeBufferPointer { db in
                tiles.withUnsafeMutableBufferPointer { buffer in
                    let out = SharedPointer(buffer)
                    let z = SharedReadPointer(db)
                    BandParallel.forEachBand(height: grid.rows) { tileRows in
                        let rows = FramePair.Rows(pair)
                        let fl = rows.flash, am = rows.ambient, clip = rows.clipped
                        for y in grid.pixelRows(of: tileRows) {
                            rows.load(y)
                            let tileRow = out.base + (y / grid.tileSize) * grid.columns
                            // Tile by tile along the row, so that no pixel divides by the tile size.
                            for tx in 0..<grid.columns {
                                for x in grid.pixelColumns(of: tx) {
                                    let p = 3 &* x
                                    let f = SIMD3(fl[p], fl[p + 1], fl[p + 2]), a = SIMD3(am[p], am[p + 1], am[p + 2])
                                    let d = hasDepth ? Double(z.base[y * width + x]) : .nan
                                    tileRow[tx].add(flash: f, ambient: a, depth: d, clipped: clip[x], limits: limits)
                                }
                            }
                        }
                    }
                }
            }
        }
        return tiles
    }

    /// Whether tile (`tx`, `ty`) or one of its 8 neighbours has a pixel whose flash channel reached `flashWhite`:
    /// only there does the feathering run, so a bright but unclipped surface away from any clipping keeps its
    /// measured colour.
    static func nearClipping(_ hot: [HotTileStatistics], tx: Int, ty: Int, grid: TileGrid) -> Bool {
        grid.neighbourhood(tx, ty).contains { hot[$0].clippedCount.sum() > 0 }
    }
}
