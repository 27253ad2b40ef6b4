import Foundation
import Imaging

/// A depth-dependent blur (`CIDepthBlurEffect`): each pixel is blurred with a Gaussian whose width
/// grows with its distance in disparity from the plane in focus.
///
/// The blur follows a thin lens: a point at disparity `d` (1/m) seen by a lens of focal length `f`
/// at f-number `N` focused at disparity `d₀` spreads into a circle of diameter `f²/N · |d − d₀|` on the
/// sensor. Obscura takes a 26 mm-equivalent lens (a phone's wide camera, full-frame sensor 36 mm wide),
/// so on an image `W` pixels wide the circle is `W · f²/(N · 36 mm) · |d − d₀|` pixels, and the
/// Gaussian's standard deviation is half of that, times `scaleFactor`, capped at 2.5 % of the width.
/// `d₀` is the median disparity inside the focus rectangle (the central tenth of the image by default).
/// An aperture of 0 leaves the image sharp. Apple's effect also renders bokeh shapes, uses face
/// landmarks and the hair and glasses mattes, and reads the lens from the calibration data; none of
/// that is modelled here, so only the amount of blur against depth is comparable.
final class DepthBlurRecipe: Recipe, @unchecked Sendable {
    let image: Recipe
    let disparity: Recipe
    let aperture: Float
    let focusRect: CGRect?
    let scaleFactor: Float

    static let focalLength: Float = 0.026
    static let sensorWidth: Float = 0.036

    init(image: Recipe, disparity: Recipe, aperture: Float, focusRect: CGRect?, scaleFactor: Float) {
        self.image = image
        self.aperture = aperture
        self.focusRect = focusRect
        self.scaleFactor = scaleFactor
        // The disparity map is usually smaller than the image: it is stretched over the image's extent.
        let d = disparity.extent, e = image.extent
        if !d.isInfinite, !e.isInfinite, d.width > 0, d.height > 0, d != e {
            let t = CGAffineTransform(translationX: -d.minX, y: -d.minY)
                .concatenating(CGAffineTransform(scaleX: e.width / d.width, y: e.height / d.height))
                .concatenating(CGAffineTransform(translationX: e.minX, y: e.minY))
            self.disparity = WarpRecipe(input: ClampRecipe(input: disparity) ?? disparity, transform: t)
        } else {
            self.disparity = disparity
        }
        super.init(extent: image.extent)
    }

    /// The Gaussian's standard deviation, in pixels, for a disparity difference.
    func sigma(_ difference: Float, width: Float) -> Float {
        guard aperture > 0 else { return 0 }
        let circle = width * Self.focalLength * Self.focalLength / (aperture * Self.sensorWidth) * abs(difference)
        return min(0.025 * width, 0.5 * circle * scaleFactor)
    }

    override func prepare(_ region: Region, _ state: RenderState) {
        let out = region.clipped(to: extent)
        guard !out.isEmpty, state.pixels(self, out) == nil, let bounds = Region(covering: extent) else { return }
        let width = Float(bounds.width)
        let focusArea = focusRect.map {
            CGRect(x: extent.minX + $0.minX * extent.width, y: extent.minY + $0.minY * extent.height,
                   width: $0.width * extent.width, height: $0.height * extent.height)
        } ?? extent.insetBy(dx: extent.width * 0.45, dy: extent.height * 0.45)
        var focus: Float = 0
        if let f = Region(covering: focusArea), !f.isEmpty {
            let values = materialise(disparity, f, state)
            var samples = (0..<(f.width * f.height)).map { values.base[$0].x }.filter { $0.isFinite }
            samples.sort()
            if !samples.isEmpty { focus = samples[samples.count / 2] }
        }
        let d = materialise(disparity, out, state)
        let maxSigma = min(0.025 * width, sigma(1e6, width: width))
        // Blur levels a factor of √2 apart; each pixel takes the two levels around its own width.
        var levels: [Float] = [0]
        var s: Float = 0.5
        while s < maxSigma * 1.42 && maxSigma > 0 {
            levels.append(s)
            s *= Float(2).squareRoot()
        }
        let reach = Int((3 * (levels.last ?? 0)).rounded(.up))
        let source = materialise(image, Region(x: out.x - reach, y: out.y - reach, width: out.width + 2 * reach,
                                               height: out.height + 2 * reach), state)
        let blurred: [Pixels] = levels.map { level in
            let kernel = ConvolutionRecipe.gaussian(sigma: level)
            let k = kernel.count / 2
            let inner = Pixels(width: out.width + 2 * k, height: out.height + 2 * k)
            for j in 0..<inner.height {
                inner.row(j).update(from: source.row(j + reach - k) + (reach - k), count: inner.width)
            }
            return ConvolutionRecipe.convolve(inner, kernel, width: out.width, height: out.height)
        }
        let result = Pixels(width: out.width, height: out.height)
        for j in 0..<out.height {
            for i in 0..<out.width {
                let sg = sigma(d.row(j)[i].x - focus, width: width)
                var hi = 1
                while hi < levels.count - 1 && levels[hi] < sg { hi += 1 }
                if levels.count == 1 || sg <= 0 {
                    result.row(j)[i] = blurred[0].row(j)[i]
                    continue
                }
                let lo = hi - 1
                let t = min(1, max(0, (sg - levels[lo]) / (levels[hi] - levels[lo])))
                result.row(j)[i] = blurred[lo].row(j)[i] * (1 - t) + blurred[hi].row(j)[i] * t
            }
        }
        state.store(result, self, out)
    }

    override func fill(_ region: Region, rows: Range<Int>, into out: UnsafeMutablePointer<SIMD4<Float>>, _ state: RenderState) {
        let o = region.clipped(to: extent)
        copyPrepared(self, o.isEmpty ? nil : o, region, rows, out, state)
    }
}
