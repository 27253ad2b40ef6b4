import Devices
import ExternalTools
import Foundation
import Imaging
import Scenarios
import Testing

/// A scenario may read only files in its own folder, the device catalogue, the scene folder, or
/// folders the user allows; nothing it reads is quoted at length in an error.
struct ScenarioFileConfinementTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A fresh folder holding a scenario folder `scenarios/` and a neighbour `elsewhere/` with a
    /// secret file in it.
    struct Layout {
        let root: URL
        var scenarios: URL { root.appendingPathComponent("scenarios") }
        var elsewhere: URL { root.appendingPathComponent("elsewhere") }
        var secret: URL { elsewhere.appendingPathComponent("secret.yaml") }
        static let secretText = "token: s3cr3t-value-that-must-not-leak\nmore: [1, 2]\n"

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-confine-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("scenarios"),
                                                    withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("elsewhere"),
                                                    withIntermediateDirectories: true)
            try Self.secretText.write(to: root.appendingPathComponent("elsewhere/secret.yaml"), atomically: true,
                                      encoding: .utf8)
        }

        func scenario(_ head: String, steps: String = "  - commit\n") throws -> String {
            let path = scenarios.appendingPathComponent("t.scenario.yaml").path
            try (head + "steps:\n" + steps).write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func cleanUp() { try? FileManager.default.removeItem(at: root) }
    }

    static func error(_ path: String, allowing: [String] = []) -> String {
        do {
            _ = try ScenarioLoader.load(path: path, allowedDirectories: allowing)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func absoluteDevicePathOutsideIsRefusedAtTheKey() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let file = try layout.scenario("device: \(layout.secret.path)\n")
        let message = Self.error(file)
        // Line 1, column 9: the value of `device:`.
        #expect(message.hasPrefix("\(file):1:9: device: "), "\(message)")
        #expect(message.contains(layout.secret.path))
        #expect(message.contains("--allow-path"))
        #expect(!message.contains("s3cr3t"))
    }

    @Test func systemFileIsNeverQuoted() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let file = try layout.scenario("device: /etc/passwd\n")
        let message = Self.error(file)
        #expect(message.contains("/etc/passwd"))
        #expect(!message.contains("root:"))
    }

    @Test func dotDotScenePathIsRefused() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let file = try layout.scenario("scene: ../elsewhere/secret.yaml\n")
        let message = Self.error(file)
        #expect(message.hasPrefix("\(file):1:8: scene: "), "\(message)")
        #expect(message.contains("outside"))
        #expect(!message.contains("s3cr3t"))
    }

    @Test func symbolicLinkInsideTheFolderPointingOutIsOutside() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let link = layout.scenarios.appendingPathComponent("room.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: layout.secret.path)
        // Both as a name looked up beside the scenario and as a path.
        for reference in ["room", "room.yaml", "./room.yaml"] {
            let file = try layout.scenario("scene: \(reference)\n")
            let message = Self.error(file)
            #expect(message.hasPrefix("\(file):1:8: scene: "), "\(reference): \(message)")
            #expect(message.contains("outside"))
            #expect(!message.contains("s3cr3t"))
        }
    }

    @Test func fromSceneOutsideIsRefusedWhenLoading() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let file = try layout.scenario(
            "", steps: "  - scene_light: {name: red spot, from_scene: \(layout.secret.path)}\n")
        let message = Self.error(file)
        #expect(message.hasPrefix("\(file):2:47: "), "\(message)")
        #expect(message.contains("from_scene"))
        #expect(message.contains("--allow-path"))
        #expect(!message.contains("s3cr3t"))
    }

    @Test func allowedFolderIsReadable() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let scene = layout.elsewhere.appendingPathComponent("room.yaml")
        try FileManager.default.copyItem(
            at: Self.repositoryRoot.appendingPathComponent("Scenes/violets-red-light.yaml"), to: scene)
        let file = try layout.scenario(
            "scene: ../elsewhere/room.yaml\n",
            steps: "  - scene_light: {name: red spot, from_scene: ../elsewhere/room.yaml}\n")
        #expect(Self.error(file).contains("outside"))
        let scenario = try ScenarioLoader.load(path: file, allowedDirectories: [layout.elsewhere.path])
        #expect(scenario.sceneReference == "../elsewhere/room.yaml")
    }

    @Test func footageAsTheSceneIsShownWholeAndConfinedLikeASceneFile() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        try Y4MClip.write([[200, 40, 40]], rate: 30, to: layout.elsewhere.appendingPathComponent("clip.y4m"))
        let file = try layout.scenario("scene: ../elsewhere/clip.y4m\n")
        #expect(Self.error(file).contains("outside"))
        let scenario = try ScenarioLoader.load(path: file, allowedDirectories: [layout.elsewhere.path])
        // One screen, playing the clip, filling the view; no room light.
        #expect(scenario.sceneValue.isFootage)
        #expect(scenario.sceneValue.playsMovies)
        #expect(scenario.sceneValue.objects.count == 1 && scenario.sceneValue.ambient == nil)
    }

    @Test func footageInDirectModeWithDepthIsAMappingWhosePathsAreConfined() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        try Y4MClip.write(
            [[200, 40, 40]], rate: 30, width: 16, height: 8, to: layout.scenarios.appendingPathComponent("clip.y4m"))
        let depth = PixelPlane<UInt16>(width: 16, height: 8, repeating: 1200)
        try PNG.write(PNGImage(pixels: depth), to: layout.scenarios.appendingPathComponent("depth.png").path)
        try PNG.write(PNGImage(pixels: depth), to: layout.elsewhere.appendingPathComponent("depth.png").path)
        let file = try layout.scenario("scene: {footage: clip.y4m, mode: direct, depth: depth.png}\n")
        let scenario = try ScenarioLoader.load(path: file)
        #expect(scenario.sceneValue.footage?.mode == .direct)
        #expect(scenario.sceneValue.footage?.depth != nil)
        #expect(scenario.sceneReference == "clip.y4m {mode: direct, depth: depth.png}")
        // `explain` says what direct mode means before the steps.
        let run = try layout.scenario(
            "scene: {footage: clip.y4m, mode: direct}\n", steps: "  - begin\n  - commit\n")
        let loaded = try ScenarioLoader.load(path: run)
        let narration = Narration.narrate(loaded, try ScenarioRunner.run(loaded))
        #expect(narration.contains("Footage in direct mode") && narration.contains("no pixel"), "\(narration)")

        // The depth obeys the confinement, at its own key (line 1, column 49).
        let outside = try layout.scenario("scene: {footage: clip.y4m, mode: direct, depth: ../elsewhere/depth.png}\n")
        let message = Self.error(outside)
        #expect(message.hasPrefix("\(outside):1:49: scene.depth: ") && message.contains("outside"), "\(message)")
        #expect(Self.error(outside, allowing: [layout.elsewhere.path]) == "no error")
    }

    @Test func badFootageMappingsAreReportedAtTheirKeys() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        try Y4MClip.write(
            [[200, 40, 40]], rate: 30, width: 16, height: 8, to: layout.scenarios.appendingPathComponent("clip.y4m"))
        // A missing depth picture, named at `depth:`.
        let missing = Self.error(
            try layout.scenario("scene:\n  footage: clip.y4m\n  mode: direct\n  depth: none.png\n"))
        #expect(missing.contains(":4:10: scene.depth: ") && missing.contains("none.png"), "\(missing)")
        // A missing clip, named at `footage:`.
        let clip = Self.error(try layout.scenario("scene: {footage: gone.mp4, mode: direct}\n"))
        #expect(clip.contains(":1:18: scene.footage: ") && clip.contains("gone.mp4"), "\(clip)")
        // An unknown mode, with the choices.
        let mode = Self.error(try layout.scenario("scene: {footage: clip.y4m, mode: exact}\n"))
        #expect(mode.contains("scene.mode") && mode.contains("direct"), "\(mode)")
        // A depth picture of another size than the footage's aspect, named.
        try PNG.write(
            PNGImage(pixels: PixelPlane<UInt16>(width: 9, height: 9, repeating: 1)),
            to: layout.scenarios.appendingPathComponent("square.png").path)
        let aspect = Self.error(try layout.scenario("scene: {footage: clip.y4m, mode: direct, depth: square.png}\n"))
        #expect(aspect.contains("scene.depth") && aspect.contains("aspect"), "\(aspect)")
    }

    @Test func devicePathResolvesAgainstTheScenarioFolder() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        try FileManager.default.copyItem(
            at: Self.repositoryRoot.appendingPathComponent("DeviceProfiles/iphone-15-pro.yaml"),
            to: layout.scenarios.appendingPathComponent("phone.yaml"))
        // Like `scene:`, a relative `device:` path starts at the scenario's folder, not the working directory.
        let file = try layout.scenario("device: phone.yaml\n")
        let scenario = try ScenarioLoader.load(path: file)
        #expect(scenario.deviceReference == "phone.yaml")
        #expect(FileManager.default.fileExists(atPath: scenario.device))
    }

    @Test func missingFilesAreReportedAtTheirKeys() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let file = try layout.scenario("device: absent.yaml\nscene: rooms/absent.yaml\n")
        let message = Self.error(file)
        #expect(message.contains("\(file):1:9: device: no profile file 'absent.yaml'"), "\(message)")
        #expect(message.contains("\(file):2:8: scene: no scene file 'rooms/absent.yaml'"), "\(message)")
    }

    @Test func fromSceneWithoutTheLightIsALocatedLoadError() throws {
        let layout = try Layout()
        defer { layout.cleanUp() }
        let file = try layout.scenario(
            "", steps: "  - scene_light: {name: purple spot, from_scene: violets-red-light}\n")
        let message = Self.error(file)
        #expect(message.hasPrefix("\(file):2:25: "), "\(message)")
        #expect(message.contains("no light named 'purple spot'"))
    }
}
