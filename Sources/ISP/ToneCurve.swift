/// A global tone curve applied to linear output values (the same curve at every pixel).
public enum ToneCurve: Sendable, Hashable {
    /// No change: output = input, clipped to 0…1 (colorimetric rendering).
    case linear
    /// Identity up to `knee`, then a cubic shoulder that reaches 1 with zero slope at
    /// `whiteInput` (the input of a clipped sensor pixel), so highlights roll off instead of
    /// clipping while mid-tones keep their colorimetry.
    case shoulder(knee: Double, whiteInput: Double)

    /// Applies the curve to one linear value.
    public func apply(_ x: Double) -> Double {
        switch self {
        case .linear:
            return min(max(x, 0), 1)
        case let .shoulder(knee, white):
            guard x > knee else { return max(x, 0) }
            guard white > knee, x < white else { return 1 }
            // Cubic Hermite on u = (x − knee)/(white − knee): f(0) = 0, f′(0) = a (slope 1 in x),
            // f(1) = 1, f′(1) = 0. It stays monotonic while a ≤ 3; a larger a is capped there, which
            // only steepens the join slightly.
            let a = min((white - knee) / (1 - knee), 3)
            let u = (x - knee) / (white - knee)
            let f = a * u * (1 - u) * (1 - u) + u * u * (3 - 2 * u)
            return knee + (1 - knee) * f
        }
    }
}
