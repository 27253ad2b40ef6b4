import Foundation
import Imaging
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
    /// Row-major 3 × 13.
    let m: [Float]

    init(correction: RootPolynomialCorrection, neutral n: SIMD3<Double>, output: Matrix3, scale: Double) {
        let d = RootPolynomialCorrection.terms(SIMD3(1 / n.x, 1 / n.y, 1 / n.z), degree: correction.degree)
        let w = CorrectionKernel.width
        var m = [Float](repeating: 0, count: 3 * w)
        for row in 0..<3 {
            for k in 0..<correction.termCount {
                var s = 0.0
                for j in 0..<3 { s += output[row, j] * correction.rows[j][k] }
                m[row * w + k] = Float(s * d[k] * scale)
            }
        }
        self.m = m
    }

    /// The mapped value of one camera RGB (negative inputs, from noise, count as 0 under the roots).
    @inline(__always)
    static func apply(_ m: UnsafePointer<Float>, _ r: Float, _ g: Float, _ b: Float) -> SIMD3<Float> {
        let rc = max(r, 0), gc = max(g, 0), bc = max(b, 0)
        let rg = (rc * gc).squareRoot(), gb = (gc * bc).squareRoot(), rb = (rc * bc).squareRoot()
        let cr = cubeRoot(rc), cg = cubeRoot(gc), cb = cubeRoot(bc)
        let t6 = cr * cg * cg, t7 = cg * cb * cb, t8 = cr * cb * cb, t9 = cg * cr * cr, t10 = cb * cg * cg
        let t11 = cb * cr * cr, t12 = cr * cg * cb
        @inline(__always) func row(_ o: Int) -> Float {
            var s = m[o] * r + m[o + 1] * g + m[o + 2] * b + m[o + 3] * rg + m[o + 4] * gb + m[o + 5] * rb
            s += m[o + 6] * t6 + m[o + 7] * t7 + m[o + 8] * t8 + m[o + 9] * t9 + m[o + 10] * t10
            return s + m[o + 11] * t11 + m[o + 12] * t12
        }
        return SIMD3(row(0), row(13), row(26))
    }

    /// The coefficients, each repeated in four lanes (row-major 3 × 13), for `apply4`.
    var lanes: [SIMD4<Float>] { m.map { SIMD4(repeating: $0) } }

    /// `apply` on four pixels at once, one per lane (structure of arrays), with the four-lane
    /// coefficients of `lanes`: one vector square root, cube root and division serves four
    /// pixels. The same operations in the same order as `apply`, so the same values bit for bit for
    /// finite inputs (Swift does not contract a·b + c into a fused multiply-add).
    @inline(__always)
    static func apply4(_ m: UnsafePointer<SIMD4<Float>>, _ r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    {
        let rc = r.replacing(with: 0, where: r .< 0), gc = g.replacing(with: 0, where: g .< 0)
        let bc = b.replacing(with: 0, where: b .< 0)
        let rg = Lanes.squareRoot(rc * gc), gb = Lanes.squareRoot(gc * bc), rb = Lanes.squareRoot(rc * bc)
        let cr = cubeRoot4(rc), cg = cubeRoot4(gc), cb = cubeRoot4(bc)
        let t6 = cr * cg * cg, t7 = cg * cb * cb, t8 = cr * cb * cb, t9 = cg * cr * cr, t10 = cb * cg * cg
        let t11 = cb * cr * cr, t12 = cr * cg * cb
        @inline(__always) func row(_ o: Int) -> SIMD4<Float> {
            // Left to right, in pieces the type checker takes quickly: Σ₀⁵, then Σ₆¹⁰ added as one, then 11, 12.
            let first: SIMD4<Float> = m[o] * r + m[o + 1] * g + m[o + 2] * b
            var s: SIMD4<Float> = first + m[o + 3] * rg + m[o + 4] * gb + m[o + 5] * rb
            let cubic: SIMD4<Float> = m[o + 6] * t6 + m[o + 7] * t7 + m[o + 8] * t8
            s += cubic + m[o + 9] * t9 + m[o + 10] * t10
            return s + m[o + 11] * t11 + m[o + 12] * t12
        }
        return (row(0), row(13), row(26))
    }

    /// `cubeRoot` in four lanes, lane for lane the same value for finite x: the bit-level guess is made lane by
    /// lane (a vector integer division does not exist, and the generic float-to-integer vector
    /// conversion is slow), the Newton steps on all four at once.
    @inline(__always)
    static func cubeRoot4(_ x: SIMD4<Float>) -> SIMD4<Float> {
        var y = SIMD4<Float>()
        for lane in 0..<4 { y[lane] = Float(bitPattern: x[lane].bitPattern / 3 &+ 709_921_077) }
        for _ in 0..<2 { y = (2 * y + x / (y * y)) * (1 / 3) }
        return y.replacing(with: 0, where: x .<= 0)
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
