import Foundation
import Imaging
import Sensor
import Spectra

/// The blend's output before the exposure: linear Display P3, and the statistics that set the exposure.
struct BlendOutput {
    /// Linear Display P3, three values per pixel, row-major.
    var linear: [Float]
    /// The centre-weighted mean luminance over unclipped pixels (σ = 1/4 of the diagonal).
    var meanY: Double
    /// The largest Display P3 channel of any confident (≥ 0.5), unclipped tile's mean colour.
    var brightest: Double
}

/// Everything the blend pass reads: the pair, the estimators' parameters, and the tile values it interpolates.
struct BlendInputs {
    let flash: SensorReadout, ambient: SensorReadout
    let shift: SIMD2<Double>
    let parameters: BlendParameters
    let map: ConfidenceMap
    let statistics: PairStatistics
    /// The fill's ratios (`FillRatios`): a ratio is positive, and the floor keeps a degenerate grey-world estimate
    /// from dividing by zero; lane 3 carries the fill's irradiance gain.
    let ratios: [SIMD4<Float>]
    /// Per tile, the flash weight (`ConfidenceMap.flashWeight` times the frames' consistency).
    let weights: [Double]
    /// Per tile, the frames' consistency.
    let agreement: [Float]
    /// Camera RGB → linear Display P3 (before the exposure).
    let kernel: CorrectionKernel
    let irradiance: IrradianceGains?

    init(flash: SensorReadout, ambient: SensorReadout, estimates: Estimates, kernel: CorrectionKernel) {
        (self.flash, self.ambient, self.kernel) = (flash, ambient, kernel)
        shift = estimates.shift
        parameters = estimates.parameters
        map = estimates.map
        statistics = estimates.statistics
        irradiance = estimates.irradiance
        ratios = estimates.ratios.tiles.map {
            SIMD4<Float>(Float(max($0.x, 1e-3)), Float(max($0.y, 1e-3)), Float(max($0.z, 1e-3)), Float($0.w))
        }
        weights = zip(map.snr, map.consistency).map { ConfidenceMap.flashWeight(snr: $0) * $1 }
        agreement = map.consistency.map { Float($0) }
    }
}

/// Where a pixel column falls between tile centres: the left tile column, the right one, and the right one's weight.
struct TileColumn {
    let x0: Int, x1: Int, a: Double

    /// The columns of a picture `width` pixels wide on tiles of `tile` pixels, `columns` of them.
    static func all(width: Int, tile: Int, columns mw: Int) -> [TileColumn] {
        (0..<width).map { x in
            let u = min(max((Double(x) + 0.5) / Double(tile) - 0.5, 0), Double(mw - 1))
            let x0 = Int(u)
            return TileColumn(x0: x0, x1: min(x0 + 1, mw - 1), a: u - Double(x0))
        }
    }
}

/// The exposure metering's weights: a Gaussian of the distance from the centre with σ = 1/4 of the diagonal (the same
/// as `AutoExposure`'s), separable, exp(−(dx² + dy²)/2σ²) = g(dx)·g(dy): one exp per column and one per row.
struct CentreWeights {
    let sigma: Double, width: Int, height: Int
    /// g(dx) of every column.
    let columns: [Double]
    /// Luminance of linear Display P3 (its Y row, CIE 15 Y with Y_white = 1).
    let luminance: SIMD3<Float>

    init(width: Int, height: Int) {
        (self.width, self.height) = (width, height)
        let sigma = (Double(width * width + height * height)).squareRoot() / 4
        self.sigma = sigma
        columns = (0..<width).map { x in
            let dx = Double(x) + 0.5 - Double(width) / 2
            return exp(-dx * dx / (2 * sigma * sigma))
        }
        let p3Y = RGBColorSpace.displayP3.toXYZ
        luminance = SIMD3<Float>(Float(p3Y[1, 0]), Float(p3Y[1, 1]), Float(p3Y[1, 2]))
    }

    /// g(dy) of row `y`.
    @inline(__always)
    func row(_ y: Int) -> Double {
        let dy = Double(y) + 0.5 - Double(height) / 2
        return exp(-dy * dy / (2 * sigma * sigma))
    }
}

