import Foundation
import Imaging

/// How far a Constant Color picture can be trusted, region by region: 0 none … 255 full.
///
/// Our choices (Apple documents only the 0…255 range and "centre-weighted"):
/// - **Regions** are square tiles of `tileSize` pixels (8 by default), so the map has the photo's
///   aspect ratio at 1/8 of its resolution (edge tiles may be partial).
/// - **SNR** of a tile is the per-pixel SNR of the flash increment estimated from the tile's means:
///   mean(S_f) / √mean(var), with var = S_f + σ_r² + (t_f/t_a)²·(S_a + σ_r²) in flash-frame electrons (S_f
///   the flash frame's signal, S_a the ambient frame's), which is the color-science spec §3.4 S + 2S_a + 2σ_r²
///   (S the flash-only signal) when both frames share an exposure. `init(signal:variance:…)` takes one channel (green, the one the spec's table follows).
/// - **SNR → confidence** is that spec's §3.4 ramp c = clamp((SNR − lo)/(hi − lo), 0, 1) with lo = 4,
///   hi = 16: a close subject in dim light (SNR 30–60) is fully trusted, one at 1 m in an office
///   (SNR ≈ 12) about two-thirds, one at 2 m or in bright light (SNR < 4) not at all.
/// - **Channels** (Constant Color pairs): the SNR is the weakest channel's, each channel's noise
///   measured against the colour's grey-equivalent level (see `init(statistics:neutral:flashTime:)`).
/// - **Motion** between the frames zeroes the trust of the tiles around it (see `consistency`).
/// - **Clipping** zeroes a pixel's trust (any channel at the white level in either frame: the
///   increment is unknown there, and specular highlights of the flash clip). A tile's confidence is
///   multiplied by 1 − 4·(clipped fraction), floored at 0, so a tile a quarter clipped counts for
///   nothing and a stray clipped pixel costs little. The Constant Color pipeline then raises a tile
///   whose clipped channel it estimated from the surface around to at most half that estimate's
///   trust (`SurfaceColours.raise`).
public struct ConfidenceMap: Sendable {
    /// The map, one 8-bit channel: 0 = no confidence, 255 = full.
    public let plane: PixelPlane<UInt8>
    /// Side of a tile, photo pixels.
    public let tileSize: Int
    /// Per-tile confidence 0…1 before quantisation (row-major, `plane` size).
    public let values: [Double]
    /// Per-tile SNR of the flash increment (row-major, `plane` size).
    public let snr: [Double]
    /// Per tile, 1 where the two frames agree, falling to 0 where the flash-only estimate goes
    /// impossibly negative nearby (motion between the frames; row-major, `plane` size).
    let consistency: [Double]

    /// The SNR at or below which confidence is 0.
    public static let snrLow = 4.0
    /// The SNR at or above which confidence is 1.
    public static let snrHigh = 16.0

    /// Confidence 0…1 for a flash-increment SNR (before clipping).
    public static func confidence(snr: Double) -> Double {
        min(max((snr - snrLow) / (snrHigh - snrLow), 0), 1)
    }

