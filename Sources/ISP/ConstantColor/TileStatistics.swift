import Foundation
import Imaging
import Sensor

/// The confidence tiles of a picture: `tileSize`-pixel squares, row-major, the last column and row partial.
struct TileGrid: Sendable, Hashable {
    /// Side of a tile, pixels.
    let tileSize: Int
    /// The picture's size, pixels.
    let width: Int, height: Int
    /// Tiles per row and per column.
    let columns: Int, rows: Int

    init(width: Int, height: Int, tileSize: Int) {
        self.tileSize = max(1, tileSize)
        self.width = width
        self.height = height
        columns = (width + self.tileSize - 1) / self.tileSize
        rows = (height + self.tileSize - 1) / self.tileSize
    }

    /// Tiles in all.
    var count: Int { columns * rows }

    /// The pixel rows of a band of whole tile rows.
    func pixelRows(of tileRows: Range<Int>) -> Range<Int> {
        (tileRows.lowerBound * tileSize)..<min(height, tileRows.upperBound * tileSize)
    }

    /// The pixel columns of tile column `tx`.
    @inline(__always)
    func pixelColumns(of tx: Int) -> Range<Int> {
        (tx * tileSize)..<min(width, (tx + 1) * tileSize)
    }

    /// The tiles of the 3 × 3 neighbourhood of tile (`tx`, `ty`) inside the grid, row by row.
    @inline(__always)
    func neighbourhood(_ tx: Int, _ ty: Int) -> Neighbourhood {
        Neighbourhood(
            columns: columns, x0: max(0, tx - 1), x1: min(columns - 1, tx + 1), y1: min(rows - 1, ty + 1),
            x: max(0, tx - 1), y: max(0, ty - 1))
    }

    /// The tile indices of a rectangle of tiles, row by row, without allocating.
    struct Neighbourhood: Sequence, IteratorProtocol {
        let columns: Int, x0: Int, x1: Int, y1: Int
        var x: Int, y: Int

        @inline(__always)
        mutating func next() -> Int? {
            guard y <= y1 else { return nil }
            let t = y * columns + x
            if x < x1 { x += 1 } else { (x, y) = (x0, y + 1) }
            return t
        }
    }
}

