import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The noise chain against the photon-transfer relation σ² = μ + σ_read² (EMVA 1288; color-science
/// spec §3.1), full-well clipping and determinism.
struct NoiseTests {
    func renderer(noise: NoiseParameters, threads: Int? = nil) -> Renderer {
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        return Renderer(
            scene: scene, camera: TestScenes.camera(noise: noise), flash: nil,
            options: RenderOptions(threadCount: threads))
    }

    static let readOnly = NoiseParameters(
        fullWellElectrons: 1e6, readNoiseElectrons: 3, prnu: 0, dsnuElectrons: 0, adcBits: 16, blackLevel: 0,
        whiteLevel: 65535, baseISO: 100)

    /// 3,072 pixels per channel give the variance to about ±2.6 % (1σ); the tolerance is 4σ.
    @Test(arguments: [0.25, 0.002]) func photonTransfer(time: Double) {
        let frame = renderer(noise: Self.readOnly).render(Exposure(time: time, iso: 100, seed: 11))
        for ch in 0..<3 {
            let mu = TestScenes.mean(frame.ambientElectrons ?? [], channel: ch)
            let measuredMean = TestScenes.mean(frame.electrons, channel: ch)
            let v = TestScenes.variance(frame.electrons, channel: ch)
            let expected = mu + 9
            #expect(abs(measuredMean - mu) < 4 * (expected / 3072).squareRoot(), "mean ch \(ch)")
            #expect(abs(v / expected - 1) < 0.11, "ch \(ch) μ = \(mu): variance \(v), expected \(expected)")
        }
    }

    @Test func prnuAddsGainVarianceProportionalToSignalSquared() {
        var noise = Self.readOnly
        noise.prnu = 0.02
        let frame = renderer(noise: noise).render(Exposure(time: 1, iso: 100, seed: 3))
        let mu = TestScenes.mean(frame.ambientElectrons ?? [], channel: 1)
        let v = TestScenes.variance(frame.electrons, channel: 1)
        let expected = mu + 9 + 0.02 * 0.02 * mu * mu
        #expect(abs(v / expected - 1) < 0.11)
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
