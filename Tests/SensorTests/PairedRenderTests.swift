import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Frames rendered together (`Renderer.render(_: [Exposure])`) and DN-only frames
/// (`RenderOptions.keepsElectrons`) against frames rendered one at a time with every plane: the
/// shortcuts may save work, never change a byte.
struct PairedRenderTests {
    /// A flash/no-flash scene with both noise regimes: signals of a few electrons (Poisson draws)
    /// and of hundreds (the Gaussian branch), a glossy sphere (specular factors), sky behind it
    /// (background pixels), fixed-pattern noise and dark current.
    func renderer(options: RenderOptions) -> Renderer {
        let glossy = Material(
            name: "glossy", reflectance: Spectrum { l in 0.2 + 0.5 * exp(-0.5 * ((l - 620) / 40) * ((l - 620) / 40)) },
            specularStrength: 0.3, roughness: 0.2)
        let sphere = SceneObject(
            name: "ball", shape: .sphere(radius: 0.25), transform: Transform(position: Vector3(0.1, 0, -1)),
            surface: .uniform(glossy))
        let card = SceneObject(
            name: "card", shape: .plane(width: 0.6, height: 0.6),
            transform: Transform(position: Vector3(-0.2, 0, -1.6)),
            surface: .uniform(.neutral("card", reflectance: 0.5)))
        let scene = Scene(objects: [sphere, card], ambient: TestScenes.frontalD65(lux: 60), device: TestScenes.device)
        let flash = FlashModel(modules: [
            .init(spectrum: Illuminants.d65, intensityCandela: 40, beamHalfAngleDegrees: 30)
        ])
        let noise = NoiseParameters(prnu: 0.01, dsnuElectrons: 1.5, darkCurrentElectronsPerSecond: 50)
        return Renderer(scene: scene, camera: TestScenes.camera(noise: noise), flash: flash, options: options)
    }

    /// A flash/no-flash pair of equal time (shared ambient sum), a third frame of another time paired
    /// with a fourth (separate ambient sums), and a fifth rendered alone.
    static let exposures = [
        Exposure(time: 0.004, iso: 200, flash: false, seed: 9, frameIndex: 0),
        Exposure(time: 0.004, iso: 200, flash: true, seed: 9, frameIndex: 1),
        Exposure(time: 0.02, iso: 100, flash: true, flashDuration: 0.002, seed: 9, frameIndex: 2),
        Exposure(time: 0.001, iso: 400, flash: false, seed: 9, frameIndex: 3),
        Exposure(time: 0.01, iso: 100, flash: true, seed: 5, frameIndex: 4),
    ]

    @Test(arguments: [1, 2, 5]) func framesRenderedTogetherMatchFramesRenderedAlone(threads: Int) {
        let r = renderer(options: RenderOptions(threadCount: threads))
        let together = r.render(Self.exposures)
        #expect(together.count == Self.exposures.count)
        for (i, exposure) in Self.exposures.enumerated() {
            let alone = r.render(exposure)
            #expect(together[i].exposure == exposure)
            #expect(together[i].dn == alone.dn, "frame \(i) DN")
            #expect(together[i].electrons == alone.electrons, "frame \(i) electrons")
            #expect(together[i].flashElectrons == alone.flashElectrons, "frame \(i) flash component")
            #expect(together[i].ambientElectrons == alone.ambientElectrons, "frame \(i) ambient component")
        }
        // The frames are not copies of one another: each exposure keeps its own noise.
        #expect(together[0].dn != together[1].dn)
        // The scene really mixes the regimes the chain treats differently.
        let green = stride(from: 1, to: together[0].electrons.count, by: 3).map { together[0].electrons[$0] }
        #expect(green.contains { $0 < 10 } && together[4].electrons.contains { $0 > 50 })
    }

    @Test func dnOnlyFramesKeepTheirDNAndLeaveElectronsOut() {
        let full = renderer(options: RenderOptions())
        let dnOnly = renderer(options: RenderOptions(keepsComponents: false, keepsElectrons: false))
        let single = dnOnly.render(Self.exposures[1])
        #expect(single.electrons.isEmpty && single.flashElectrons == nil && single.ambientElectrons == nil)
        #expect(single.dn == full.render(Self.exposures[1]).dn)
        let pair = dnOnly.render(Array(Self.exposures[0...1]))
        #expect(pair[0].dn == full.render(Self.exposures[0]).dn && pair[0].electrons.isEmpty)
        #expect(pair[1].dn == single.dn && pair[1].electrons.isEmpty)
    }

    /// Per-channel mean of an interleaved RGB plane, summed here pixel by pixel.
    static func mean(_ plane: [Float]) -> SIMD3<Double> {
        var sum = SIMD3<Double>.zero
        for p in 0..<(plane.count / 3) {
            sum += SIMD3(Double(plane[3 * p]), Double(plane[3 * p + 1]), Double(plane[3 * p + 2]))
        }
        return sum / Double(plane.count / 3)
    }

    static func largest(_ v: SIMD3<Double>) -> Double { max(abs(v.x), abs(v.y), abs(v.z)) }

    /// Frames that keep only the means of their noise-free components (no planes) carry the means of the
    /// planes a full frame keeps, whatever the thread count, alone or rendered in pairs, with the same DN.
    @Test(arguments: [1, 3]) func componentMeansWithoutThePlanesAreThePlanesMeans(threads: Int) throws {
        let full = renderer(options: RenderOptions())
        let meansOnly = renderer(
            options: RenderOptions(
                threadCount: threads, keepsComponents: false, keepsElectrons: false, keepsComponentMeans: true))
        let together = meansOnly.render(Array(Self.exposures[0...3]))
        for (i, exposure) in Self.exposures[0...3].enumerated() {
            let reference = full.render(exposure)
            let flash = try #require(reference.flashElectrons), ambient = try #require(reference.ambientElectrons)
            for frame in [meansOnly.render(exposure), together[i]] {
                #expect(frame.flashElectrons == nil && frame.ambientElectrons == nil && frame.electrons.isEmpty)
                #expect(frame.dn == reference.dn, "frame \(i) DN")
                // Summed in another order than here, so equal to rounding only; a frame without flash has none.
                let meanFlash = try #require(frame.meanFlashElectrons)
                let meanAmbient = try #require(frame.meanAmbientElectrons)
                #expect(Self.largest(meanFlash - Self.mean(flash)) <= 1e-9 * max(1, Self.mean(flash).max()))
                #expect(Self.largest(meanAmbient - Self.mean(ambient)) <= 1e-9 * Self.mean(ambient).max())
                #expect(meanAmbient.min() > 0 && (meanFlash.min() > 0) == exposure.flash, "frame \(i)")
                // The full frame's means come from its planes by the same band sums: identical.
                #expect(reference.meanFlashElectrons == meanFlash && reference.meanAmbientElectrons == meanAmbient)
            }
        }
        // A frame that keeps neither components nor means has no means.
        let bare = renderer(options: RenderOptions(keepsComponents: false)).render(Self.exposures[1])
        #expect(bare.meanFlashElectrons == nil && bare.meanAmbientElectrons == nil)
    }
}
