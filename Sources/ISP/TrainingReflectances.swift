import Foundation
import Spectra

/// Reflectances for fitting colour corrections that are *not* the validation patches.
///
/// Natural and man-made surface reflectances are smooth: six to eight cosine-like basis functions
/// describe almost all of them (Maloney 1986, JOSA A 3:1673; Parkkinen, Hallikainen & Jaaskelainen
/// 1989, JOSA A 6:318). The set here draws such spectra at random, deterministically: on
/// x = (λ − 380 nm)/400 nm, z(x) = c₀ + Σₖ₌₁⁶ aₖ cos(kπx) with aₖ ~ N(0, (1.6/k)²) and the level
/// c₀ ~ U(−3, 2.5), and the reflectance 0.01 + 0.94 / (1 + e^−z), which keeps it in (0.01, 0.95)
/// and makes saturated colours (a steep step between near-0 and near-1 plateaus) as likely as
/// pale ones. The draws come from SplitMix64 (Steele, Lea & Flood 2014) seeded by `seed`, so the
/// set, and every fit over it, is the same on every machine.
public enum TrainingReflectances {
    /// `count` smooth random reflectances.
    public static func smooth(count: Int, seed: UInt64 = 0x0B5C_C01A) -> [Spectrum] {
        var state = seed
        func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return (Double(z >> 11) + 0.5) / Double(1 << 53)
        }
        func normal() -> Double {
            (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
        }
        // The basis cos(kπx) at the grid's wavelengths is the same for every draw: computed once (the same
        // expressions, so the same values) instead of once per draw.
        let basis = Spectrum.wavelengths.map { lambda in
            let x = (lambda - 380) / 400
            return (1...6).map { k in cos(Double(k) * Double.pi * x) }
        }
        return (0..<max(0, count)).map { _ in
            let level = -3 + 5.5 * uniform()
            let amplitudes = (1...6).map { 1.6 / Double($0) * normal() }
            return Spectrum(values: basis.map { cosines in
                var z = level
                for (k, a) in amplitudes.enumerated() { z += a * cosines[k] }
                return 0.01 + 0.94 / (1 + exp(-z))
            })
        }
    }

    /// The training set of the Constant Color mapping, with weights: 2,000 smooth random
    /// reflectances (weight 1) plus the even-numbered half of the skin set (weight 40; a phone's
    /// colour tuning weighs skin). The smooth draws alone leave skin, whose haemoglobin bands at 540
    /// and 575 nm they do not resemble, too red in hue.
    ///
    /// The weight was chosen by cross-validation on training data only: the even skin half split in
    /// two folds (offset ≡ 0 and ≡ 2 mod 4), each fitted with the smooth set and tested on the other,
    /// and 500 fresh smooth draws (seed 77) as a stand-in for everything that is not skin. With the
    /// degree-3 mapping the mean of the two fold ΔE00 plus the fresh-draw ΔE00 is 3.68, 3.64, 3.62,
    /// 3.62, 3.64 for weights 20, 30, 40, 50, 70 (10: 3.87, 100: 3.66): the minimum is at 40 and 50,
    /// and the smaller, the lesser departure from a general-purpose fit, is taken.
    ///
    /// The ColorChecker is left out entirely and the odd-numbered skin patches are held out, so the
    /// validation, which measures all of them, never tests the fit only on its own training data.
    public static let constantColor: [(reflectance: Spectrum, weight: Double)] = {
        let skin = SkinTones.patches.enumerated().filter { $0.offset % 2 == 0 }.map(\.element.reflectance)
        return smooth(count: 2000).map { ($0, 1.0) } + skin.map { ($0, 40.0) }
    }()
}
