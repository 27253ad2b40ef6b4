import Spectra

/// The per-pixel colour mapping of the Constant Color pipeline in single precision: raw camera
/// rates (flash-equivalent electrons per second) → linear output (XYZ or Display P3), with the
/// camera neutral, the root-polynomial correction, the output primaries and the exposure folded
/// into one 3×6 matrix.
///
/// Folding is exact because every root-polynomial term is homogeneous of degree 1:
/// φ(c ⊘ n) = D·φ(c) with D = diag(1/n_r, 1/n_g, 1/n_b, 1/√(n_r n_g), 1/√(n_g n_b), 1/√(n_r n_b)),
/// so out = k·P·M·D·φ(c) for output primaries P and exposure k.
struct CorrectionKernel: Sendable {
    /// Row-major 3 × 6.
    let m: [Float]

    init(correction: RootPolynomialCorrection, neutral n: SIMD3<Double>, output: Matrix3, scale: Double) {
        let d = [1 / n.x, 1 / n.y, 1 / n.z, 1 / (n.x * n.y).squareRoot(), 1 / (n.y * n.z).squareRoot(),
            1 / (n.x * n.z).squareRoot()]
        var m = [Float](repeating: 0, count: 18)
        for row in 0..<3 {
            for k in 0..<6 {
                var s = 0.0
                for j in 0..<3 { s += output[row, j] * correction.rows[j][k] }
                m[row * 6 + k] = Float(s * d[k] * scale)
            }
        }
        self.m = m
    }

    /// The mapped value of one camera RGB (negative inputs, from noise, count as 0 under the roots).
    @inline(__always)
    static func apply(_ m: UnsafePointer<Float>, _ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> {
        let rc = max(r, 0), gc = max(g, 0), bc = max(b, 0)
        let rg = (rc * gc).squareRoot(), gb = (gc * bc).squareRoot(), rb = (rc * bc).squareRoot()
        return SIMD3(
            m[0] * r + m[1] * g + m[2] * b + m[3] * rg + m[4] * gb + m[5] * rb,
            m[6] * r + m[7] * g + m[8] * b + m[9] * rg + m[10] * gb + m[11] * rb,
            m[12] * r + m[13] * g + m[14] * b + m[15] * rg + m[16] * gb + m[17] * rb)
    }
}
