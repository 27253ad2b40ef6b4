import Foundation
import Imaging
import Spectra

/// Smooth reflectances that reproduce a requested colour under D65.
///
/// The spectrum is a sigmoid of a quadratic in wavelength (Jakob & Hanika 2019, "A Low-Dimensional
/// Function Space for Efficient Spectral Upsampling"):
/// R(λ) = S(c₀t² + c₁t + c₂) with S(x) = ½ + x / (2√(1 + x²)) and t = (λ − 580 nm) / 200 nm.
/// S maps every real number into the open interval (0, 1), so any coefficients give a physically
/// valid, smooth reflectance; three coefficients are enough to reach the whole sRGB gamut and most
/// of Display P3. The coefficients are fitted by damped Gauss–Newton (Levenberg–Marquardt) on
/// CIELAB under D65 with the CIE 1931 observer, so the residual is a perceptual colour difference.
public enum SmoothReflectance {
    /// The outcome of a fit.
    public struct Fit: Sendable, Hashable {
        /// (c₀, c₁, c₂) of the sigmoid polynomial.
        public var coefficients: SIMD3<Double>
        /// The reflectance, strictly inside (0, 1).
        public var reflectance: Spectrum
        /// CIEDE2000 between the reflectance under D65 and the requested colour.
        public var deltaE00: Double
    }

    /// The reflectance of given sigmoid-polynomial coefficients.
    public static func reflectance(coefficients c: SIMD3<Double>) -> Spectrum {
        Spectrum { lambda in
            let t = (lambda - 580) / 200
            let x = (c.x * t + c.y) * t + c.z
            return sigmoid(x)
        }
    }

    /// Fits a colour given as encoded RGB values (0…1) in `space`, whose white must be D65.
    public static func fit(rgb: SIMD3<Double>, in space: RGBColorSpace) -> Fit {
        let linear = SIMD3(space.transfer.decode(rgb.x), space.transfer.decode(rgb.y), space.transfer.decode(rgb.z))
        return fit(xyz: XYZ((space.toXYZ * linear) * 100))
    }

    /// Fits a colour given as XYZ relative to D65 with Y(white) = 100.
    public static func fit(xyz target: XYZ) -> Fit {
        let labTarget = Lab(target, white: white)
        // Start from the flat grey of the right luminance; a second start from mid grey rescues the
        // rare case where the first one stalls in a poor local minimum.
        let s = min(max(target.Y / 100, 1e-4), 1 - 1e-4)
        let starts = [SIMD3(0, 0, inverseSigmoid(s)), SIMD3<Double>(0, 0, 0)]
        var best: Fit?
        for start in starts {
            let candidate = solve(from: start, target: labTarget)
            if best.map({ candidate.deltaE00 < $0.deltaE00 }) ?? true { best = candidate }
            if candidate.deltaE00 < 0.01 { break }
        }
        guard let best else { preconditionFailure("at least one start is tried") }
        return best
    }

    // MARK: Internals

    private static let white = Colorimetry.whitePoint(of: Illuminants.d65)

    private static func sigmoid(_ x: Double) -> Double { 0.5 + x / (2 * (1 + x * x).squareRoot()) }

    private static func inverseSigmoid(_ s: Double) -> Double {
        let y = 2 * s - 1
        return y / (1 - y * y).squareRoot()
    }

    private static func lab(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let l = Colorimetry.lab(reflectance: reflectance(coefficients: c), illuminant: Illuminants.d65)
        return SIMD3(l.L, l.a, l.b)
    }

    /// Levenberg–Marquardt on the 3 Lab residuals (Madsen, Nielsen & Tingleff 2004, §3.2).
    private static func solve(from start: SIMD3<Double>, target: Lab) -> Fit {
        let goal = SIMD3(target.L, target.a, target.b)
        var c = start
        var r = lab(c) - goal
        var cost = (r * r).sum()
        var mu = 1e-3
        for _ in 0..<400 {
            if cost < 1e-10 { break }
            // Central differences: the map is smooth and cheap, and analytic derivatives would
            // have to go through the observer integrals and the Lab cube root anyway.
            var columns: [SIMD3<Double>] = []
            for k in 0..<3 {
                var dc = SIMD3<Double>(0, 0, 0)
                dc[k] = 1e-5 * max(1, abs(c[k]))
                columns.append((lab(c + dc) - lab(c - dc)) / (2 * dc[k]))
            }
            // Normal equations (JᵀJ + μ·diag(JᵀJ)) δ = −Jᵀr.
            var a = [[Double]](repeating: [0, 0, 0], count: 3)
            var g = SIMD3<Double>(0, 0, 0)
            for i in 0..<3 {
                for j in 0..<3 { a[i][j] = (columns[i] * columns[j]).sum() }
                g[i] = (columns[i] * r).sum()
            }
            var improved = false
            for _ in 0..<12 {
                var damped = a
                for i in 0..<3 { damped[i][i] += mu * max(a[i][i], 1e-12) }
                guard let inverse = Matrix3(rows: damped).inverse else { mu *= 10; continue }
                var step = inverse * (-g)
                // Large steps push the sigmoid into saturation where nothing moves; cap them.
                let length = (step * step).sum().squareRoot()
                if length > 20 { step *= 20 / length }
                let trial = c + step
                let rTrial = lab(trial) - goal
                let costTrial = (rTrial * rTrial).sum()
                if costTrial < cost {
                    c = trial
                    r = rTrial
                    cost = costTrial
                    mu = max(mu / 3, 1e-12)
                    improved = true
                    break
                }
                mu *= 4
            }
            if !improved { break }
        }
        let spectrum = reflectance(coefficients: c)
        let fitted = Colorimetry.lab(reflectance: spectrum, illuminant: Illuminants.d65)
        return Fit(coefficients: c, reflectance: spectrum, deltaE00: DeltaE.ciede2000(fitted, target))
    }
}
