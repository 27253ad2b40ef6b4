import Devices
import Foundation
import Imaging
import Sensor

/// Turns sparse depth samples (LiDAR dots) into a dense map, guided by the image.
///
/// Every pixel fits a plane to the samples around it by weighted least squares, in disparity
/// 1/Z: a flat surface is affine in 1/Z over the image (a plane n·X = c projects to
/// 1/Z = (n_x·u + n_y·v + n_z) / c in normalised coordinates u, v), so a plane comes back exact
/// whatever its tilt. Weights fall off with distance (σ = one dot spacing) and with the guide
/// difference between pixel and sample (σ_r), so surfaces on either side of an image edge do
/// not mix. A pixel with no sample within `reach` dot spacings stays a hole.
public struct DepthDensifier: Sendable, Hashable {
    /// How far to look for samples, in dot spacings.
    public var reach: Double
    /// Standard deviation of guide differences (guide values are typically 0…1).
    public var rangeSigma: Double

    /// A densifier from its values.
    public init(reach: Double = 2.5, rangeSigma: Double = 0.1) {
        self.reach = reach
        self.rangeSigma = rangeSigma
    }

    /// A dense map at the samples' image size (lens distortion included, as the dots fall on
    /// the distorted image), in `format`, with absolute accuracy.
    public func densify(
        _ samples: DepthSamples, guide: PixelPlane<Float>? = nil, format: DepthPixelFormat = .depthFloat32,
        calibration: CameraCalibration? = nil
    ) -> DepthMap {
        let (w, h) = (samples.width, samples.height)
        if let guide { precondition(guide.width == w && guide.height == h, "the guide must have the map's size") }
        let spacing = (Double(w * h) / Double(max(samples.projectedCount, 1))).squareRoot()
        // Bucket the samples by cells one spacing wide, so each pixel visits only nearby ones.
        let cols = Int((Double(w) / spacing).rounded(.up)) + 1
        let rows = Int((Double(h) / spacing).rounded(.up)) + 1
        var buckets = [[Int]](repeating: [], count: cols * rows)
        for (k, s) in samples.samples.enumerated() {
            let cx = min(max(Int(s.x / spacing), 0), cols - 1)
            let cy = min(max(Int(s.y / spacing), 0), rows - 1)
            buckets[cy * cols + cx].append(k)
        }
        let guideAtSample = samples.samples.map { s in
            guide.map { Double($0[min(Int(s.x), w - 1), min(Int(s.y), h - 1)]) } ?? 0
        }
        let cells = Int(reach.rounded(.up))
        let s2 = 2 * spacing * spacing
        let r2 = 2 * rangeSigma * rangeSigma
        let limit2 = reach * spacing * reach * spacing
        var values = [Float](repeating: .nan, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let px = Double(x) + 0.5
                let py = Double(y) + 0.5
                let g = guide.map { Double($0[x, y]) } ?? 0
                let cx = Int(px / spacing)
                let cy = Int(py / spacing)
                // Normal equations of the weighted fit 1/Z ≈ a + b·dx + c·dy (dx, dy in spacings).
                var m = [Double](repeating: 0, count: 6)  // Σw, Σw dx, Σw dy, Σw dx², Σw dx dy, Σw dy²
                var r = SIMD3<Double>.zero
                for by in max(0, cy - cells)...min(rows - 1, cy + cells) {
                    for bx in max(0, cx - cells)...min(cols - 1, cx + cells) {
                        for k in buckets[by * cols + bx] {
                            let s = samples.samples[k]
                            let dx = s.x - px
                            let dy = s.y - py
                            let d2 = dx * dx + dy * dy
                            guard d2 <= limit2, s.depth > 0 else { continue }
                            let dg = guideAtSample[k] - g
                            let wt = exp(-d2 / s2) * (guide == nil ? 1 : exp(-dg * dg / r2))
                            let u = dx / spacing
                            let v = dy / spacing
                            let t = 1 / s.depth
                            m[0] += wt
                            m[1] += wt * u
                            m[2] += wt * v
                            m[3] += wt * u * u
                            m[4] += wt * u * v
                            m[5] += wt * v * v
                            r += wt * SIMD3(t, t * u, t * v)
                        }
                    }
                }
                guard m[0] > 1e-12 else { continue }
                values[y * w + x] = Float(1 / DepthDensifier.solve(m, r))
            }
        }
        let holes = values.reduce(0) { $0 + ($1.isNaN ? 1 : 0) }
        let map = DepthMap(
            width: w, height: h, format: .depthFloat32, values: values, accuracy: .absolute,
            quality: DepthQuality(holeFraction: Double(holes) / Double(w * h)), calibration: calibration)
        return map.converting(to: format)
    }

    /// The intercept a of the 3×3 symmetric system by Cramer's rule; the weighted mean when the
    /// samples are too few or too collinear to fix a plane.
    private static func solve(_ m: [Double], _ r: SIMD3<Double>) -> Double {
        let (a, b, c, d, e, f) = (m[0], m[1], m[2], m[3], m[4], m[5])
        let det = a * (d * f - e * e) - b * (b * f - e * c) + c * (b * e - d * c)
        guard abs(det) > 1e-6 * a * a * a else { return r.x / a }
        let detA = r.x * (d * f - e * e) - b * (r.y * f - e * r.z) + c * (r.y * e - d * r.z)
        return detA / det
    }
}
