import Sensor
import Spectra

/// Root-polynomial colour correction of degree 2 (Finlayson, Mackiewicz & Hurlbert 2015, IEEE TIP
/// 24(5):1460): XYZ = M·φ(c) with φ(r, g, b) = (r, g, b, √(rg), √(gb), √(rb)) and M a 3×6 matrix.
///
/// Every term has degree 1 in the exposure (φ(k·c) = k·φ(c)), so unlike an ordinary polynomial the
/// mapping does not change with the flash-to-subject distance; the three cross terms let it follow
/// the part of the camera-to-observer mismatch a 3×3 matrix cannot (saturated reds and purples).
///
/// The fit is the white-constrained least squares of `ColorCorrectionMatrix`, in six dimensions:
/// each output row m minimises Σᵢ (m·φᵢ − tᵢ)² subject to m·φ(1, 1, 1) = w, where φ(1, 1, 1) is
/// all ones, so the perfect white diffuser (and every grey, by exposure invariance) maps exactly to
/// the target white: m = m_LS + A⁻¹1 · (w − 1·m_LS) / (1·A⁻¹1), A = Σ φᵢφᵢᵀ.
public struct RootPolynomialCorrection: Sendable, Hashable {
    /// Number of terms of φ.
    public static let termCount = 6
    /// Rows of M (X, Y, Z), each with `termCount` coefficients.
    public let rows: [[Double]]

    /// The terms φ(c) for a camera RGB (negative inputs, from noise, are clamped to 0 under the roots).
    @inline(__always)
    public static func terms(_ c: SIMD3<Double>) -> [Double] {
        let r = max(c.x, 0), g = max(c.y, 0), b = max(c.z, 0)
        return [c.x, c.y, c.z, (r * g).squareRoot(), (g * b).squareRoot(), (r * b).squareRoot()]
    }

    /// M·φ(c).
    public func apply(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let t = RootPolynomialCorrection.terms(c)
        var out = SIMD3<Double>(0, 0, 0)
        for row in 0..<3 {
            var s = 0.0
            for k in 0..<RootPolynomialCorrection.termCount { s += rows[row][k] * t[k] }
            out[row] = s
        }
        return out
    }

    /// A correction from explicit coefficients (3 rows of `termCount`).
    public init(rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == RootPolynomialCorrection.termCount })
        self.rows = rows
    }

    /// Fits the mapping from camera RGB recorded under `illuminant` (divided by that illuminant's
    /// camera neutral, so white is (1, 1, 1)) to CIE XYZ of the same surfaces rendered under `target`
    /// (CIE 15:2018 §7.1, Y_white = 1), over `training` reflectances.
    public init(camera: CameraModel, illuminant: Spectrum, renderedUnder target: Spectrum, training: [Spectrum]) {
        let neutral = CameraResponse.neutral(illuminant: illuminant, camera: camera)
        let pairs = training.map { reflectance in
            (
                CameraResponse.rgb(reflectance: reflectance, illuminant: illuminant, camera: camera) / neutral,
                Colorimetry.xyz(reflectance: reflectance, illuminant: target).vector / 100
            )
        }
        self.init(fitting: pairs, white: Colorimetry.whitePoint(of: target).vector / 100)
    }

    /// The white-constrained fit of the type's documentation over (camera RGB, XYZ) pairs.
    public init(fitting pairs: [(input: SIMD3<Double>, target: SIMD3<Double>)], white w: SIMD3<Double>) {
        let n = RootPolynomialCorrection.termCount
        var a = [Double](repeating: 0, count: n * n)
        var b = [[Double]](repeating: [Double](repeating: 0, count: n), count: 3)
        for (c, t) in pairs {
            let phi = RootPolynomialCorrection.terms(c)
            for i in 0..<n {
                for j in 0..<n { a[i * n + j] += phi[i] * phi[j] }
                for row in 0..<3 { b[row][i] += t[row] * phi[i] }
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