/// What the first pass over a Constant Color pair measures in one confidence tile: sums over its pixels, each
/// gathered in pixel order so that the sums do not depend on the number of cores.
///
/// Rates are electrons per second; the signal and the variances are flash-frame electrons (and their squares).
/// A pixel's flash-only signal in channel c is f_c·t_f with f = flash − ambient, and its variance
/// var_c = S_f + r²(S_a + σ_r² + q_a) + σ_r² + q_f: the shot noise of both frames (divided by the photosites a
/// pixel averages), read noise and the ADC's quantisation step² / 12, r = t_f / t_a bringing the ambient frame's
/// noise to the flash frame's time. Every sum but `clipped` and `pixels` runs over the unclipped pixels only.
///
/// The estimators of colour and of the ambient/flash ratio read `edgeFree`, the same sums over the unclipped pixels
/// whose ambient sample cannot have come from across an edge (`PairStatistics.NoiseTerms.isNearEdge`): under the
/// hand's residual motion an edge lands whole pixels apart in the two frames, and a pixel beside it takes its
/// ambient sample from the other side. Where the ambient frame outshines the flash, one such column moves a tile's
/// flash-only sum by as much as the flash gives it, while the confidence (the flash-only level against the noise of
/// all its pixels) hardly changes.
package struct TileStatistics: Sendable, Hashable {
    /// Σ green flash-only signal, electrons.
    var signal = 0.0
    /// Σ green variance, electrons².
    var greenVariance = 0.0
    /// Pixels clipped in either frame.
    package var clipped = 0.0
    /// Pixels of the tile.
    var pixels = 0.0
    /// Σ ambient rates per channel.
    var ambient = SIMD3<Double>(0, 0, 0)
    /// Σ flash-only rates per channel.
    var flashOnly = SIMD3<Double>(0, 0, 0)
    /// Σ red and Σ blue variance, electrons².
    var redVariance = 0.0, blueVariance = 0.0
    /// Pixels whose flash-only value lies impossibly far below zero (−4σ) in a channel (`ConfidenceMap.consistency`).
    var impossible = 0.0
    /// The sums of the unclipped pixels away from edges.
    var edgeFree = EdgeFreeSums()

    /// Sums over the unclipped pixels of a tile whose ambient neighbourhood spans no edge.
    struct EdgeFreeSums: Sendable, Hashable {
        /// Pixels counted.
        var pixels = 0.0
        /// Σ ambient rates, Σ flash-only rates and Σ variance (electrons²) per channel.
        var ambient = SIMD3<Double>(0, 0, 0), flashOnly = SIMD3<Double>(0, 0, 0), variance = SIMD3<Double>(0, 0, 0)

        /// Whether the flash-only sums stand 5σ above zero in every channel (`TileStatistics.flashStandsOut`).
        func flashStandsOut(flashTime: Double) -> Bool {
            TileStatistics.standsOut(flashOnly: flashOnly, variance: variance, flashTime: flashTime)
        }

        static func += (sums: inout EdgeFreeSums, part: EdgeFreeSums) {
            sums.pixels += part.pixels
            sums.ambient += part.ambient
            sums.flashOnly += part.flashOnly
            sums.variance += part.variance
        }
    }

    /// Pixels that clipped in neither frame.
    var unclipped: Double { pixels - clipped }
    /// Σ variance per channel, electrons².
    var variance: SIMD3<Double> { SIMD3(redVariance, greenVariance, blueVariance) }

    /// Whether the tile can lend its ambient/flash ratio or its flash-only colour to others (our choice): the frames
    /// agree there (`consistency` ≥ 0.9) and at least half of it is unclipped.
    func isCandidate(consistency: Double) -> Bool {
        consistency >= 0.9 && unclipped > 0 && 2 * unclipped >= pixels
    }

    /// Whether the flash-only sums stand 5σ above zero in every channel, σ from the summed variances.
    func flashStandsOut(flashTime: Double) -> Bool {
        Self.standsOut(flashOnly: flashOnly, variance: variance, flashTime: flashTime)
    }

    /// Whether summed flash-only rates stand 5σ above zero in every channel, σ from their summed variances
    /// (flash-frame electrons², `flashTime` seconds).
    static func standsOut(flashOnly: SIMD3<Double>, variance v: SIMD3<Double>, flashTime: Double) -> Bool {
        let electrons = flashOnly * flashTime
        return (0..<3).allSatisfy { electrons[$0] > 5 * v[$0].squareRoot() }
    }
}

/// The first pass's statistics of every tile of a picture.
struct PairStatistics: Sendable {
    let grid: TileGrid
    /// Per tile, row-major.
    let tiles: [TileStatistics]

    /// Pixels clipped in either frame, over the picture.
    var clippedPixels: Double { tiles.reduce(0) { $0 + $1.clipped } }
    /// Impossibly negative pixels, over the picture.
    var impossiblePixels: Double { tiles.reduce(0) { $0 + $1.impossible } }

    /// The per-pixel noise constants of the variance above.
    struct NoiseTerms: Sendable {
        /// Exposure times of the flash and the ambient frame, s.
        let timeF: Float, timeA: Float
        /// 1/n for a pixel that is the mean of n photosites; read noise², e⁻²; t_f / t_a.
        let shotScale: Float, read2: Float, ratio: Float
        /// Quantisation step² / 12 of the flash and the ambient frame, e⁻².
        let quantF: Float, quantA: Float

        init(noise: NoiseParameters, plan: ConstantColorCapturePlan) {
            timeF = Float(plan.flash.time)
            timeA = Float(plan.ambient.time)
            ratio = Float(plan.flash.time / plan.ambient.time)
            read2 = Float(noise.readNoiseElectrons * noise.readNoiseElectrons)
            shotScale = Float(1 / noise.photositesPerPixel)
            quantF = Float(1 / (12 * pow(noise.gain(iso: plan.flash.iso), 2)))
            quantA = Float(1 / (12 * pow(noise.gain(iso: plan.ambient.iso), 2)))
        }

        /// The variance of channel rates `rf`, `ra` (flash, ambient) in flash-frame electrons².
        @inline(__always)
        func variance(_ rf: Float, _ ra: Float) -> Float {
            let fromAmbient = ratio * ratio * (max(ra * timeA, 0) * shotScale + read2 + quantA)
            return max(rf * timeF, 0) * shotScale + read2 + quantF + fromAmbient
        }

