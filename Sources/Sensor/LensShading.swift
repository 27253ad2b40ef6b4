import Foundation
import Imaging

/// The relative illumination of a lens: the share of the on-axis irradiance that reaches a pixel
/// away from the axis (natural vignetting and mechanical vignetting together), 1 at the principal
/// point.
///
/// It depends on the pixel's place only, through its field tangent t = |((x − cₓ)/fₓ, (y − c_y)/f_y)|
/// at the pixel centre, so it follows the camera through scaling and cropping. The natural term is
/// cos⁴θ = 1 / (1 + t²)² (the cos⁴ law of an ideal lens: cos θ from the oblique view of the pupil,
/// cos θ from the tilted image plane, cos² θ from the longer path; Slater, *Photographic Systems for
/// Engineers*, 1966; ISETCam's `opticsCos4th`). The table is read at h = t / t_corner, t_corner the
/// tangent of the reference image's farthest corner, linearly between samples and at its last
/// value beyond. Lens distortion moves pixels by under 2 % of their radius here and is left out of t:
/// data sheets give relative illumination against the real image height, which is where the pixel is.
public struct LensShading: Sendable, Hashable {
    /// Whether the cos⁴ law applies.
    public var naturalCosineFourth: Bool
    /// Normalised image heights of the table (0 … ≈1), increasing; empty for none.
    public var imageHeights: [Double]
    /// Relative illumination at each height.
    public var values: [Double]
    /// Field tangent at normalised image height 1 (the reference image's farthest corner).
    public var cornerTangent: Double
    /// The share of the lost light the ISP's correction puts back, in [0, 1]: 1 corrects to flat, less
    /// leaves some fall-off (see `LensShadingCorrection`).
    public var correctedFraction: Double

    /// A shading. `imageHeights` and `values` have equal lengths (none, or at least two).
    public init(
        naturalCosineFourth: Bool, imageHeights: [Double] = [], values: [Double] = [], cornerTangent: Double,
        correctedFraction: Double = 1
    ) {
        precondition(imageHeights.count == values.count && imageHeights.count != 1, "one value per image height")
        precondition(cornerTangent > 0, "the corner lies off the axis")
        precondition((0...1).contains(correctedFraction), "a correction puts back between none and all of the light")
        self.correctedFraction = correctedFraction
        self.naturalCosineFourth = naturalCosineFourth
        self.imageHeights = imageHeights
        self.values = values
        self.cornerTangent = cornerTangent
    }

    /// The relative illumination at field tangent² `t2` (t² avoids a square root for the cos⁴ term).
    @inline(__always)
    public func relativeIllumination(tangentSquared t2: Double) -> Double {
        var out = 1.0
        if naturalCosineFourth {
            let c2 = 1 / (1 + t2)
            out = c2 * c2
        }
        if values.count >= 2 { out *= tableValue(height: t2.squareRoot() / cornerTangent) }
        return out
    }

    /// The table at normalised image height `h`.
    func tableValue(height h: Double) -> Double {
        let n = imageHeights.count
        guard h < imageHeights[n - 1] else { return values[n - 1] }
        var i = 1
        while imageHeights[i] <= h { i += 1 }
        let (h0, h1) = (imageHeights[i - 1], imageHeights[i])
        let f = (h - h0) / (h1 - h0)
        return values[i - 1] + f * (values[i] - values[i - 1])
    }
}

extension CameraModel {
    /// The relative illumination at the centre of pixel (x, y); 1 without shading.
    public func relativeIllumination(x: Int, y: Int) -> Double {
        guard let shading else { return 1 }
        let u = (Double(x) + 0.5 - cx) / fx, v = (Double(y) + 0.5 - cy) / fy
        return shading.relativeIllumination(tangentSquared: u * u + v * v)
    }

    /// The relative illumination of every pixel of row `y`, into `out` (`width` values); 1 without shading.
    public func relativeIllumination(row y: Int, into out: UnsafeMutablePointer<Float>) {
        guard let shading else {
            out.update(repeating: 1, count: width)
            return
        }
        let v = (Double(y) + 0.5 - cy) / fy
        let v2 = v * v
        for x in 0..<width {
            let u = (Double(x) + 0.5 - cx) / fx
            out[x] = Float(shading.relativeIllumination(tangentSquared: u * u + v2))
        }
    }
}

extension LensShading {
    /// Scales every light factor of each hit pixel of `rows` by the pixel's relative illumination: vignetting
    /// dims all light arriving through the lens alike, so one multiplication per factor, once per renderer, puts
    /// it into every exposure's electrons (background factors are never read). `materials` and `factors` start
    /// at the first pixel of `rows`, `slots` factors a pixel.
    package static func apply(
        camera: CameraModel, slots: Int, rows: Range<Int>, materials: UnsafePointer<UInt16>,
        to factors: UnsafeMutablePointer<Float>
    ) {
        let width = camera.width
        let gains = UnsafeMutablePointer<Float>.allocate(capacity: width)
        defer { gains.deallocate() }
        for y in rows {
            camera.relativeIllumination(row: y, into: gains)
            let row = (y - rows.lowerBound) * width
            for x in 0..<width {
                let pixel = row + x
                guard materials[pixel] != RawFrame.none else { continue }
                for j in 0..<slots { factors[pixel * slots + j] *= gains[x] }
            }
        }
    }
}
