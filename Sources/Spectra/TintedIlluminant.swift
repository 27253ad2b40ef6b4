import Foundation

/// Off-locus (green or magenta) illuminants that hit a target CCT and Duv.
///
/// Recipe (our extension of the project colour spec §1.5, which multiplies a base by a 545 nm band):
/// S(λ) = B(λ; T′)·(1 + k·g(λ)), B a Planckian or CIE daylight base, k = e^s − 1 > −1, so S > 0 for
/// every iterate because 0 ≤ g ≤ 1. The band g depends on the sign of Duv:
/// - Duv ≥ 0 (green): one Gaussian, σ = 30 nm, centred at λc.
/// - Duv < 0 (magenta): red and blue wings, (1 − t)·G(440 nm, 20 nm) + t·G(640 nm, 20 nm).
/// λc (or t) is chosen by bisection so that the chromaticity of B(λ; T)·g lies on the normal to
/// the Planckian locus through the target (Ohno 2014, LEUKOS 10:47, eq. 11). Adding g then moves
/// the light straight along the isotemperature line, so T′ stays within about 0.3 % of T and one
/// fixed 545 nm band's failures disappear: it cannot make a warm light green enough, nor move a
/// 25000 K light perpendicular to the locus, nor make a 1000 K light magenta (that needs blue).
///
/// Solver: damped Newton on the CIE 1960 uv error in (ln T′, s) with a finite-difference Jacobian,
/// steps capped at 1 and an Armijo backtracking line search on |uv error|.
///
/// Limits: a target outside the gamut of real lights (`SpectrumLocus`) is refused. Warm lights
/// cannot be very green: above the locus below about 3000 K the target leaves the gamut quickly
/// (3000 K, Duv +0.05 has x + y > 1, i.e. Z < 0; 1000 K allows only Duv ≲ +0.0005).
enum TintedIlluminant {
    enum Base {
        case planckian, daylight

        /// ln T′ bounds for the solver. The daylight polynomials of CIE 15:2018 eq. 4.7–4.9 are
        /// smooth a little past 4000…25000 K; T′ only needs that margin because the aligned band
        /// keeps T′ within a fraction of a percent of the target.
        var logRange: ClosedRange<Double> {
            switch self {
            case .planckian: return log(400.0)...log(1_000_000.0)
            case .daylight: return log(3500.0)...log(30_000.0)
            }
        }

        func spectrum(_ t: Double) -> Spectrum {
            switch self {
            case .planckian: return Illuminants.planckian(cct: t)
            case .daylight:
                // Unrounded M1, M2: the rounded model is a staircase in T, with no usable derivative.
                return Illuminants.daylight(chromaticity: Illuminants.daylightLocus(cct: t), rounded: false)
            }
        }
    }

    /// The largest |Duv| accepted; beyond about 0.05 CCT stops being meaningful (Ohno 2014).
    static let maximumDuv = 0.05

    static func gaussian(centre: Double, width: Double) -> Spectrum {
        Spectrum { lambda in
            let d = (lambda - centre) / width
            return exp(-0.5 * d * d)
        }
    }

    static func uv(_ s: Spectrum) -> SIMD2<Double> {
        let c = CIE1931.tristimulus(s).chromaticity.uv1960
        return SIMD2(c.u, c.v)
    }

