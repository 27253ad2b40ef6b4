import Foundation
import Scenes
import Sensor
import Testing

/// The shot- and read-noise samplers' distributions against closed forms: the Poisson pmf at low
/// counts (where the sensor draws exact Poisson counts) and the moments and tail fractions of the
/// standard normal above 25 e⁻. 256×256 pixels give 65,536 draws per channel.
struct NoiseDistributionTests {
    /// A frontal grey wall under 100 lux of D65, seen by a 256×256 camera.
    func frame(noise: NoiseParameters, time: Double, seed: UInt64) -> RawFrame {
        let base = TestScenes.camera(noise: noise)
        let camera = CameraModel(
            width: 256, height: 256, fx: 160, fy: 160, cx: 128, cy: 128, fNumber: base.fNumber,
            lensTransmittance: base.lensTransmittance, pixelPitchMicrometres: base.pixelPitchMicrometres,
            quantumEfficiency: base.quantumEfficiency, noise: noise)
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        return Renderer(scene: scene, camera: camera, flash: nil).render(Exposure(time: time, iso: 100, seed: seed))
    }

    static func poissonPMF(_ k: Int, _ mu: Double) -> Double {
        exp(Double(k) * log(mu) - mu - lgamma(Double(k) + 1))
    }

    /// Upper 0.1 % point of χ² with `df` degrees of freedom (Wilson–Hilferty, accurate to about 1 %
    /// here, far below the margin between a right and a wrong sampler).
    static func chiSquareCritical(df: Int) -> Double {
        let d = Double(df)
        let a = 2 / (9 * d)
        return d * pow(1 - a + 3.09 * a.squareRoot(), 3)
    }

    /// Green means from 0.4 to 24 e⁻ (red and blue differ): every grid part and remainder of the
    /// Poisson sampler, below and above its old inversion/rejection switch at 10 e⁻.
    @Test(arguments: [0.0001, 0.0006, 0.002, 0.0035, 0.0052])
    func poissonCountsMatchThePMF(time: Double) throws {
        let f = frame(noise: TestScenes.quiet, time: time, seed: 5)
        let means = try #require(f.ambientElectrons)
        for ch in 0..<3 {
            var counts: [Int: Int] = [:]
            var pixelsPerMean: [Float: Int] = [:]
            var meanSum = 0.0
            var sum = 0.0, sumSquares = 0.0
            for p in 0..<(f.width * f.height) {
                let e = Double(f.electrons[p * 3 + ch])
                let mu = Double(means[p * 3 + ch])
                #expect(e == e.rounded() && e >= 0, "not a count: \(e)")
                counts[Int(e), default: 0] += 1
                pixelsPerMean[means[p * 3 + ch], default: 0] += 1
                meanSum += mu
                sum += e
                sumSquares += e * e
            }
            // The expected histogram: each pixel's own Poisson pmf, summed.
            var expected = [Double](repeating: 0, count: 80)
            for (m, count) in pixelsPerMean {
                for k in 0..<80 { expected[k] += Double(count) * Self.poissonPMF(k, Double(m)) }
            }
            let n = Double(f.width * f.height)
            let mu = meanSum / n
            if mu >= 25 || mu < 0.05 { continue }
            let mean = sum / n
            let variance = (sumSquares - sum * sum / n) / (n - 1)
            #expect(abs(mean - mu) < 4 * (mu / n).squareRoot(), "ch \(ch): mean \(mean), expected \(mu)")
            // Var of the sample variance of a Poisson: (μ + 2μ²)/n approximately.
            #expect(
                abs(variance - mu) < 4 * ((mu + 2 * mu * mu) / n).squareRoot(), "ch \(ch) variance \(variance) vs \(mu)")
            // χ² over bins merged until each expects at least 10 pixels.
            var chi2 = 0.0
            var bins = 0
            var observedBin = 0.0, expectedBin = 0.0
            for k in 0..<80 {
                observedBin += Double(counts[k] ?? 0)
                expectedBin += expected[k]
                let rest = expected[(k + 1)...].reduce(0, +)
                if expectedBin >= 10 && rest >= 10 || k == 79 {
                    chi2 += (observedBin - expectedBin) * (observedBin - expectedBin) / expectedBin
                    bins += 1
                    observedBin = 0
                    expectedBin = 0
                }
            }
            #expect((counts.keys.max() ?? 0) < 80)
            #expect(chi2 < Self.chiSquareCritical(df: bins - 1), "ch \(ch) μ = \(mu): χ² = \(chi2) over \(bins) bins")
        }
    }

    /// Above 25 e⁻ shot and read noise are one Gaussian draw: the standardised residuals
    /// (e − μ)/√(μ + σ²) must have the standard normal's variance 1, kurtosis 3, and tail
    /// fractions P(|Z| > 2) = 0.04550 and P(|Z| > 3) = 0.002700.
    @Test func gaussianResidualsMatchTheStandardNormal() throws {
        let noise = NoiseParameters(
            fullWellElectrons: 1e9, readNoiseElectrons: 5, prnu: 0, dsnuElectrons: 0, adcBits: 16, blackLevel: 0,
            whiteLevel: 65535, baseISO: 100)
        let f = frame(noise: noise, time: 0.5, seed: 9)
        let means = try #require(f.ambientElectrons)
        var m1 = 0.0, m2 = 0.0, m4 = 0.0
        var beyond2 = 0.0, beyond3 = 0.0
        let n = Double(f.electrons.count)
        for i in 0..<f.electrons.count {
            let mu = Double(means[i])
            #expect(mu > 25)
            let r = (Double(f.electrons[i]) - mu) / (mu + 25).squareRoot()
            m1 += r
            m2 += r * r
            m4 += r * r * r * r
            if abs(r) > 2 { beyond2 += 1 }
            if abs(r) > 3 { beyond3 += 1 }
        }
        m1 /= n
        m2 /= n
        m4 /= n
        #expect(abs(m1) < 4 / n.squareRoot())
        #expect(abs(m2 - 1) < 4 * (2 / n).squareRoot(), "variance \(m2)")
        #expect(abs(m4 / (m2 * m2) - 3) < 4 * (24 / n).squareRoot(), "kurtosis \(m4 / (m2 * m2))")
        let p2 = 0.045500263896, p3 = 0.002699796063
        #expect(abs(beyond2 / n - p2) < 4 * (p2 * (1 - p2) / n).squareRoot(), "P(|Z| > 2) = \(beyond2 / n)")
        #expect(abs(beyond3 / n - p3) < 4 * (p3 * (1 - p3) / n).squareRoot(), "P(|Z| > 3) = \(beyond3 / n)")
    }
}