extension ConstantColorPipeline {
    /// Pass 2 over the pair: `PixelBlend` at every pixel, mapped by the kernel to linear Display P3 (before the
    /// exposure), with the exposure's statistics (`BlendOutput`). The fast path interpolates the tile values once
    /// per row and tile column and maps four pixels at a time; the reference (`referenceBlend`) does each pixel
    /// plainly, and the two agree (`ConstantColorDifferentialTests`).
    ///
    /// The exposure puts the mean at mid-grey unless that would push the brightest surface past the tone curve's
    /// knee: then that surface decides, so that no diffuse colour is compressed channel by channel (which would
    /// shift its hue and lightness). Tile means, not pixels, so noise does not set the exposure; specular highlights
    /// clip and so never count. The kernel runs once per pixel: its output serves both the statistics and, scaled,
    /// the encoding.
    func blendAndMap(_ inputs: BlendInputs, path: KernelPath) -> BlendOutput {
        if path == .reference { return referenceBlend(inputs) }
        let width = camera.width, height = camera.height
        let grid = inputs.statistics.grid
        let columns = TileColumn.all(width: width, tile: grid.tileSize, columns: grid.columns)
        let centre = CentreWeights(width: width, height: height)
        var tileRGB = [SIMD3<Double>](repeating: .zero, count: grid.count)
        var linear: [Float] = BandParallel.uninitialized(3 * width * height)
        let shading = LensShadingCorrection(camera: camera, completely: true)
        let partial = FramePair.with(
            flash: inputs.flash, ambient: inputs.ambient, shift: inputs.shift, noise: camera.noise
        ) { pair in
            withReadPointers(inputs.kernel.lanes, inputs.weights, columns, centre.columns) { m, weights, cols, gx in
                withPointers(&linear, &tileRGB) { out, rgbSums in
                    // Bands are whole tile rows, so each band owns its tiles' sums.
                    BandParallel.bands(grid.rows, initial: SIMD2<Double>(0, 0)) { tileRows in
                        let band = BlendBand(
                            pair: pair, inputs: inputs, shading: shading, weights: weights.base, columns: cols.base)
                        defer { band.deallocate() }
                        var acc = SIMD2<Double>(0, 0)
                        for y in grid.pixelRows(of: tileRows) {
                            band.blend(row: y)
                            let rowSum = band.map(
                                row: y, kernel: m.base, into: out.base + 3 * y * width,
                                tiles: rgbSums.base + (y / grid.tileSize) * grid.columns, centre: centre,
                                gx: gx.base)
                            acc += centre.row(y) * rowSum
                        }
                        return acc
                    }
                }
            }
        }
        var total = SIMD2<Double>(0, 0)
        for p in partial { total += p }
        let brightest = Self.brightest(tileRGB: tileRGB, inputs: inputs)
        return BlendOutput(linear: linear, meanY: total.y > 0 ? total.x / total.y : 0, brightest: brightest)
    }

    /// The largest Display P3 channel of the mean colour of any confident (≥ 0.5) tile without clipped pixels,
    /// from the tiles' sums of camera RGB.
    static func brightest(tileRGB: [SIMD3<Double>], inputs: BlendInputs) -> Double {
        let grid = inputs.statistics.grid, tile = grid.tileSize
        var brightest = 0.0
        inputs.kernel.m.withUnsafeBufferPointer { mp in
            guard let m = mp.baseAddress else { return }
            for t in 0..<grid.count where inputs.statistics.tiles[t].clipped == 0 && inputs.map.values[t] >= 0.5 {
                let across = min(tile, grid.width - (t % grid.columns) * tile)
                let n = Float(across * min(tile, grid.height - (t / grid.columns) * tile))
                let s = tileRGB[t]
                let c = CorrectionKernel.apply(m, Float(s.x) / n, Float(s.y) / n, Float(s.z) / n)
                brightest = max(brightest, Double(c.max()))
            }
        }
        return brightest
    }

    /// The red, green and blue of four pixels stored as four lanes each (r, g, b, unused) from `p` on, one
    /// vector per channel (a 4 × 4 transposition without its last row).
    @inline(__always)
    static func channels(_ p: UnsafeRawPointer) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let p0 = p.loadUnaligned(as: SIMD4<Float>.self)
        let p1 = p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        let p2 = p.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self)
        let p3 = p.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self)
        return Lanes.transposed3(p0, p1, p2, p3)
    }
}
