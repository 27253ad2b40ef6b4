import Foundation
import Spectra

/// The per-pixel colour mapping of the Constant Color pipeline in single precision: raw camera
/// rates (flash-equivalent electrons per second) → linear output (XYZ or Display P3), with the
/// camera neutral, the degree-3 root-polynomial correction, the output primaries and the exposure
/// folded into one 3×13 matrix.
///
/// Folding is exact because every root-polynomial term is a monomial rᵃgᵇbᶜ with a + b + c = 1:
/// φ(c ⊘ n) = D·φ(c) with D = diag(φ(1/n_r, 1/n_g, 1/n_b)), so out = k·P·M·D·φ(c) for output
/// primaries P and exposure k. A degree-2 correction is padded with zero coefficients.
struct CorrectionKernel: Sendable {
    /// Terms per row.
    static let width = 13
    /// The 3 × 13 matrix by columns, one term's three output coefficients per `SIMD4` (the fourth
    /// lane 0), so a pixel's three outputs are summed lane by lane.
    let m: [SIMD4<Float>]

    init(correction: RootPolynomialCorrection, neutral n: SIMD3<Double>, output: Matrix3, scale: Double) {
        let d = RootPolynomialCorrection.terms(SIMD3(1 / n.x, 1 / n.y, 1 / n.z), degree: correction.degree)
        var m = [SIMD4<Float>](repeating: .zero, count: CorrectionKernel.width)
        for row in 0..<3 {
            for k in 0..<correction.termCount {
                var s = 0.0
                for j in 0..<3 { s += output[row, j] * correction.rows[j][k] }
                m[k][row] = Float(s * d[k] * scale)
            }
        }
        self.m = m
    }

    /// The mapped value of one camera RGB (negative inputs, from noise, count as 0 under the roots).
    /// The three outputs are computed side by side in SIMD lanes, each with the same operations in
    /// the same order as a scalar evaluation would use.
    @inline(__always)
    static func apply(_ m: UnsafePointer<SIMD4<Float>>, _ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> {
        let c = SIMD4<Float>(max(r, 0), max(g, 0), max(b, 0), 0)
        // √(rg), √(gb), √(rb) in lanes 0–2.
        let roots = (c * SIMD4(c.y, c.z, c.x, 0)).squareRoot()
        let cube = cubeRoot(c)
        let cr = cube.x, cg = cube.y, cb = cube.z
        let t6 = cr * cg * cg, t7 = cg * cb * cb, t8 = cr * cb * cb, t9 = cg * cr * cr, t10 = cb * cg * cg
        let t11 = cb * cr * cr, t12 = cr * cg * cb
        var s = m[0] * r + m[1] * g + m[2] * b + m[3] * roots.x + m[4] * roots.y + m[5] * roots.z
        s += m[6] * t6 + m[7] * t7 + m[8] * t8 + m[9] * t9 + m[10] * t10
        let out = s + m[11] * t11 + m[12] * t12
        return SIMD3(out.x, out.y, out.z)
    }

    /// `cubeRoot` of each lane.
    @inline(__always)
    static func cubeRoot(_ x: SIMD4<Float>) -> SIMD4<Float> {
        let bits = unsafeBitCast(x, to: SIMD4<UInt32>.self) / 3 &+ SIMD4(repeating: 709_921_077)
        var y = unsafeBitCast(bits, to: SIMD4<Float>.self)
        let third = SIMD4<Float>(repeating: 1 / 3)
        for _ in 0..<2 {
            let twice: SIMD4<Float> = y + y
            let quotient: SIMD4<Float> = x / (y * y)
            y = (twice + quotient) * third
        }
        let finite = (x .< .infinity) .& (x .> -.infinity)
        y.replace(with: 0, where: .!(x .> 0))
        y.replace(with: x, where: .!finite)
        return y
    }

    /// ∛x for x ≥ 0 in single precision: a bit-level first guess (the exponent divided by three,
    /// relative error below 3.5 %) and two Newton steps y ← (2y + x/y²)/3, each roughly squaring the
    /// error: below 2·10⁻⁶ over 10⁻⁸…10⁸, far below the 8-bit output's 2·10⁻³, at a fraction of
    /// `cbrtf`'s cost.
    @inline(__always)
    static func cubeRoot(_ x: Float) -> Float {
        guard x > 0, x.isFinite else { return x.isFinite ? 0 : x }
        var y = Float(bitPattern: x.bitPattern / 3 &+ 709_921_077)
        for _ in 0..<2 { y = (2 * y + x / (y * y)) * (1 / 3) }
        return y
    }
}