    /// Builds the map from per-pixel flash-increment signal and variance (flash-frame electrons,
    /// green) and a clipping mask, all row-major `width × height`.
    public init(
        signal: [Float], variance: [Float], clipped: [Bool], width: Int, height: Int, tileSize: Int = 8
    ) {
        precondition(signal.count == width * height && variance.count == signal.count && clipped.count == signal.count)
        let grid = TileGrid(width: width, height: height, tileSize: tileSize)
        // Per tile: Σ signal, Σ variance over unclipped pixels, clipped count, pixel count. Row bands
        // of whole tile rows own their tiles, so the sums do not depend on the number of cores.
        var tiles = [TileStatistics](repeating: TileStatistics(), count: grid.count)
        signal.withUnsafeBufferPointer { sb in
            variance.withUnsafeBufferPointer { vb in
                clipped.withUnsafeBufferPointer { cb in
                    tiles.withUnsafeMutableBufferPointer { tb in
                        let sig = SharedReadPointer(sb), vari = SharedReadPointer(vb), clip = SharedReadPointer(cb)
                        let out = SharedPointer(tb)
                        BandParallel.forEachBand(height: grid.rows) { tileRows in
                            for y in grid.pixelRows(of: tileRows) {
                                let row = (y / grid.tileSize) * grid.columns
                                for x in 0..<width {
                                    let t = row + x / grid.tileSize
                                    let i = y * width + x
                                    out.base[t].pixels += 1
                                    if clip.base[i] {
                                        out.base[t].clipped += 1
                                    } else {
                                        out.base[t].signal += Double(sig.base[i])
                                        out.base[t].greenVariance += Double(vari.base[i])
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var values = [Double](repeating: 0, count: grid.count)
        var snrs = [Double](repeating: 0, count: grid.count)
        for (t, s) in tiles.enumerated() {
            let unclipped = s.unclipped, v = s.greenVariance
            guard unclipped > 0, v > 0 else { continue }
            let snr = (s.signal / unclipped) / (v / unclipped).squareRoot()
            snrs[t] = snr
            values[t] = ConfidenceMap.confidence(snr: snr) * max(0, 1 - 4 * s.clipped / s.pixels)
        }
        self.init(values: values, snr: snrs, width: grid.columns, height: grid.rows, tileSize: grid.tileSize)
    }

    /// The map of a Constant Color pair from its first pass's statistics (`PairStatistics`).
    ///
    /// Each channel c has a flash-only level s_c = mean f_c·t_f and a noise σ_c = √mean var_c. Both are
    /// divided by `neutral`, the camera's response to white under the flash, so that a grey reads the
    /// same in every channel; the tile's level L is the mean of the three balanced levels, and the SNR
    /// of channel c is L / (σ_c / n_c), the channel's noise measured against the colour's overall level
    /// (an error that size in any one channel shifts the hue by as much). The tile's SNR is that of its
    /// weakest channel: an ambient light strong in one channel only (a narrow-band LED) fills that channel
    /// with shot noise the flash cannot out-shine, and its colour can be no better than that channel.
    init(statistics: PairStatistics, neutral: SIMD3<Double>, flashTime: Double) {
        let grid = statistics.grid, tiles = statistics.tiles
        let mw = grid.columns, mh = grid.rows
        var values = [Double](repeating: 0, count: mw * mh)
        var snrs = [Double](repeating: 0, count: mw * mh)
        // Share of each tile's unclipped pixels whose flash-only value is impossibly negative, one stray pixel
        // forgiven: in a tile mostly clipped (the rim of a specular highlight) one pixel among forty would otherwise
        // make the tile and its neighbours 20 % inconsistent, while motion makes many.
        let negative = tiles.map { $0.unclipped > 0 ? max($0.impossible - 1, 0) / $0.unclipped : 0 }
        let consistency = ConfidenceMap.consistency(negative: negative, width: mw, height: mh)
        for (t, s) in tiles.enumerated() {
            let unclipped = s.unclipped
            guard unclipped > 0 else { continue }
            let level = s.flashOnly * flashTime / unclipped / neutral
            let noise = s.variance / unclipped
            guard noise.min() > 0 else { continue }
            let grey = (level.x + level.y + level.z) / 3
            let balancedNoise = SIMD3(noise.x.squareRoot(), noise.y.squareRoot(), noise.z.squareRoot()) / neutral
            let snr = grey / balancedNoise.max()
            snrs[t] = snr
            values[t] = ConfidenceMap.confidence(snr: snr) * max(0, 1 - 4 * s.clipped / s.pixels) * consistency[t]
        }
        self.init(
            values: values, snr: snrs, consistency: consistency, width: mw, height: mh, tileSize: grid.tileSize)
    }

    /// Per tile, how far the frames agree: 1 − 8 × the largest share of impossibly negative pixels
    /// among the tile and its 8 neighbours (one pixel per tile forgiven), floored at 0 (our choice).
    ///
    /// f = flash − ambient cannot be negative unless the scene moved between the frames (or the
    /// registration missed): a pixel whose flash-only value lies more than 4σ below zero in any
    /// channel is one where the ambient frame shows something else. The flash-only value is measured
    /// against the lowest ambient pixel within a pixel of the registered position
    /// (`FramePair.Reach`), so the sub-pixel residual a translation leaves (the device's
    /// roll, edges that land whole pixels apart) is not taken for motion. Noise alone puts about 1 pixel
    /// in 10,000 there. Where something moved, one side of the motion goes negative and the other
    /// side takes the wrong colour, so the neighbours count too: a tile 12.5 % inconsistent, or next
    /// to one, is not trusted at all.
    static func consistency(negative: [Double], width mw: Int, height mh: Int) -> [Double] {
        var out = [Double](repeating: 1, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw {
                var worst = 0.0
                for ny in max(0, ty - 1)...min(mh - 1, ty + 1) {
                    for nx in max(0, tx - 1)...min(mw - 1, tx + 1) { worst = max(worst, negative[ny * mw + nx]) }
                }
                out[ty * mw + tx] = max(0, 1 - 8 * worst)
            }
        }
        return out
    }

    /// The share of a tile's colour taken from the flash-only estimate, the rest coming from the
    /// fill: 0 at SNR 2 or below, 1 from SNR 6 on (our choice), linear between.
    ///
    /// Separate from the confidence on purpose: any tile trusted at all (confidence above 0.17, SNR
    /// above 6) shows the flash-only colour alone, so confidence ≥ 0.8 never hides a fill whose
    /// colour depends on the room light; the fill only stands in where the flash-only estimate is
    /// mostly noise.
    public static func flashWeight(snr: Double) -> Double {
        min(max((snr - 2) / 4, 0), 1)
    }

    /// A map from tile values 0…1 (row-major `width × height`).
    public init(values: [Double], snr: [Double]? = nil, width: Int, height: Int, tileSize: Int) {
        self.init(values: values, snr: snr, consistency: nil, width: width, height: height, tileSize: tileSize)
    }

    init(values: [Double], snr: [Double]?, consistency: [Double]?, width: Int, height: Int, tileSize: Int) {
        precondition(values.count == width * height, "a map needs one value per tile")
        self.values = values
        self.snr = snr ?? [Double](repeating: .nan, count: values.count)
        self.consistency = consistency ?? [Double](repeating: 1, count: values.count)
        self.tileSize = tileSize
        plane = PixelPlane(
            width: width, height: height, channels: 1,
            elements: values.map { UInt8((min(max($0, 0), 1) * 255).rounded()) })
    }

    /// The centre-weighted mean confidence of the map, 0…1.
    public var centerWeightedMean: Double { ConfidenceMap.centerWeightedMean(plane) }

    /// The centre-weighted mean of an 8-bit confidence plane, 0…1.
    ///
    /// Weights are a Gaussian of the distance from the centre with σ = 1/4 of the diagonal (our
    /// choice, the same as `AutoExposure`'s metering weight): a corner weighs e^−2 ≈ 0.14 of the centre.
    public static func centerWeightedMean(_ plane: PixelPlane<UInt8>) -> Double {
        let w = plane.width, h = plane.height
        guard w > 0, h > 0 else { return 0 }
        let sigma = (Double(w * w + h * h)).squareRoot() / 4
        var sum = 0.0, weights = 0.0
        for y in 0..<h {
            let dy = Double(y) + 0.5 - Double(h) / 2
            for x in 0..<w {
                let dx = Double(x) + 0.5 - Double(w) / 2
                let weight = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
                sum += weight * Double(plane[x, y]) / 255
                weights += weight
            }
        }
        return sum / weights
    }

    /// The confidence 0…1 at a photo pixel, bilinearly interpolated between tile centres.
    public func value(x: Double, y: Double) -> Double {
        let mw = plane.width, mh = plane.height
        let u = min(max(x / Double(tileSize) - 0.5, 0), Double(mw - 1))
        let v = min(max(y / Double(tileSize) - 0.5, 0), Double(mh - 1))
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, mw - 1), y1 = min(y0 + 1, mh - 1)
        let a = u - Double(x0), b = v - Double(y0)
        let top = values[y0 * mw + x0] * (1 - a) + values[y0 * mw + x1] * a
        let bottom = values[y1 * mw + x0] * (1 - a) + values[y1 * mw + x1] * a
        return top * (1 - b) + bottom * b
    }
}
