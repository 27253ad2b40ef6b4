import Imaging
import Sensor

/// One band's working rows for the fast blend (`ConstantColorPipeline.blendAndMap`): the tile values interpolated
/// to the current pixel row at every tile column (a pixel then interpolates between two columns), the row's gains,
/// and the row's blend and mapped colour. Owned by one band, so bands share no mutable state.
struct BlendBand {
    let rows: FramePair.Rows
    let inputs: BlendInputs
    let shading: LensShadingCorrection
    let weights: UnsafePointer<Double>
    let columns: UnsafePointer<TileColumn>
    let irradianceRows: FlashIrradiance.Map.Rows?
    /// The flash weights, local ratios, consistency and κ of the flash's shadows, at every tile column.
    let between: UnsafeMutablePointer<Double>, ratioRow: UnsafeMutablePointer<SIMD4<Float>>
    let agreeRow: UnsafeMutablePointer<Float>, kappaRow: UnsafeMutablePointer<SIMD4<Float>>
    /// The row's lens-shading gains, and its flash-irradiance gains (1 without a map).
    let gains: UnsafeMutablePointer<Float>, lit: UnsafeMutablePointer<Float>
    /// The row's blend, four lanes per pixel (r, g, b and an unused lane), then its mapped colour, one plane per
    /// channel (structure of arrays, so the kernel stores four pixels at once), padded to a multiple of four with
    /// copies of the last pixel.
    let soa: UnsafeMutablePointer<Float>
    let padded: Int

    init(
        pair: FramePair, inputs: BlendInputs, shading: LensShadingCorrection, weights: UnsafePointer<Double>,
        columns: UnsafePointer<TileColumn>
    ) {
        let mw = inputs.statistics.grid.columns, width = inputs.parameters.width
        rows = FramePair.Rows(pair)
        (self.inputs, self.shading, self.weights, self.columns) = (inputs, shading, weights, columns)
        irradianceRows = inputs.irradiance.map { FlashIrradiance.Map.Rows($0.map) }
        between = .allocate(capacity: mw)
        ratioRow = .allocate(capacity: mw)
        agreeRow = .allocate(capacity: mw)
        kappaRow = .allocate(capacity: mw)
        kappaRow.initialize(repeating: .zero, count: mw)
        gains = .allocate(capacity: width)
        lit = .allocate(capacity: width)
        lit.initialize(repeating: 1, count: width)
        padded = (width + 3) / 4 * 4
        soa = .allocate(capacity: 7 * padded)
    }

    func deallocate() {
        between.deallocate()
        ratioRow.deallocate()
        agreeRow.deallocate()
        kappaRow.deallocate()
        gains.deallocate()
        lit.deallocate()
        soa.deallocate()
    }

    /// Loads row `y` and interpolates the tile values and gains to it.
    @inline(__always)
    func prepare(row y: Int) {
        rows.load(y)
        let grid = inputs.statistics.grid, mw = grid.columns
        let v = min(max((Double(y) + 0.5) / Double(grid.tileSize) - 0.5, 0), Double(grid.rows - 1))
        let y0 = Int(v)
        let row0 = y0 * mw, row1 = min(y0 + 1, grid.rows - 1) * mw
        let b = v - Double(y0)
        inputs.ratios.withUnsafeBufferPointer { ratios in
            inputs.agreement.withUnsafeBufferPointer { agreement in
                for tx in 0..<mw {
                    between[tx] = weights[row0 + tx] * (1 - b) + weights[row1 + tx] * b
                    ratioRow[tx] = ratios[row0 + tx] * Float(1 - b) + ratios[row1 + tx] * Float(b)
                    agreeRow[tx] = agreement[row0 + tx] * Float(1 - b) + agreement[row1 + tx] * Float(b)
                }
            }
        }
        inputs.parameters.shadows?.row(y, into: kappaRow)
        shading.gains(row: y, into: gains)
        if let irradiance = inputs.irradiance, let irradianceRows { irradiance.row(y, rows: irradianceRows, into: lit) }
    }

