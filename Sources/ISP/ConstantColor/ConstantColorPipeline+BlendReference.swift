import Foundation
import Imaging
import Sensor

extension ConstantColorPipeline {
    /// The blend pass written plainly, the reference the fast path (`blendAndMap`) is tested against: one thread,
    /// each pixel's tile values interpolated bilinearly between tile centres on their own, `PixelBlend`, the scalar
    /// colour mapping (`CorrectionKernel.apply`), and the exposure's statistics summed pixel by pixel.
    func referenceBlend(_ inputs: BlendInputs) -> BlendOutput {
        let width = camera.width, height = camera.height, q = inputs.parameters
        let grid = inputs.statistics.grid
        let centre = CentreWeights(width: width, height: height)
        let shading = LensShadingCorrection(camera: camera, completely: true)
        var linear = [Float](repeating: 0, count: 3 * width * height)
        var tileRGB = [SIMD3<Double>](repeating: .zero, count: grid.count)
        var weighted = 0.0, weights = 0.0
        let gains = UnsafeMutablePointer<Float>.allocate(capacity: width)
        let lit = UnsafeMutablePointer<Float>.allocate(capacity: width)
        defer {
            gains.deallocate()
            lit.deallocate()
        }
        FramePair.with(flash: inputs.flash, ambient: inputs.ambient, shift: inputs.shift, noise: camera.noise) { pair in
            let rows = FramePair.Rows(pair)
            let irradianceRows = inputs.irradiance.map { FlashIrradiance.Map.Rows($0.map) }
            inputs.kernel.m.withUnsafeBufferPointer { mp in
                guard let m = mp.baseAddress else { return }
                for y in 0..<height {
                    rows.load(y)
                    shading.gains(row: y, into: gains)
                    for x in 0..<width { lit[x] = 1 }
                    if let irradiance = inputs.irradiance, let irradianceRows {
                        irradiance.row(y, rows: irradianceRows, into: lit)
                    }
                    let row = BlendRow(flash: rows.flash, ambient: rows.ambient, clipped: rows.clipped, gains: lit)
                    for x in 0..<width {
                        let p = Self.referenceInputs(x: x, y: y, rows: rows, inputs: inputs, gains: gains, lit: lit)
                        let value = PixelBlend.value(p, row: row, q)
                        let c = CorrectionKernel.apply(m, value[0], value[1], value[2])
                        for k in 0..<3 { linear[3 * (y * width + x) + k] = c[k] }
                        guard !p.clipped else { continue }
                        tileRGB[(y / grid.tileSize) * grid.columns + x / grid.tileSize] +=
                            SIMD3(Double(value[0]), Double(value[1]), Double(value[2]))
                        let g = centre.columns[x] * centre.row(y)
                        let luminance = centre.luminance.x * c.x + centre.luminance.y * c.y + centre.luminance.z * c.z
                        weighted += g * Double(luminance)
                        weights += g
                    }
                }
            }
        }
        let brightest = Self.brightest(tileRGB: tileRGB, inputs: inputs)
        return BlendOutput(linear: linear, meanY: weights > 0 ? weighted / weights : 0, brightest: brightest)
    }

    /// One pixel's inputs with each tile value interpolated between the four tile centres around the pixel.
    static func referenceInputs(
        x: Int, y: Int, rows: FramePair.Rows, inputs: BlendInputs, gains: UnsafePointer<Float>,
        lit: UnsafePointer<Float>
    ) -> PixelInputs {
        let grid = inputs.statistics.grid, mw = grid.columns
        let u = min(max((Double(x) + 0.5) / Double(grid.tileSize) - 0.5, 0), Double(mw - 1))
        let v = min(max((Double(y) + 0.5) / Double(grid.tileSize) - 0.5, 0), Double(grid.rows - 1))
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 + 1, mw - 1), y1 = min(y0 + 1, grid.rows - 1)
        let a = u - Double(x0), b = v - Double(y0)
        let corners = (y0 * mw + x0, y0 * mw + x1, y1 * mw + x0, y1 * mw + x1)
        func weight(_ t: [Double]) -> Double {
            (t[corners.0] * (1 - b) + t[corners.2] * b) * (1 - a) + (t[corners.1] * (1 - b) + t[corners.3] * b) * a
        }
        func lanes(_ t: [SIMD4<Float>]) -> SIMD4<Float> {
            let fa = Float(a), fb = Float(b)
            return (t[corners.0] * Float(1 - b) + t[corners.2] * fb) * (1 - fa)
                + (t[corners.1] * Float(1 - b) + t[corners.3] * fb) * fa
        }
        let fa = Float(a), fb = Float(b), agree = inputs.agreement
        let agreement = (agree[corners.0] * (1 - fb) + agree[corners.2] * fb) * (1 - fa)
            + (agree[corners.1] * (1 - fb) + agree[corners.3] * fb) * fa
        return PixelInputs(
            x: x, y: y, flash: UnsafeRawPointer(rows.flash + 3 * x).loadUnaligned(as: SIMD4<Float>.self),
            ambient: UnsafeRawPointer(rows.ambient + 3 * x).loadUnaligned(as: SIMD4<Float>.self),
            clipped: rows.clipped[x], weight: Float(weight(inputs.weights)), ratio: lanes(inputs.ratios),
            agreement: agreement, kappa: inputs.parameters.shadows.map { lanes($0.kappa) } ?? .zero,
            chromaRow: inputs.parameters.chroma?.row(y) ?? (0, 0, 0), irradianceGain: lit[x], shadingGain: gains[x])
    }
}
