import Foundation
import Imaging
import Sensor
import Spectra

/// Root-polynomial colour correction (Finlayson, Mackiewicz & Hurlbert 2015, IEEE TIP 24(5):1460):
/// XYZ = M·φ(c), M a 3×n matrix. Degree 2 has n = 6 terms, φ(r, g, b) = (r, g, b, √(rg), √(gb),
/// √(rb)); degree 3 adds the seven cube roots ∛(rg²), ∛(gb²), ∛(rb²), ∛(gr²), ∛(bg²), ∛(br²) and
/// ∛(rgb), n = 13 (the paper's Table I).
///
/// Every term has degree 1 in the exposure (φ(k·c) = k·φ(c)), so unlike an ordinary polynomial the
/// mapping does not change with the flash-to-subject distance; the cross terms let it follow the
/// part of the camera-to-observer mismatch a 3×3 matrix cannot (saturated reds and purples, and the
/// haemoglobin bands of skin, which degree 2 alone renders about 10° too red in hue).
///
/// The fit is the white-constrained least squares of `ColorCorrectionMatrix`, in n dimensions:
/// each output row m minimises Σᵢ wᵢ(m·φᵢ − tᵢ)² subject to m·φ(1, 1, 1) = w, where φ(1, 1, 1) is
/// all ones, so the perfect white diffuser (and every grey, by exposure invariance) maps exactly to
/// the target white: m = m_LS + A⁻¹1 · (w − 1·m_LS) / (1·A⁻¹1), A = Σ wᵢφᵢφᵢᵀ.
public struct RootPolynomialCorrection: Sendable, Hashable {
    /// 2 or 3.
    public let degree: Int
    /// Rows of M (X, Y, Z), each with `termCount` coefficients.
    public let rows: [[Double]]

    /// Number of terms of φ: 6 for degree 2, 13 for degree 3.
    public var termCount: Int { RootPolynomialCorrection.termCount(degree: degree) }

    /// Number of terms of φ for a degree.
    public static func termCount(degree: Int) -> Int { degree >= 3 ? 13 : 6 }

    /// The terms φ(c) for a camera RGB (negative inputs, from noise, are clamped to 0 under the roots).
    public static func terms(_ c: SIMD3<Double>, degree: Int = 2) -> [Double] {
        let r = max(c.x, 0), g = max(c.y, 0), b = max(c.z, 0)
        var t = [c.x, c.y, c.z, (r * g).squareRoot(), (g * b).squareRoot(), (r * b).squareRoot()]
        if degree >= 3 {
            let cr = Foundation.cbrt(r), cg = Foundation.cbrt(g), cb = Foundation.cbrt(b)
            t += [cr * cg * cg, cg * cb * cb, cr * cb * cb, cg * cr * cr, cb * cg * cg, cb * cr * cr, cr * cg * cb]
        }
        return t
    }

    /// M·φ(c).
    public func apply(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let t = RootPolynomialCorrection.terms(c, degree: degree)
        var out = SIMD3<Double>(0, 0, 0)
        for row in 0..<3 {
            var s = 0.0
            for k in 0..<termCount { s += rows[row][k] * t[k] }
            out[row] = s
        }
        return out
    }

    /// A correction from explicit coefficients (3 rows of 6 terms for degree 2, 13 for degree 3).
    public init(rows: [[Double]]) {
        precondition(rows.count == 3 && (rows[0].count == 6 || rows[0].count == 13))
        precondition(rows.allSatisfy { $0.count == rows[0].count })
        self.rows = rows
        degree = rows[0].count == 13 ? 3 : 2
    }

