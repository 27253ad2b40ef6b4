import Foundation
import Scenes
import Spectra
import Testing

/// The seed scenes in `Scenes/` load, and hold what their descriptions promise.
@Suite struct SeedSceneTests {
    static let names = [
        "hand-on-desk", "instant-photo", "near-and-far", "pencils", "phone-number-card", "portrait-print", "qr-on-desk",
        "saturated", "spoon", "violets-blue-light",
        "violets-green-light", "violets-red-light", "violets-warm-room",
    ]

    static func load(_ name: String) throws -> Scene {
        try SceneLoader(directory: TestPaths.scenes).scene(name)
    }

    @Test func theCatalogueListsEverySeedScene() throws {
        let loader = try SceneLoader(directory: TestPaths.scenes)
        #expect(loader.names == Self.names)
        #expect(loader.names.contains(SceneLoader.defaultSceneName))
    }

    @Test(arguments: names)
    func seedSceneLoads(_ name: String) throws {
        let scene = try Self.load(name)
        #expect(!scene.objects.isEmpty)
        #expect(Set(scene.objects.map(\.name)).count == scene.objects.count)
        // Small enough to render quickly.
        #expect(scene.objects.count <= 20)
        // Plausible indoor or outdoor light: 10 lux … 100 000 lux.
        if let ambient = scene.ambient { #expect((10...100_000).contains(ambient.illuminance)) }
    }

    @Test func theScenesDirectoryIsFoundFromInsideTheRepository() {
        let found = SceneLoader.locate(
            environment: [:], currentDirectory: TestPaths.root + "/Sources/Scenes", executable: nil)
        // The walk must skip the source folder of the same name and reach the scene folder.
        #expect(
            found.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                == URL(fileURLWithPath: TestPaths.scenes).standardizedFileURL.path)
        #expect(SceneLoader.locate(explicit: TestPaths.scenes) == TestPaths.scenes)
        #expect(
            SceneLoader.locate(environment: ["OBSCURA_SCENES": TestPaths.scenes], executable: nil) == TestPaths.scenes)
    }

    @Test func violetsStandInAWarmRoomWithAPot() throws {
        let scene = try Self.load("violets-warm-room")
        #expect(scene.objectIndex(named: "pot") != nil)
        let ambient = try #require(scene.ambient)
        // The room light's chromaticity is that of a 2800 K Planckian radiator: CIE 1960 (u, v)
        // from Planck's law with c2 = 1.4388e-2 m·K, computed here independently.
        let uv = Self.uv(of: ambient.spectrum)
        let planck = Self.uv(
            of: Spectrum { l in
                let m = l * 1e-9
                return 1 / (pow(m, 5) * (exp(1.4388e-2 / (m * 2800)) - 1))
            })
        #expect(abs(uv.0 - planck.0) < 1e-4 && abs(uv.1 - planck.1) < 1e-4)
        #expect(scene.lights.isEmpty)
    }

    @Test(arguments: [("violets-red-light", 630.0), ("violets-green-light", 525.0), ("violets-blue-light", 455.0)])
    func colouredVariantsAddASaturatedSpotOnThePot(_ name: String, _ peak: Double) throws {
        let scene = try Self.load(name)
        let base = try Self.load("violets-warm-room")
        #expect(scene.objects == base.objects)
        let light = try #require(scene.lights.first)
        let values = light.spectrum.values
        let maxIndex = try #require(values.indices.max { values[$0] < values[$1] })
        #expect(Spectrum.wavelengths[maxIndex] == peak)
        guard case let .spot(position, axis, intensity, _) = light.kind else {
            Issue.record("not a spot light")
            return
        }
        let pot = try #require(scene.objectIndex(named: "pot").map { scene.objects[$0].transform.position })
        #expect((axis - (pot - position).normalized).length < 1e-12)
        // Stronger than the room: E = I / d² at the pot exceeds the 150 lux ambient.
        #expect(intensity / (pot - position).dot(pot - position) > 150)
    }

    @Test func instantPhotoIsAnImageCardWithAWhiteFrame() throws {
        let scene = try Self.load("instant-photo")
        let photo = try #require(scene.objectIndex(named: "photo").map { scene.objects[$0] })
        guard case let .image(width, height, indices, palette) = photo.surface else {
            Issue.record("the photo is not an image card")
            return
        }
        #expect(width == 88 && height == 107 && indices.count == 88 * 107)
        #expect(palette.count == 6 && palette[0].name == "print frame")
        // Corners are frame; the picture's centre is not.
        #expect(indices[0] == 0 && indices[indices.count - 1] == 0)
        #expect(indices[44 * 88 + 44] != 0)
        #expect(palette.allSatisfy { $0.specularStrength > 0 })
    }

    @Test func handOnDeskHoldsSkinPatchesAndAColorChecker() throws {
        let scene = try Self.load("hand-on-desk")
        let chart = try #require(scene.objectIndex(named: "chart").map { scene.objects[$0] })
        #expect(chart.surface.materials.count == 25)
        #expect(chart.shape == .plane(width: 0.2794, height: 0.1905))
        let palm = try #require(scene.objectIndex(named: "palm").map { scene.objects[$0] })
        #expect(palm.surface.materials.first?.name == "skin-041")
        #expect(scene.ambient != nil && !scene.lights.isEmpty)
    }

    /// Some materials of `saturated` lie outside sRGB: under D65 their linear sRGB coordinates
    /// (IEC 61966-2-1's published XYZ → RGB matrix) have a negative component.
    @Test func saturatedHoldsColoursOutsideSRGB() throws {
        let scene = try Self.load("saturated")
        let inverse: [[Double]] = [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
        var outside: [String] = []
        for object in scene.objects {
            for material in object.surface.materials {
                let xyz = Colorimetry.xyz(reflectance: material.reflectance, illuminant: Illuminants.d65)
                let rgb = inverse.map { $0[0] * xyz.X + $0[1] * xyz.Y + $0[2] * xyz.Z }
                if rgb.contains(where: { $0 < -0.5 }) { outside.append(material.name) }
            }
        }
        #expect(outside.count >= 4, "outside sRGB: \(outside)")
        #expect(outside.contains("p3 green") && outside.contains("band green"))
    }

    static func uv(of s: Spectrum) -> (Double, Double) {
        let xyz = CIE1931.tristimulus(s)
        let d = xyz.X + 15 * xyz.Y + 3 * xyz.Z
        return (4 * xyz.X / d, 6 * xyz.Y / d)
    }
}
