import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The noise chain against the photon-transfer relation σ² = μ + σ_read² (EMVA 1288; color-science
/// spec §3.1), full-well clipping and determinism.
struct NoiseTests {
    func renderer(noise: NoiseParameters, threads: Int? = nil, width: Int = 64) -> Renderer {
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        return Renderer(
            scene: scene, camera: TestScenes.camera(noise: noise).scaled(toWidth: width, height: width * 3 / 4),
            flash: nil, options: RenderOptions(threadCount: threads))
    }

    /// Pixels per channel of the variance tests' 256×192 frames.
    static let samples = 256.0 * 192

    static let readOnly = NoiseParameters(
        fullWellElectrons: 1e6, readNoiseElectrons: 3, prnu: 0, dsnuElectrons: 0, adcBits: 16, blackLevel: 0,
        whiteLevel: 65535, baseISO: 100)

    /// The sample variance s² of n independent values with variance σ² and excess kurtosis γ has
    /// Var(s²) = σ⁴ (2/(n − 1) + γ/n). Shot noise (Poisson, every cumulant μ) plus Gaussian read noise
    /// has γ = μ/σ⁴ ≤ 1/σ², under 0.03 here against the 2, so the relative standard error is
    /// √(2/(n − 1)) = 0.64 % for n = 49,152 pixels per channel; the tolerance, 2.6 %, is 4σ. (The
    /// 64×48 frame used before gave 2.6 % per σ and needed an 11 % band.) The mean's bound is 4σ of
    /// √(σ²/n).
    @Test(arguments: [0.25, 0.002]) func photonTransfer(time: Double) {
        let frame = renderer(noise: Self.readOnly, width: 256).render(Exposure(time: time, iso: 100, seed: 11))
        for ch in 0..<3 {
            let mu = TestScenes.mean(frame.ambientElectrons ?? [], channel: ch)
            let measuredMean = TestScenes.mean(frame.electrons, channel: ch)
            let v = TestScenes.variance(frame.electrons, channel: ch)
            let expected = mu + 9
            #expect(abs(measuredMean - mu) < 4 * (expected / Self.samples).squareRoot(), "mean ch \(ch)")
            let sigma = (2 / (Self.samples - 1)).squareRoot()
            #expect(abs(v / expected - 1) < 4 * sigma, "ch \(ch) μ = \(mu): variance \(v), expected \(expected)")
        }
    }

    /// Gain g = 1 + 0.02 z fixed per pixel times shot noise S: Var(gS) = μ + 0.02²μ² (+ 0.02²μ, 0.01 %
    /// of it, left out) plus the read noise. A product of two near-normal factors with coefficients of
    /// variation a = 0.02 and b = 1/√μ ≈ 0.015 has excess kurtosis ≈ 6a²b²/(a² + b²)² ≈ 1.4, so
    /// Var(s²)/σ⁴ ≈ (2 + 1.4)/n and the relative standard error is 0.83 % at n = 49,152; the tolerance
    /// 3.5 % is just over 4σ.
    @Test func prnuAddsGainVarianceProportionalToSignalSquared() {
        var noise = Self.readOnly
        noise.prnu = 0.02
        let frame = renderer(noise: noise, width: 256).render(Exposure(time: 1, iso: 100, seed: 3))
        let mu = TestScenes.mean(frame.ambientElectrons ?? [], channel: 1)
        let v = TestScenes.variance(frame.electrons, channel: 1)
        let expected = mu + 9 + 0.02 * 0.02 * mu * mu
        #expect(abs(v / expected - 1) < 0.035, "variance \(v), expected \(expected)")
    }

    @Test func clipsAtFullWellAndWhiteLevel() {
        let noise = NoiseParameters(
            fullWellElectrons: 6000, readNoiseElectrons: 5, prnu: 0.007, adcBits: 10, blackLevel: 64,
            whiteLevel: 1023, baseISO: 55)
        // 4,620 e⁻/s in green for 10 s is 46,000 e⁻, far over the well.
        let frame = renderer(noise: noise).render(Exposure(time: 10, iso: 55, seed: 1))
        #expect(frame.electrons.allSatisfy { $0 <= 6000 })
        #expect(frame.electrons.enumerated().filter { $0.offset % 3 == 1 }.allSatisfy { $0.element == 6000 })
        #expect(frame.dn.allSatisfy { $0 == 1023 })
    }

    @Test func sameSeedGivesIdenticalBytesForAnyThreadCount() {
        let noise = NoiseParameters(dsnuElectrons: 1, darkCurrentElectronsPerSecond: 20)
        let exposure = Exposure(time: 0.01, iso: 200, seed: 42, frameIndex: 3)
        let one = renderer(noise: noise, threads: 1).render(exposure)
        let two = renderer(noise: noise, threads: 2).render(exposure)
        let many = renderer(noise: noise, threads: 7).render(exposure)
        #expect(one.electrons == two.electrons && one.electrons == many.electrons)
        #expect(one.dn == two.dn && one.dn == many.dn)
        var other = exposure
        other.seed = 43
        #expect(renderer(noise: noise).render(other).electrons != one.electrons)
    }
}