    /// Fits the mapping from camera RGB recorded under `illuminant` (divided by that illuminant's
    /// camera neutral, so white is (1, 1, 1)) to CIE XYZ of the same surfaces rendered under `target`
    /// (CIE 15:2018 §7.1, Y_white = 1), over `training` reflectances, each with its weight.
    public init(
        camera: CameraModel, illuminant: Spectrum, renderedUnder target: Spectrum,
        training: [(reflectance: Spectrum, weight: Double)], degree: Int = 2
    ) {
        let neutral = CameraResponse.neutral(illuminant: illuminant, camera: camera)
        let pairs = training.map { sample in
            (
                input: CameraResponse.rgb(reflectance: sample.reflectance, illuminant: illuminant, camera: camera)
                    / neutral,
                target: Colorimetry.xyz(reflectance: sample.reflectance, illuminant: target).vector / 100,
                weight: sample.weight
            )
        }
        self.init(fitting: pairs, white: Colorimetry.whitePoint(of: target).vector / 100, degree: degree)
    }

    /// The fit over `training` reflectances of weight 1.
    public init(
        camera: CameraModel, illuminant: Spectrum, renderedUnder target: Spectrum, training: [Spectrum], degree: Int = 2
    ) {
        self.init(
            camera: camera, illuminant: illuminant, renderedUnder: target, training: training.map { ($0, 1.0) },
            degree: degree)
    }

    /// The white-constrained fit of the type's documentation over (camera RGB, XYZ) pairs of weight 1.
    public init(
        fitting pairs: [(input: SIMD3<Double>, target: SIMD3<Double>)], white w: SIMD3<Double>, degree: Int = 2
    ) {
        self.init(fitting: pairs.map { ($0.input, $0.target, 1.0) }, white: w, degree: degree)
    }

    /// The weighted white-constrained fit of the type's documentation over (camera RGB, XYZ, weight).
    public init(
        fitting pairs: [(input: SIMD3<Double>, target: SIMD3<Double>, weight: Double)], white w: SIMD3<Double>,
        degree: Int
    ) {
        let n = RootPolynomialCorrection.termCount(degree: degree)
        var a = [Double](repeating: 0, count: n * n)
        var b = [[Double]](repeating: [Double](repeating: 0, count: n), count: 3)
        for (c, t, weight) in pairs {
            let phi = RootPolynomialCorrection.terms(c, degree: degree)
            for i in 0..<n {
                for j in 0..<n { a[i * n + j] += weight * phi[i] * phi[j] }
                for row in 0..<3 { b[row][i] += weight * t[row] * phi[i] }
            }
        }
        let ones = [Double](repeating: 1, count: n)
        guard let u = RootPolynomialCorrection.solve(a, ones, n: n) else {
            // Too few or degenerate samples: a diagonal white scaling keeps neutrals neutral.
            self.init(rows: (0..<3).map { row in (0..<n).map { $0 == row ? w[row] : 0 } })
            return
        }
        let uSum = u.reduce(0, +)
        var rows: [[Double]] = []
        for row in 0..<3 {
            let mLS = RootPolynomialCorrection.solve(a, b[row], n: n) ?? [Double](repeating: 0, count: n)
            let lambda = (w[row] - mLS.reduce(0, +)) / uSum
            rows.append((0..<n).map { mLS[$0] + u[$0] * lambda })
        }
        self.init(rows: rows)
    }

    /// Solves the symmetric system A x = b (row-major n × n) by Gaussian elimination with partial
    /// pivoting; nil when A is singular to working precision.
    static func solve(_ a: [Double], _ b: [Double], n: Int) -> [Double]? {
        var m = a
        var x = b
        let scale = (0..<n).map { m[$0 * n + $0] }.max() ?? 0
        guard scale > 0 else { return nil }
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<n where abs(m[r * n + col]) > abs(m[pivot * n + col]) { pivot = r }
            guard abs(m[pivot * n + col]) > 1e-13 * scale else { return nil }
            if pivot != col {
                for k in 0..<n { m.swapAt(col * n + k, pivot * n + k) }
                x.swapAt(col, pivot)
            }
            for r in (col + 1)..<n {
                let f = m[r * n + col] / m[col * n + col]
                guard f != 0 else { continue }
                for k in col..<n { m[r * n + k] -= f * m[col * n + k] }
                x[r] -= f * x[col]
            }
        }
        for col in stride(from: n - 1, through: 0, by: -1) {
            var s = x[col]
            for k in (col + 1)..<n { s -= m[col * n + k] * x[k] }
            x[col] = s / m[col * n + col]
        }
        return x
    }
}
