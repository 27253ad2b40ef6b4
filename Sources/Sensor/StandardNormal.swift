import Foundation

/// The standard normal quantile Φ⁻¹(p), by P. J. Acklam's rational approximations (2003;
/// relative error below 1.2·10⁻⁹ over (0, 1)).
///
/// One uniform makes one normal deviate, with no trigonometry and a logarithm only in the 4.85 %
/// of draws that fall in the tails, which is why it replaces Box–Muller in the per-pixel noise.
enum StandardNormal {
    private static let lowTail = 0.02425

    @inline(__always) static func quantile(_ p: Double) -> Double {
        if p < lowTail {
            return tail((-2 * log(p)).squareRoot())
        }
        if p > 1 - lowTail {
            return -tail((-2 * log(1 - p)).squareRoot())
        }
        let q = p - 0.5
        let r = q * q
        let num = (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
            + 1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q
        let den = ((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
            + 6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1
        return num / den
    }

    @inline(__always) private static func tail(_ q: Double) -> Double {
        let num = ((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
            - 2.549732539343734e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00
        let den = (((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
            + 3.754408661907416e+00) * q + 1
        return num / den
    }
}
