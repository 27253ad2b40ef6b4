import Foundation

/// Poisson deviates of small mean by inversion of the CDF (Knuth, TAOCP vol. 2 §3.4.1), with the
/// recurrence p_k = p_(k−1)·μ/k using tabulated reciprocals 1/k, so the sequential search
/// multiplies instead of dividing. Immutable after `init`, hence safe to share.
final class PoissonInversion: @unchecked Sendable {
    /// Reciprocals 1/k for k = 0…limit (entry 0 unused).
    private let reciprocal: UnsafeMutablePointer<Double>
    static let limit = 200
    /// The table, built once per process.
    static let shared = PoissonInversion()

    private init() {
        reciprocal = .allocate(capacity: PoissonInversion.limit + 1)
        reciprocal[0] = 0
        for k in 1...PoissonInversion.limit { reciprocal[k] = 1 / Double(k) }
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
