import Foundation

/// Correlated colour temperature and Duv by Ohno's method (Ohno 2014, LEUKOS 10:47,
/// "Practical use and calculation of CCT and Duv"; also ANSI C78.377).
///
/// Both directions use the Planckian locus computed from Planck's law and the CIE 1931 2°
/// colour-matching functions at 1 nm over 360–830 nm, as Ohno specifies; the 5 nm working grid
/// would move the locus by up to 2e-5 in uv at 7500 K. Duv is the signed distance from the locus
/// in CIE 1960 uv, positive above it (greenish), negative below (magenta).
public enum CCT {
    /// The range of the Planckian table searched by the inverse, in kelvin.
    public static let searchRange: ClosedRange<Double> = 1000...100_000

    /// The chromaticity at a CCT and Duv: the locus point moved by Duv along the normal.
    public static func chromaticity(cct: Double, duv: Double = 0) -> Chromaticity {
        let p0 = planckianUV(cct)
        let p1 = planckianUV(cct + 0.01)
        // Normal direction from the tangent, as in Ohno 2014 eq. 11: (−dv, du) / |(du, dv)|.
        let du = p0.u - p1.u, dv = p0.v - p1.v
        let norm = (du * du + dv * dv).squareRoot()
        return Chromaticity(u1960: p0.u - duv * dv / norm, v1960: p0.v + duv * du / norm)
    }

    /// CCT and Duv of a chromaticity.
    ///
    /// Ohno's cascade search over a geometric Planckian table, repeated until the bracket is below
    /// 1e-10 of the temperature; at that point the parabolic and triangular refinements of the paper
    /// change nothing, so Duv is the distance to the locus at the final temperature. Results are
    /// clamped to `searchRange`.
    public static func cctAndDuv(of xy: Chromaticity) -> (cct: Double, duv: Double) {
        let target = xy.uv1960
        func distance(_ t: Double) -> Double {
            let p = planckianUV(t)
            return ((p.u - target.u) * (p.u - target.u) + (p.v - target.v) * (p.v - target.v)).squareRoot()
        }
        var low = searchRange.lowerBound, high = searchRange.upperBound
        let samples = 15
        var best = low
        for _ in 0..<60 {
            let ratio = pow(high / low, 1 / Double(samples - 1))
            let temperatures = (0..<samples).map { low * pow(ratio, Double($0)) }
            let distances = temperatures.map(distance)
            var i = 0
            for j in 1..<samples where distances[j] < distances[i] { i = j }
            best = temperatures[i]
            low = temperatures[max(i - 1, 0)]
            high = temperatures[min(i + 1, samples - 1)]
            if high / low - 1 < 1e-10 { break }
        }
        let p = planckianUV(best)
        let d = distance(best)
        return (best, target.v >= p.v ? d : -d)
    }

    /// CIE 1960 uv of a Planckian radiator (1 nm, 360–830 nm sums).
    static func planckianUV(_ t: Double) -> (u: Double, v: Double) {
        var x = 0.0, y = 0.0, z = 0.0
        for i in CIE1931Data.xBarFine.indices {
            let m = Planck.exitance(wavelength: CIE1931Data.fineStart + Double(i) * CIE1931Data.fineStep, temperature: t)
            x += m * CIE1931Data.xBarFine[i]
            y += m * CIE1931Data.yBarFine[i]
            z += m * CIE1931Data.zBarFine[i]
        }
        let d = x + 15 * y + 3 * z
        return (4 * x / d, 6 * y / d)
    }
}