        /// Whether a channel's flash-only value lies below −4σ (`ConfidenceMap.consistency`).
        @inline(__always)
        func isImpossible(_ rf: Float, _ ra: Float, variance v: Float) -> Bool {
            let e = (rf - ra) * timeF
            return e < 0 && e * e > 16 * v
        }

        /// Whether a channel's ambient rates within reach of the pixel's registered position, lowest `low` to
        /// highest `high` (`FramePair.Reach`), span more than `edgeRange` times the flash-only value's noise σ
        /// (`variance` v = σ², flash-frame electrons²): an ambient sample taken from anywhere in that reach moves the
        /// flash-only value by up to the span, and a span that large is an edge, not noise.
        @inline(__always)
        func isNearEdge(_ low: Float, _ high: Float, variance v: Float) -> Bool {
            let e = (high - low) * timeF
            return e * e > Self.edgeRange * Self.edgeRange * v
        }

        /// How many σ of the flash-only value the ambient rates within reach may span before the pixel counts as
        /// near an edge (our choice): nine samples of pure noise span 6σ in fewer than one pixel in a thousand (the
        /// range of nine normal deviates), and σ here also holds the flash frame's noise, so noise alone rarely
        /// drops a pixel, while a misplaced edge that stays under 6σ moves a tile's sum by no more than a few times
        /// that sum's own noise.
        static let edgeRange: Float = 6
    }

    /// How the row sums are made: the vector kernel where the platform has it, or the scalar reference.
    enum Path: Sendable { case fast, reference }

    /// The statistics of the pair sampled at `shift`. Bands of whole tile rows own their tiles, and each tile is
    /// summed in pixel order, so the sums never depend on the number of cores. The fast path gives the same sums
    /// bit for bit as the reference (`ConstantColorDifferentialTests`).
    init(
        _ flashFrame: SensorReadout, _ ambient: SensorReadout, shift: SIMD2<Double>, terms: NoiseTerms,
        noise: NoiseParameters, grid: TileGrid, path: Path = .fast
    ) {
        self.grid = grid
        var tiles = [TileStatistics](repeating: TileStatistics(), count: grid.count)
        FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
            tiles.withUnsafeMutableBufferPointer { buffer in
                let out = SharedPointer(buffer)
                BandParallel.forEachBand(height: grid.rows) { tileRows in
                    let rows = FramePair.Rows(pair, keepsReach: true)
                    guard let reach = rows.reach else { preconditionFailure("rows keep the ambient's reach") }
                    for y in grid.pixelRows(of: tileRows) {
                        rows.load(y)
                        let row = RowRates(
                            flash: rows.flash, ambient: rows.ambient, lowestAmbient: reach.lowest,
                            highestAmbient: reach.highest, clipped: rows.clipped)
                        let first = out.base + (y / grid.tileSize) * grid.columns
                        Self.addRow(row, grid: grid, terms: terms, to: first, path: path)
                    }
                }
            }
        }
        self.tiles = tiles
    }

    /// One loaded row of the pair: rates, three per pixel (one value to spare), the lowest and the highest ambient
    /// rate within reach of each pixel's registered position (`FramePair.Reach`), and clip flags.
    struct RowRates {
        let flash: UnsafeMutablePointer<Float>, ambient: UnsafeMutablePointer<Float>
        let lowestAmbient: UnsafeMutablePointer<Float>, highestAmbient: UnsafeMutablePointer<Float>
        let clipped: UnsafeMutablePointer<Bool>
    }

    @inline(__always)
    static func addRow(
        _ row: RowRates, grid: TileGrid, terms: NoiseTerms, to tiles: UnsafeMutablePointer<TileStatistics>,
        path: Path
    ) {
        #if arch(x86_64) && !OBSCURA_PORTABLE
        if path == .fast {
            addRowVector(row, width: grid.width, tile: grid.tileSize, terms: terms, to: tiles)
            return
        }
        #endif
        addRowReference(row, grid: grid, terms: terms, to: tiles)
    }

    /// The scalar reference of a row's part of each tile: each tile's part summed apart, then added to the tile.
    static func addRowReference(
        _ row: RowRates, grid: TileGrid, terms: NoiseTerms, to tiles: UnsafeMutablePointer<TileStatistics>
    ) {
        let fl = row.flash, am = row.ambient, low = row.lowestAmbient, high = row.highestAmbient, clip = row.clipped
        for tx in 0..<grid.columns {
            let x0 = tx * grid.tileSize, x1 = min(grid.width, x0 + grid.tileSize)
            var part = TileStatistics()
            for x in x0..<x1 {
                part.pixels += 1
                if clip[x] {
                    part.clipped += 1
                    continue
                }
                let p = 3 &* x
                let fr = fl[p], fg = fl[p &+ 1], fb = fl[p &+ 2]
                let ar = am[p], ag = am[p &+ 1], ab = am[p &+ 2]
                let vr = terms.variance(fr, ar), vg = terms.variance(fg, ag), vb = terms.variance(fb, ab)
                part.signal += Double((fg - ag) * terms.timeF)
                part.greenVariance += Double(vg)
                part.redVariance += Double(vr)
                part.blueVariance += Double(vb)
                // Impossibly negative (`ConfidenceMap.consistency`), measured against the lowest ambient rate within a
                // pixel of the registered position: edges sampled whole pixels apart in the two frames, and the
                // residual of a sub-pixel registration, are not motion.
                if terms.isImpossible(fr, low[p], variance: vr) || terms.isImpossible(fg, low[p &+ 1], variance: vg)
                    || terms.isImpossible(fb, low[p &+ 2], variance: vb)
                {
                    part.impossible += 1
                }
                part.ambient += SIMD3(Double(ar), Double(ag), Double(ab))
                part.flashOnly += SIMD3(Double(fr - ar), Double(fg - ag), Double(fb - ab))
                if terms.isNearEdge(low[p], high[p], variance: vr)
                    || terms.isNearEdge(low[p &+ 1], high[p &+ 1], variance: vg)
                    || terms.isNearEdge(low[p &+ 2], high[p &+ 2], variance: vb)
                {
                    continue
                }
                part.edgeFree.pixels += 1
                part.edgeFree.ambient += SIMD3(Double(ar), Double(ag), Double(ab))
                part.edgeFree.flashOnly += SIMD3(Double(fr - ar), Double(fg - ag), Double(fb - ab))
                part.edgeFree.variance += SIMD3(Double(vr), Double(vg), Double(vb))
            }
            tiles[tx].add(part)
        }
    }
}