    static func solve(cct: Double, duv: Double, base: Base) throws -> Spectrum {
        guard abs(duv) <= maximumDuv else {
            throw SpectraError("|Duv| must be at most \(maximumDuv) for a tinted illuminant, got \(duv)")
        }
        guard CCT.searchRange.contains(cct) else {
            throw SpectraError("a tinted illuminant needs a CCT in 1000…100000 K, got \(cct) K")
        }
        let g = CCT.chromaticity(cct: cct, duv: duv).uv1960
        let goal = SIMD2(g.u, g.v)
        guard SpectrumLocus.contains(u: goal.x, v: goal.y) else {
            throw SpectraError(
                "no light has CCT \(cct) K with Duv \(duv): that chromaticity lies outside the spectrum locus "
                    + "(warm lights cannot be that green)")
        }
        let p = CCT.chromaticity(cct: cct).uv1960
        let onLocus = SIMD2(p.u, p.v)
        let n1 = CCT.chromaticity(cct: cct, duv: 1e-3).uv1960
        let normal = SIMD2(n1.u, n1.v) - onLocus
        let start = base.spectrum(cct)
        let band = duv >= 0
            ? try aligned(start, onLocus, normal, 420...680) { gaussian(centre: $0, width: 30) }
            : try aligned(start, onLocus, -normal, 0...1) {
                gaussian(centre: 440, width: 20) * (1 - $0) + gaussian(centre: 640, width: 20) * $0
            }
        guard let s = newton(goal: goal, base: base, band: band, logT: log(cct)) else {
            throw SpectraError(
                "could not tint a \(base) spectrum to \(cct) K, Duv \(duv): the target is too close to the "
                    + "spectrum locus for a smooth spectrum")
        }
        return s
    }

    /// The member of a one-parameter band family whose effect on `base` points along `direction`:
    /// bisection on the side of the ray from `origin` on which uv(base·band) falls.
    static func aligned(
        _ base: Spectrum, _ origin: SIMD2<Double>, _ direction: SIMD2<Double>, _ range: ClosedRange<Double>,
        family: (Double) -> Spectrum
    ) throws -> Spectrum {
        func side(_ a: Double) -> Double {
            let d = uv(base * family(a)) - origin
            return direction.x * d.y - direction.y * d.x
        }
        var low = range.lowerBound, high = range.upperBound
        let lowSide = side(low)
        guard lowSide * side(high) < 0 else {
            throw SpectraError("no band of the tint family points along the isotemperature line")
        }
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if (side(mid) > 0) == (lowSide > 0) { low = mid } else { high = mid }
        }
        let chosen = family((low + high) / 2)
        // The crossing must be on the requested side of the locus, not behind the origin.
        let d = uv(base * chosen) - origin
        guard d.x * direction.x + d.y * direction.y > 0 else {
            throw SpectraError("the tint band points away from the requested side of the locus")
        }
        return chosen
    }

    /// Damped Newton with backtracking on (ln T′, s), k = e^s − 1; nil when it stalls.
    static func newton(goal: SIMD2<Double>, base: Base, band: Spectrum, logT start: Double) -> Spectrum? {
        func make(_ x: SIMD2<Double>) -> Spectrum {
            base.spectrum(exp(x.x)) * (Spectrum.constant(1) + band * expm1(x.y))
        }
        func residual(_ x: SIMD2<Double>) -> SIMD2<Double> { uv(make(x)) - goal }
        func norm(_ r: SIMD2<Double>) -> Double { (r.x * r.x + r.y * r.y).squareRoot() }
        let range = base.logRange
        var x = SIMD2(start, 0.0)
        var r = residual(x)
        for _ in 0..<100 {
            if norm(r) < 1e-13 { break }
            let h = 1e-7
            let jT = (residual(x + SIMD2(h, 0)) - r) / h
            let jS = (residual(x + SIMD2(0, h)) - r) / h
            let det = jT.x * jS.y - jS.x * jT.y
            guard abs(det) > 0, det.isFinite else { return nil }
            var step = SIMD2(-(jS.y * r.x - jS.x * r.y) / det, -(-jT.y * r.x + jT.x * r.y) / det)
            let size = max(abs(step.x), abs(step.y))
            if size > 1 { step /= size }
            var alpha = 1.0
            var accepted = false
            for _ in 0..<40 {
                var trial = x + alpha * step
                trial.x = min(max(trial.x, range.lowerBound), range.upperBound)
                let rt = residual(trial)
                if norm(rt) < (1 - 1e-4 * alpha) * norm(r) {
                    x = trial
                    r = rt
                    accepted = true
                    break
                }
                alpha /= 2
            }
            if !accepted { break }
        }
        return norm(r) < 1e-11 ? make(x) : nil
    }
}
