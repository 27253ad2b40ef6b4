import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Flash geometry against the closed form E = I·cos^m α·cos θ / r² (color-science spec §3.4).
struct FlashFalloffTests {
    let halfAngle = 31.5
    var m: Double { log(0.5) / log(cos(halfAngle * Double.pi / 180)) }

    func flashFrame(distance: Double, _ engine: Engine) -> RawFrame {
        let scene = Scene(objects: [TestScenes.wall(distance: distance)], ambient: nil, device: TestScenes.device)
        let flash = FlashModel(modules: [
            .init(spectrum: Illuminants.d65, intensityCandela: 200, beamHalfAngleDegrees: halfAngle)
        ])
        return engine.render(
            scene, camera: TestScenes.camera(noise: TestScenes.quiet), flash: flash,
            exposure: Exposure(time: 1, iso: 100, flash: true))
    }

    @Test(arguments: Engine.allCases)
    func onAxisFollowsInverseSquareAndMatchesLux(engine: Engine) {
        let near = flashFrame(distance: 1, engine)
        let far = flashFrame(distance: 2, engine)
        // A pixel whose ray is 0.0125 rad off axis: cos^(m+3) differs from 1 by 0.05 %.
        let g1 = Double(near.flashElectrons?[(24 * 64 + 32) * 3 + 1] ?? 0)
        let g2 = Double(far.flashElectrons?[(24 * 64 + 32) * 3 + 1] ?? 0)
        #expect(abs(g1 / g2 - 4) < 0.004)
        // 200 cd at 1 m is 200 lux on axis: twice the spec's 100-lux D65 figure (2 × 4,620 e⁻/s),
        // times cos^(m+3) α for this pixel's small off-axis angle.
        let alpha = atan((2 * 0.0125 * 0.0125).squareRoot())
        #expect(abs(g1 / (9240 * pow(cos(alpha), m + 3)) - 1) < 0.01)
    }

    @Test(arguments: Engine.allCases)
    func offAxisFollowsCosinePowerLaw(engine: Engine) {
        let frame = flashFrame(distance: 1, engine)
        let parts = frame.flashElectrons ?? []
        func g(_ x: Int, _ y: Int) -> Double { Double(parts[(y * 64 + x) * 3 + 1]) }
        func alpha(_ x: Int, _ y: Int) -> Double {
            let u = (Double(x) + 0.5 - 32) / 40
            let v = (Double(y) + 0.5 - 24) / 40
            return atan((u * u + v * v).squareRoot())
        }
        // A flat wall facing the flash: E(α) = I·cos^m α·cos α/(d/cos α)² = I·cos^(m+3) α/d².
        for (x, y) in [(63, 24), (50, 40), (5, 3)] {
            let expected = pow(cos(alpha(x, y)), m + 3) / pow(cos(alpha(32, 24)), m + 3)
            #expect(abs(g(x, y) / g(32, 24) / expected - 1) < 1e-3, "pixel \(x),\(y)")
        }
    }

    /// Two beams from one point (a wide cluster and a narrow centre LED, as on flashes that fire
    /// both): E(α) = Σ I_i·cos^(m_i + 3) α / d² on a wall facing them.
    @Test(arguments: Engine.allCases)
    func coLocatedBeamsAddTheirCosinePowerLaws(engine: Engine) {
        let narrowHalfAngle = 12.0
        let narrowM = log(0.5) / log(cos(narrowHalfAngle * Double.pi / 180))
        let scene = Scene(objects: [TestScenes.wall(distance: 1)], ambient: nil, device: TestScenes.device)
        let flash = FlashModel(modules: [
            .init(spectrum: Illuminants.d65, intensityCandela: 200, beamHalfAngleDegrees: halfAngle),
            .init(spectrum: Illuminants.d65, intensityCandela: 120, beamHalfAngleDegrees: narrowHalfAngle),
        ])
        let parts =
            engine.render(
                scene, camera: TestScenes.camera(noise: TestScenes.quiet), flash: flash,
                exposure: Exposure(time: 1, iso: 100, flash: true)
            ).flashElectrons ?? []
        func g(_ x: Int, _ y: Int) -> Double { Double(parts[(y * 64 + x) * 3 + 1]) }
        func e(_ x: Int, _ y: Int) -> Double {
            let u = (Double(x) + 0.5 - 32) / 40
            let v = (Double(y) + 0.5 - 24) / 40
            let c = cos(atan((u * u + v * v).squareRoot()))
            return 200 * pow(c, m + 3) + 120 * pow(c, narrowM + 3)
        }
        #expect(parts.count == 64 * 48 * 3)
        // Off-axis pixels out to 40°, where the narrow beam has fallen below a thousandth.
        for (x, y) in [(63, 24), (50, 40), (40, 30), (5, 3)] {
            #expect(abs(g(x, y) / g(32, 24) / (e(x, y) / e(32, 24)) - 1) < 1e-3, "pixel \(x),\(y)")
        }
    }
}
