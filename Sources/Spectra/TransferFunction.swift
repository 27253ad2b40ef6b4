import Foundation

/// An opto-electronic transfer function: linear light ↔ encoded signal.
///
/// All curves are extended: negative values are mirrored (sign preserved) and values above 1
/// continue the curve, so wide-gamut and HDR intermediates survive a round trip.
public enum TransferFunction: Sendable, Hashable {
    /// No encoding.
    case linear
    /// The IEC 61966-2-1 piecewise curve (also used by Display P3, SMPTE EG 432-1).
    case sRGB
    /// A pure power law: encoded = linear^(1/γ).
    case gamma(Double)

    /// Linear light → encoded value.
    public func encode(_ linear: Double) -> Double {
        let m = abs(linear)
        let e: Double
        switch self {
        case .linear: return linear
        // IEC 61966-2-1 §5.2: 12.92·L below 0.0031308, else 1.055·L^(1/2.4) − 0.055.
        case .sRGB: e = m <= 0.0031308 ? 12.92 * m : 1.055 * pow(m, 1 / 2.4) - 0.055
        case .gamma(let g): e = pow(m, 1 / g)
        }
        return linear < 0 ? -e : e
    }

    /// Encoded value → linear light.
    public func decode(_ encoded: Double) -> Double {
        let m = abs(encoded)
        let l: Double
        switch self {
        case .linear: return encoded
        case .sRGB: l = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
        case .gamma(let g): l = pow(m, g)
        }
        return encoded < 0 ? -l : l
    }
}
