import Foundation
import Imaging

/// Poisson deviates of mean below `limit` (25 e⁻) from tabulated CDFs, without a logarithm or an
/// exponential per draw.
///
/// A mean μ splits as μ = m + δ with m = ⌊8μ⌋/8 on a grid of 1/8 and 0 ≤ δ < 1/8. Because the sum
/// of independent Poisson variables is Poisson with the summed mean, Poisson(μ) = Poisson(m) +
/// Poisson(δ) exactly, for any μ (no rounding of the mean).
/// - Poisson(m) is drawn by inversion of the tabulated CDF of m with a guide table (Chen & Asau
///   1974, "On generating random variates from an empirical distribution", AIIE Trans. 6): the
///   top 5 bits of a 32-bit uniform pick where the search starts, so it takes 1–2 comparisons.
///   CDF thresholds are the double-precision CDF rounded to 2⁻³², so each probability is exact to
///   2⁻³² and the tail is kept until 1 − CDF < 2⁻³³.
/// - Poisson(δ) is drawn by plain inversion: P(0) = e^−δ ≥ 0.88, its Taylor polynomial of degree 4
///   (error below δ⁵/120 ≤ 2.6·10⁻⁷), and further terms by the recurrence pₖ = pₖ₋₁ δ/k, on a 24-bit
///   uniform.
///
/// Built once per process; immutable, so threads share it.
final class PoissonTable: @unchecked Sendable {
    /// Means handled: 0 ≤ μ < limit.
    static let limit: Float = 25
    static let gridSteps = 8
    static let guideBits = 5

    /// For each grid mean, the CDF thresholds t₀, t₁, …: k is accepted when the 32-bit uniform u ≤ tₖ.
    /// The last entry of each mean is 2³² − 1.
    private let thresholds: UnsafeMutablePointer<UInt32>
    /// Index into `thresholds` of k = 0 for each grid mean.
    private let offsets: UnsafeMutablePointer<Int32>
    /// Per grid mean and top-bits bucket b, the index into `thresholds` of the smallest k with tₖ ≥ b·2²⁷.
    private let guide: UnsafeMutablePointer<Int32>

    static let shared = PoissonTable()

    private init() {
        let means = Int(PoissonTable.limit) * PoissonTable.gridSteps
        let buckets = 1 << PoissonTable.guideBits
        var flat: [UInt32] = []
        var starts: [Int32] = []
        var guides: [Int32] = []
        for j in 0..<means {
            let m = Double(j) / Double(PoissonTable.gridSteps)
            let start = flat.count
            starts.append(Int32(start))
            var p = exp(-m)
            var cdf = p
            var k = 0
            while true {
                let scaled = (cdf * 0x1p32).rounded()
                if scaled >= 0x1p32 || k >= 200 {
                    flat.append(.max)
                    break
                }
                flat.append(UInt32(max(scaled - 1, 0)))
                k += 1
                p *= m / Double(k)
                cdf += p
            }
            var i = start
            for b in 0..<buckets {
                let floor = UInt32(b) << UInt32(32 - PoissonTable.guideBits)
                while flat[i] < floor { i += 1 }
                guides.append(Int32(i))
            }
        }
        thresholds = .allocate(capacity: flat.count)
        thresholds.initialize(from: flat, count: flat.count)
        offsets = .allocate(capacity: starts.count)
        offsets.initialize(from: starts, count: starts.count)
        guide = .allocate(capacity: guides.count)
        guide.initialize(from: guides, count: guides.count)
    }

    /// x (0 ≤ x < 2³¹) truncated toward zero, without the range and NaN checks of `Int(_:)`, which the caller's
    /// bounds make unreachable.
    @inline(__always) static func truncated(_ x: Float) -> Int {
        Lanes.truncated(x)
    }

    /// A Poisson deviate of mean `mu` (0 ≤ μ < `limit`) from the 64 random bits `bits`: the high
    /// 32 for the grid part, the low 32 for the remainder.
    @inline(__always) func sample(mean mu: Float, bits: UInt64) -> Float {
        let j = PoissonTable.truncated(mu * Float(PoissonTable.gridSteps))
        let delta = mu - Float(j) * (1 / Float(PoissonTable.gridSteps))
        let u = UInt32(truncatingIfNeeded: bits >> 32)
        var i = Int(guide[j &<< PoissonTable.guideBits | Int(u >> UInt32(32 - PoissonTable.guideBits))])
        while u > thresholds[i] { i &+= 1 }
        var k = Float(i &- Int(offsets[j]))
        // Poisson(δ) by inversion.
        let v = (Float(UInt32(truncatingIfNeeded: bits) >> 8) + 0.5) * 0x1p-24
        var p = 1 - delta * (1 - delta * (0.5 - delta * (1.0 / 6 - delta * (1.0 / 24))))
        var cdf = p
        if v > cdf {
            var n: Float = 0
            // Float sums can stall just below 1; 12 terms hold all mass above 10⁻¹⁵ for δ < 1/8.
            while v > cdf && n < 12 {
                n += 1
                p *= delta / n
                cdf += p
            }
            k += n
        }
        return k
    }
}