extension TileStatistics {
    /// Adds a row's part of the tile, field by field.
    @inline(__always)
    mutating func add(_ part: TileStatistics) {
        signal += part.signal
        greenVariance += part.greenVariance
        clipped += part.clipped
        pixels += part.pixels
        ambient += part.ambient
        flashOnly += part.flashOnly
        redVariance += part.redVariance
        blueVariance += part.blueVariance
        impossible += part.impossible
        edgeFree += part.edgeFree
    }
}

extension PairStatistics {
    /// The impossibly negative pixels of the pair sampled at `shift` (the sum of `TileStatistics.impossible` over the
    /// picture, the same test pixel for pixel), without the rest of the statistics: what `measure` weighs the still
    /// pair by before it decides whether that pair's full statistics are needed.
    static func impossiblePixels(
        _ flashFrame: SensorReadout, _ ambient: SensorReadout, shift: SIMD2<Double>, terms: NoiseTerms,
        noise: NoiseParameters, grid: TileGrid
    ) -> Double {
        FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
            let counts = BandParallel.bands(grid.rows, initial: 0) { tileRows in
                let rows = FramePair.Rows(pair, keepsReach: true)
                guard let reach = rows.reach else { preconditionFailure("rows keep the ambient's reach") }
                var count = 0
                for y in grid.pixelRows(of: tileRows) {
                    rows.load(y)
                    let fl = rows.flash, am = rows.ambient, low = reach.lowest, clip = rows.clipped
                    for x in 0..<grid.width where !clip[x] {
                        let p = 3 &* x
                        if terms.isImpossible(fl[p], low[p], variance: terms.variance(fl[p], am[p]))
                            || terms.isImpossible(fl[p &+ 1], low[p &+ 1], variance: terms.variance(fl[p &+ 1], am[p &+ 1]))
                            || terms.isImpossible(fl[p &+ 2], low[p &+ 2], variance: terms.variance(fl[p &+ 2], am[p &+ 2]))
                        {
                            count += 1
                        }
                    }
                }
                return count
            }
            return Double(counts.reduce(0, +))
        }
    }
}
