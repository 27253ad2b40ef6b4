import Devices
import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// Auto white balance sees only the frame and the camera's sensitivities; it is checked against the
/// light the scene was built with, which it never reads.
struct AutoWhiteBalanceTests {
    /// A card filling the view, facing the camera, with a second card of `colour` over `share` of its
    /// width (from the left), lit along its normal by `spectrum` at `lux`.
    static func scene(spectrum: String, lux: Double, colour: [Double]? = nil, share: Double = 0) throws -> Scene {
        var text = """
            description: A grey card, perhaps beside a coloured one.
            device:
              position_m: [0.0, 0.0, 1.0]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: \(spectrum)
              lux: \(lux)
              direction: [0.0, 0.0, 1.0]
              diffuse_fraction: 0.0
            materials:
              - {name: grey, reflectance: 0.4}

            """
        if let c = colour {
            text += "  - {name: paint, srgb: [\(c[0]), \(c[1]), \(c[2])]}\n"
        }
        text += "objects:\n  - {name: card, shape: plane, size_m: [4.0, 4.0], material: grey}\n"
        if colour != nil {
            // The view at 1 m spans about ±0.38 m; the coloured card covers the left `share` of it.
            let width = 0.76 * share
            text += """
                  - {name: painted, shape: plane, size_m: [\(width), 2.0], position_m: [\(-0.38 + width / 2), 0.0, 0.01],
                     material: paint}

                """
        }
        return try SceneLoader.load(text: text, file: "auto-white-balance-test.yaml")
    }

    /// The frame auto-exposure gives the scene on the iPhone 15 Pro's wide camera, 160 × 120.
    static func frame(_ scene: Scene) throws -> (RawFrame, CameraModel) {
        let profile = try ConstantColorFixture.device()
        let camera = try CameraModel(
            device: profile, camera: try profile.camera(ofType: .builtInWideAngleCamera), width: 160, height: 120)
        let pipeline = PhotoPipeline(
            renderer: Renderer(scene: scene, camera: camera, flash: nil), meteringRenderer: nil, flashHardware: nil)
        return (pipeline.expose(.init(seed: 2)).frame, camera)
    }

    static func mired(_ kelvin: Double) -> Double { 1e6 / kelvin }

    /// A grey card under Planckian, CIE daylight and off-locus LED light at the levels such lights
    /// usually give: the estimate lies within 12 mired of the light's CCT (Ohno 2013, computed here
    /// from the spectrum the scene was built with).
    @Test(arguments: [
        ("{illuminant: A}", 150.0), ("{cct_k: 4000}", 500.0), ("{illuminant: D65}", 5_000.0),
        ("{illuminant: LED-B3}", 400.0), ("{cct_k: 9000, model: daylight}", 8_000.0),
    ])
    func greyCardGivesTheLightsTemperature(_ spectrum: String, _ lux: Double) throws {
        let scene = try Self.scene(spectrum: spectrum, lux: lux)
        let (frame, camera) = try Self.frame(scene)
        let estimate = AutoWhiteBalance().estimate(frame, camera: camera)
        let truth = try #require(scene.ambient).spectrum
        let cct = CCT.cctAndDuv(of: CIE1931.tristimulus(truth).chromaticity).cct
        let found = try #require(estimate.cct)
        #expect(abs(Self.mired(found) - Self.mired(cct)) < 12, "\(spectrum): \(found) K for \(cct) K")
        #expect(estimate.greyZones * 10 >= estimate.usableZones * 9)
    }

    /// The illuminance read from the frame's exposure is the scene's within a factor of two (a card of
    /// reflectance 0.4, not the meter's 0.18, fills the view, hence the factor 0.4 / 0.18 expected).
    @Test(arguments: [50.0, 500.0, 5_000.0])
    func illuminanceFollowsTheLight(_ lux: Double) throws {
        let (frame, camera) = try Self.frame(try Self.scene(spectrum: "{illuminant: D65}", lux: lux))
        let read = try #require(AutoWhiteBalance().estimate(frame, camera: camera).illuminance)
        let expected = lux * 0.4 / 0.18
        #expect(read > expected / 2 && read < expected * 2, "\(read) lux read for \(expected)")
    }

    /// Two thirds of the view painted a saturated colour barely move the estimate, where grey world over
    /// the whole frame is pulled far off: coloured zones count as not grey.
    @Test(arguments: [[0.80, 0.10, 0.08], [0.85, 0.45, 0.10], [0.10, 0.20, 0.80]])
    func largeColouredSurfacesDoNotPullTheEstimate(_ colour: [Double]) throws {
        let scene = try Self.scene(spectrum: "{cct_k: 4000}", lux: 500, colour: colour, share: 0.67)
        let (frame, camera) = try Self.frame(scene)
        let found = try #require(AutoWhiteBalance().estimate(frame, camera: camera).cct)
        let greyWorld = WhiteBalance.greyWorld(frame, camera: camera).illuminant
        let greyWorldCCT = CCT.cctAndDuv(of: CIE1931.tristimulus(greyWorld).chromaticity).cct
        #expect(abs(Self.mired(found) - Self.mired(4000)) < 15, "auto: \(found) K")
        #expect(abs(Self.mired(greyWorldCCT) - Self.mired(4000)) > 40, "grey world: \(greyWorldCCT) K")
    }

    /// The estimate reads zone means, so a frame four times as wide gives the same light within a mired.
    @Test func theEstimateDoesNotDependOnTheFrameSize() throws {
        let scene = try Self.scene(spectrum: "{cct_k: 3300}", lux: 300, colour: [0.7, 0.4, 0.2], share: 0.5)
        let profile = try ConstantColorFixture.device()
        let cameraProfile = try profile.camera(ofType: .builtInWideAngleCamera)
        var found: [Double] = []
        for width in [96, 384] {
            let camera = try CameraModel(device: profile, camera: cameraProfile, width: width, height: width * 3 / 4)
            let pipeline = PhotoPipeline(
                renderer: Renderer(scene: scene, camera: camera, flash: nil), meteringRenderer: nil, flashHardware: nil)
            let frame = pipeline.expose(.init(seed: 4)).frame
            found.append(try #require(AutoWhiteBalance().estimate(frame, camera: camera).cct))
        }
        #expect(abs(Self.mired(found[0]) - Self.mired(found[1])) <= 2, "\(found)")
    }
}