    /// `PixelBlend` of every pixel of row `y`, into the blend lanes of `soa`.
    @inline(__always)
    func blend(row y: Int) {
        prepare(row: y)
        let q = inputs.parameters, width = q.width
        let fl = rows.flash, am = rows.ambient, clip = rows.clipped
        let chromaRow = q.chroma?.row(y) ?? (0, 0, 0)
        let row = BlendRow(flash: fl, ambient: am, clipped: clip, gains: lit)
        let blend = UnsafeMutableRawPointer(soa)
        for x in 0..<padded {
            let i = x < width ? x : width &- 1
            let col = columns[i]
            let a = Float(col.a)
            // Four lanes per pixel, one per channel; the rows' buffers have a value to spare for the fourth lane.
            let p = PixelInputs(
                x: i, y: y, flash: UnsafeRawPointer(fl + 3 &* i).loadUnaligned(as: SIMD4<Float>.self),
                ambient: UnsafeRawPointer(am + 3 &* i).loadUnaligned(as: SIMD4<Float>.self), clipped: clip[i],
                weight: Float(between[col.x0] * (1 - col.a) + between[col.x1] * col.a),
                ratio: ratioRow[col.x0] * (1 - a) + ratioRow[col.x1] * a,
                agreement: agreeRow[col.x0] * (1 - a) + agreeRow[col.x1] * a,
                kappa: kappaRow[col.x0] * (1 - a) + kappaRow[col.x1] * a, chromaRow: chromaRow,
                irradianceGain: lit[i], shadingGain: gains[i])
            blend.storeBytes(of: PixelBlend.value(p, row: row, q), toByteOffset: 16 &* x, as: SIMD4<Float>.self)
        }
    }

    /// Maps the blended row `y` by the kernel `m` (`CorrectionKernel.lanes`) into `out`, adds each unclipped pixel's
    /// camera RGB to its tile's sum (`tiles`, the row's first tile), and returns the row's Σ g(dx)·Y and Σ g(dx).
    @inline(__always)
    func map(
        row y: Int, kernel m: UnsafePointer<SIMD4<Float>>, into o: UnsafeMutablePointer<Float>,
        tiles: UnsafeMutablePointer<SIMD3<Double>>, centre: CentreWeights, gx: UnsafePointer<Double>
    ) -> SIMD2<Double> {
        let width = inputs.parameters.width, tile = inputs.statistics.grid.tileSize
        let clip = rows.clipped, yRow = centre.luminance
        let blend = soa
        let mr = soa + 4 * padded, mg = soa + 5 * padded, mb = soa + 6 * padded
        for x in stride(from: 0, to: padded, by: 4) {
            let (r, g, bl) = ConstantColorPipeline.channels(UnsafeRawPointer(blend + 4 &* x))
            let (cr, cg, cb) = CorrectionKernel.apply4(m, r, g, bl)
            UnsafeMutableRawPointer(mr + x).storeBytes(of: cr, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(mg + x).storeBytes(of: cg, as: SIMD4<Float>.self)
            UnsafeMutableRawPointer(mb + x).storeBytes(of: cb, as: SIMD4<Float>.self)
        }
        var rowSum = SIMD2<Double>(0, 0)
        // Tile by tile, its sums held in a local: the same additions in the same order as adding each pixel to the
        // stored sum.
        for tx in 0..<inputs.statistics.grid.columns {
            var s = tiles[tx]
            for x in (tx &* tile)..<min(width, tx &* tile &+ tile) {
                let cr = mr[x], cg = mg[x], cb = mb[x]
                let p = o + 3 &* x
                p[0] = cr
                p[1] = cg
                p[2] = cb
                guard !clip[x] else { continue }
                s += SIMD3(Double(blend[4 &* x]), Double(blend[4 &* x + 1]), Double(blend[4 &* x + 2]))
                let weight = gx[x]
                rowSum += SIMD2(weight * Double(yRow.x * cr + yRow.y * cg + yRow.z * cb), weight)
            }
            tiles[tx] = s
        }
        return rowSum
    }
}
