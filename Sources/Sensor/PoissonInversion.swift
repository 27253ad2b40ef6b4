import Foundation

/// Poisson deviates of small mean: inversion of the CDF (Knuth, TAOCP vol. 2 §3.4.1) below a
/// mean of 10, with the recurrence p_k = p_(k−1)·μ/k using tabulated reciprocals 1/k so the
/// sequential search multiplies instead of dividing; from 10 on, Hörmann's transformed
/// rejection with squeeze, PTRS (W. Hörmann 1993, "The transformed rejection method for
/// generating Poisson random variables", Insurance: Mathematics and Economics 12), whose cost
/// does not grow with the mean. Both are exact samplers. Immutable after `init`, hence safe to
/// share between threads.
final class PoissonInversion: @unchecked Sendable {
    /// Reciprocals 1/k for k = 0…limit (entry 0 unused).
    private let reciprocal: UnsafeMutablePointer<Double>
    /// ln k! for k = 0…limit.
    private let logFactorial: UnsafeMutablePointer<Double>
    static let limit = 200
    /// The mean from which transformed rejection replaces inversion.
    static let rejectionFrom = 10.0
    /// The table, built once per process.
    static let shared = PoissonInversion()

    private init() {
        reciprocal = .allocate(capacity: PoissonInversion.limit + 1)
        logFactorial = .allocate(capacity: PoissonInversion.limit + 1)
        reciprocal[0] = 0
        logFactorial[0] = 0
        for k in 1...PoissonInversion.limit {
            reciprocal[k] = 1 / Double(k)
            logFactorial[k] = logFactorial[k - 1] + log(Double(k))
        }
    }

    /// PTRS for μ ≥ 10; `bits(i)` gives the i-th fresh 64-bit random word (i = 0, 1, …), each
    /// split into the two uniforms U and V of one trial.
    @inline(__always) func rejection(mean mu: Double, bits: (UInt64) -> UInt64) -> Float {
        let smu = mu.squareRoot()
        let b = 0.931 + 2.53 * smu
        let a = -0.059 + 0.02483 * b
        let vr = 0.9277 - 3.6224 / (b - 2)
        var trial: UInt64 = 0
        while true {
            let h = bits(trial)
            trial &+= 1
            let u = (Double(h >> 32) + 0.5) * 0x1p-32 - 0.5
            let v = (Double(h & 0xFFFF_FFFF) + 0.5) * 0x1p-32
            let us = 0.5 - abs(u)
            let k = ((2 * a / us + b) * u + mu + 0.43).rounded(.down)
            if us >= 0.07 && v <= vr { return Float(k) }
            if k < 0 || k > Double(PoissonInversion.limit) || (us < 0.013 && v > us) { continue }
            let invAlpha = 1.1239 + 1.1328 / (b - 3.4)
            let lhs = log(v * invAlpha / (a / (us * us) + b))
            if lhs <= -mu + k * log(mu) - logFactorial[Int(k)] { return Float(k) }
        }
    }

    /// The smallest k whose CDF reaches `u` (0 < u < 1), for a mean well below `limit`.
    @inline(__always) func sample(mean: Double, uniform u: Double) -> Float {
        var k = 0
        // e^−μ in single precision scales every term by the same factor within 6·10⁻⁸; the sums
        // stay in double so the CDF reaches u for every u < 1 − 2⁻⁵³ (the limit is a backstop).
        var p = Double(expf(-Float(mean)))
        var cdf = p
        while u > cdf && k < PoissonInversion.limit {
            k &+= 1
            p *= mean * reciprocal[k]
            cdf += p
        }
        return Float(k)
    }
}
