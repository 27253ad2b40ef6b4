import Foundation

/// Off-locus (green or magenta) illuminants that hit a target CCT and Duv.
///
/// A base spectrum B(λ; T′) (Planckian or CIE daylight) is multiplied by a broad green band:
/// S(λ) = B(λ; T′)·(1 + k·g(λ)), g = exp(−½((λ − 545)/45)²). k > 0 adds green (Duv up), −1 < k < 0
/// removes it (Duv down). Two unknowns (T′, k) against two targets (u, v): Newton's method with a
/// finite-difference Jacobian, in ln T′ so the steps stay well scaled across 1000…25000 K.
enum TintedIlluminant {
    enum Base {
        case planckian, daylight

        func spectrum(_ t: Double) throws -> Spectrum {
            switch self {
            case .planckian: return Illuminants.planckian(cct: t)
            case .daylight: return try Illuminants.daylight(cct: t)
            }
        }
    }

    /// The largest |Duv| accepted; beyond about 0.05 CCT stops being meaningful (Ohno 2014).
    static let maximumDuv = 0.05

    static let band = Spectrum { lambda in
        let d = (lambda - 545) / 45
        return exp(-0.5 * d * d)
    }

    static func solve(cct: Double, duv: Double, base: Base) throws -> Spectrum {
        guard abs(duv) <= maximumDuv else {
            throw SpectraError("|Duv| must be at most \(maximumDuv) for a tinted illuminant, got \(duv)")
        }
        guard CCT.searchRange.contains(cct) else {
            throw SpectraError("a tinted illuminant needs a CCT in 1000…100000 K, got \(cct) K")
        }
        let goal = CCT.chromaticity(cct: cct, duv: duv).uv1960

        func make(_ logT: Double, _ k: Double) throws -> Spectrum {
            try base.spectrum(exp(logT)) * (Spectrum.constant(1) + band * k)
        }
        func residual(_ logT: Double, _ k: Double) throws -> SIMD2<Double> {
            let uv = CIE1931.tristimulus(try make(logT, k)).chromaticity.uv1960
            return SIMD2(uv.u - goal.u, uv.v - goal.v)
        }

        var logT = log(cct)
        var k = 0.0
        let range = base == .daylight
            ? log(Illuminants.daylightRange.lowerBound)...log(Illuminants.daylightRange.upperBound)
            : log(500.0)...log(100_000.0)
        for _ in 0..<50 {
            let r = try residual(logT, k)
            if max(abs(r.x), abs(r.y)) < 1e-12 { return try make(logT, k) }
            let h = 1e-6
            let rt = (try residual(logT + h, k) - r) / h
            let rk = (try residual(logT, k + h) - r) / h
            let det = rt.x * rk.y - rk.x * rt.y
            guard abs(det) > 0 else { break }
            var dLogT = -(rk.y * r.x - rk.x * r.y) / det
            var dk = -(-rt.y * r.x + rt.x * r.y) / det
            // Damp large steps so the iteration cannot leave the model's domain or make S negative.
            let scale = min(1, 0.5 / max(abs(dLogT), 1e-300), 0.5 / max(abs(dk), 1e-300))
            dLogT *= scale
            dk *= scale
            logT = min(max(logT + dLogT, range.lowerBound), range.upperBound)
            // 1 + k·g must stay positive: a step past k = −1 goes halfway to it instead.
            k = k + dk > -1 ? k + dk : (k - 1) / 2
        }
        let r = try residual(logT, k)
        guard max(abs(r.x), abs(r.y)) < 1e-9 else {
            throw SpectraError(
                "could not tint a \(base) spectrum to \(cct) K, Duv \(duv): the green-band recipe cannot reach it")
        }
        return try make(logT, k)
    }
}
