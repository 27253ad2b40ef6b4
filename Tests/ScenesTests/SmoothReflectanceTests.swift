import Foundation
import Scenes
import Spectra
import Testing

/// The sRGB → reflectance fit, checked against the colour computed from IEC 61966-2-1's own
/// published numbers (the 4-decimal RGB → XYZ matrix and the piecewise transfer curve), not from
/// Spectra's derived matrix.
@Suite struct SmoothReflectanceTests {
    /// IEC 61966-2-1:1999 §5.2, the published linear sRGB → XYZ matrix (D65, Y(white) = 1).
    static let published: [[Double]] = [
        [0.4124, 0.3576, 0.1805],
        [0.2126, 0.7152, 0.0722],
        [0.0193, 0.1192, 0.9505],
    ]

    /// IEC 61966-2-1 §5.2 decoding curve.
    static func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }

    /// CIE 15:2018 eq. 8.1–8.3, white = the published matrix's white (row sums).
    static func lab(rgb: [Double]) -> Lab {
        let l = rgb.map(linear)
        let xyz = published.map { row in 100 * zip(row, l).map(*).reduce(0, +) }
        let white = published.map { 100 * $0.reduce(0, +) }
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(xyz[0] / white[0])
        let fy = f(xyz[1] / white[1])
        let fz = f(xyz[2] / white[2])
        return Lab(L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    static let colours: [[Double]] = [
        [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 1],
        [0.5, 0.5, 0.5], [0.9, 0.9, 0.9], [0.05, 0.05, 0.05],
        [0.71, 0.40, 0.11], [0.45, 0.20, 0.65], [0.20, 0.55, 0.25], [0.85, 0.65, 0.55], [0.10, 0.30, 0.80],
    ]

    @Test(arguments: colours)
    func fitReproducesTheSRGBColourUnderD65(_ rgb: [Double]) {
        let fit = SmoothReflectance.fit(rgb: SIMD3(rgb[0], rgb[1], rgb[2]), in: .sRGB)
        let got = Colorimetry.lab(reflectance: fit.reflectance, illuminant: Illuminants.d65)
        let expected = Self.lab(rgb: rgb)
        let dE = DeltaE.ciede2000(got, expected)
        #expect(dE < 0.5, "ΔE00 \(dE) for \(rgb): got \(got), expected \(expected)")
        #expect(fit.reflectance.values.allSatisfy { $0 > 0 && $0 < 1 })
    }

    @Test func fitIsSmooth() {
        // Neighbouring 5 nm samples of a sigmoid of a quadratic differ by little; a fit that
        // oscillated or stepped would break this.
        let fit = SmoothReflectance.fit(rgb: SIMD3(0.2, 0.6, 0.3), in: .sRGB)
        let v = fit.reflectance.values
        let maxJump = zip(v, v.dropFirst()).map { abs($1 - $0) }.max() ?? 0
        #expect(maxJump < 0.08)
    }
}
