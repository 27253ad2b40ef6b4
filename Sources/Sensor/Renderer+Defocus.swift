import Foundation
import Imaging

extension Renderer {
    /// One frame with depth of field: the pinhole frame's noise-free means, each pixel's replaced by their mean
    /// over its circle of confusion (`LensFocus.blurDiameter`), then the noise chain and fixed pattern at every
    /// pixel as `render(_:)` draws them.
    ///
    /// The blur is optical, so it acts on the light before the sensor counts it: a blurred pixel's shot noise
    /// is that of its blurred mean, not a blur of noise. Each pixel gathers the sharp means of the pixel centres
    /// inside a disc of its own circle's diameter (pixels beyond the picture's edge are left out of the mean).
    /// Away from depth edges this is the light the lens spreads there; at an edge between near and far it lets
    /// a blurred background take in some of an in-focus foreground's light, where a lens would hide that
    /// background behind the sharp edge [our approximation]. The truth planes are the pinhole frame's.
    func render(_ exposure: Exposure, blurredBy focus: LensFocus) -> RawFrame {
        let width = camera.width, height = camera.height, pixels = width * height
        let shading = ShadingPass(renderer: self, exposure: exposure)
        // The sharp means: the shading pass's noise-free components (its noisy output is not used).
        var sharpOptions = options
        sharpOptions.keepsComponents = true
        sharpOptions.keepsElectrons = false
        var sharp = Planes(pixels: pixels, options: sharpOptions)
        sharp.withOutput { out in forEachBand { _, rows in shading.run(rows: rows, output: out) } }
        let discs = DiscMeans(sharp.flash, sharp.ambient, width: width, height: height)
        let (sharpFlash, sharpAmbient) = (sharp.flash, sharp.ambient)

        var planes = Planes(pixels: pixels, options: options)
        var sums = BandSums(bands: bandCount, kept: planes.keepsMeans)
        let fx = camera.fx
        let depth = geometry.depth
        planes.withOutput { out in
            sums.withRecorder { recorder in
                forEachBand { band, rows in
                    Self.shade(out, rows: rows, width: width, recorder, band) { banded in
                        let normals = NormalTable.shared, poisson = PoissonTable.shared
                        ShadingPass.RowInputs.with(width: width) { row in
                            for y in rows {
                                let first = y * width
                                for x in 0..<width {
                                    let radius = 0.5 * focus.blurDiameter(depth: Double(depth[first + x]), fx: fx)
                                    // A disc of radius under one pixel holds only the pixel's own centre: a frame in
                                    // focus everywhere is the pinhole frame, byte for byte.
                                    let (f, a) =
                                        radius < 1
                                        ? (Self.lanes(sharpFlash, first + x), Self.lanes(sharpAmbient, first + x))
                                        : discs.means(x: x, y: y, radius: radius)
                                    ShadingPass.store(pixel: first + x, ambient: a, flash: f, banded)
                                    row.means[x] = a + f + shading.dark
                                    row.pattern[x] = shading.pattern(pixel: first + x, normals)
                                }
                                shading.exposeRow(first, width, row.means, row.pattern, normals, poisson, banded)
                            }
                        }
                    }
                }
            }
        }
        return frame(exposure, planes, sums.means(pixels: pixels))
    }

    /// Pixel `p` of an interleaved RGB plane, in lanes 0–2.
    private static func lanes(_ plane: [Float], _ p: Int) -> SIMD4<Float> {
        SIMD4(plane[3 * p], plane[3 * p + 1], plane[3 * p + 2], 0)
    }
}

/// The means of two interleaved RGB planes (a frame's flash and ambient components) over discs of pixel
/// centres, read from per-row running sums so that each row of a disc costs one difference, whatever its width.
struct DiscMeans: Sendable {
    /// Per row, width + 1 entries of six running sums (the first plane's channels, then the second's): entry x
    /// holds the sums of the row's first x pixels.
    private let sums: [Double]
    private let width: Int
    private let height: Int

    init(_ first: [Float], _ second: [Float], width: Int, height: Int) {
        self.width = width
        self.height = height
        let stride = (width + 1) * 6
        var sums = [Double](repeating: 0, count: stride * height)
        for y in 0..<height {
            var a = SIMD3<Double>.zero, b = SIMD3<Double>.zero
            for x in 0..<width {
                let p = (y * width + x) * 3
                a += SIMD3(Double(first[p]), Double(first[p + 1]), Double(first[p + 2]))
                b += SIMD3(Double(second[p]), Double(second[p + 1]), Double(second[p + 2]))
                let s = y * stride + (x + 1) * 6
                sums[s] = a.x
                sums[s + 1] = a.y
                sums[s + 2] = a.z
                sums[s + 3] = b.x
                sums[s + 4] = b.y
                sums[s + 5] = b.z
            }
        }
        self.sums = sums
    }

    /// Both planes' means over the pixel centres within `radius` of pixel (x, y)'s centre, inside the picture,
    /// in lanes 0–2.
    func means(x: Int, y: Int, radius: Double) -> (first: SIMD4<Float>, second: SIMD4<Float>) {
        let stride = (width + 1) * 6
        let reach = Int(radius.rounded(.down))
        var a = SIMD3<Double>.zero, b = SIMD3<Double>.zero
        var count = 0
        for row in max(0, y - reach)...min(height - 1, y + reach) {
            let dy = Double(row - y)
            let half = Int((radius * radius - dy * dy).squareRoot().rounded(.down))
            let left = max(0, x - half), right = min(width - 1, x + half)
            let hi = row * stride + (right + 1) * 6, lo = row * stride + left * 6
            a += SIMD3(sums[hi] - sums[lo], sums[hi + 1] - sums[lo + 1], sums[hi + 2] - sums[lo + 2])
            b += SIMD3(sums[hi + 3] - sums[lo + 3], sums[hi + 4] - sums[lo + 4], sums[hi + 5] - sums[lo + 5])
            count += right - left + 1
        }
        a /= Double(count)
        b /= Double(count)
        return (SIMD4(Float(a.x), Float(a.y), Float(a.z), 0), SIMD4(Float(b.x), Float(b.y), Float(b.z), 0))
    }
}
