import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// The exposure chain against color-science spec §3.3, whose figures were computed with the
/// colour-science package: D65, 18 % grey, 100 lux, f/1.8, 1.4 µm, T = 0.9, Gaussian QE peak 0.6
/// (R 600/30, G 535/35, B 460/25 nm, σ) → R 3,880, G 4,620, B 3,010 e⁻/s. Those figures use the
/// camera-equation denominator 1 + 4N² (= 13.96); with 4N² they would be 7 % higher (G ≈ 4,980).
@Test(arguments: Engine.allCases)
func lambertianGreyAt100LuxGivesSpecElectronRates(engine: Engine) {
    let scene = Scene(
        objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
        device: TestScenes.device)
    let frame = engine.render(
        scene, camera: TestScenes.camera(noise: TestScenes.quiet), exposure: Exposure(time: 1, iso: 100))
    let ambient = frame.ambientElectrons ?? []
    let expected = [3880.0, 4620.0, 3010.0]
    for ch in 0..<3 {
        let got = TestScenes.mean(ambient, channel: ch)
        #expect(abs(got / expected[ch] - 1) < 0.01, "\(engine) channel \(ch): \(got) e⁻/s, spec \(expected[ch])")
    }
}

@Test func electronsScaleWithExposureTimeAndGainWithISO() {
    let scene = Scene(
        objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
        device: TestScenes.device)
    let noise = NoiseParameters(
        fullWellElectrons: 6000, readNoiseElectrons: 0, prnu: 0, dsnuElectrons: 0, adcBits: 10, blackLevel: 64,
        whiteLevel: 1023, baseISO: 50)
    let renderer = Renderer(scene: scene, camera: TestScenes.camera(noise: noise), flash: nil)
    let base = renderer.render(Exposure(time: 0.1, iso: 50))
    let doubled = renderer.render(Exposure(time: 0.1, iso: 100))
    // 0.1 s → about 462 e⁻ in green; K = (1023 − 64)/6000 DN/e⁻ at base ISO, twice that at 2× ISO.
    let e = TestScenes.mean(base.ambientElectrons ?? [], channel: 1)
    #expect(abs(e - 462.0) / 462.0 < 0.01)
    let k = 959.0 / 6000.0
    let dn1 = base.dn.enumerated().filter { $0.offset % 3 == 1 }.map { Double($0.element) }
    let dn2 = doubled.dn.enumerated().filter { $0.offset % 3 == 1 }.map { Double($0.element) }
    let m1 = dn1.reduce(0, +) / Double(dn1.count)
    let m2 = dn2.reduce(0, +) / Double(dn2.count)
    #expect(abs(m1 - (64 + k * e)) < 1.0)
    #expect(abs(m2 - (64 + 2 * k * e)) < 1.5)
    // ADC: every code is the black level plus the gained charge, rounded to the nearest DN.
    for i in stride(from: 0, to: doubled.dn.count, by: 97) {
        #expect(Double(doubled.dn[i]) == (64 + 2 * k * Double(doubled.electrons[i])).rounded())
    }
}
