import ExternalTools
import Foundation
import Imaging
import Testing

/// A shared scenario is untrusted input: no key that takes a path can make `obscura run` read or write
/// outside the folders the user vouched for, whether by an absolute path, `..`, or a link.
struct ScenarioPathConfinementTests {
    /// A session with a photo output, up to `start`, that later steps can capture from.
    static let running = """
        steps:
          - begin
          - session: {preset: photo}
          - input: {type: builtInWideAngleCamera, position: back}
          - output: photo
          - photo_output: {isLivePhotoCaptureEnabled: true}
          - commit
          - start

        """

    /// Every key that names a file the run writes, each with an escaping path.
    static let writingSteps: [(key: String, step: String)] = [
        ("livePhotoMovieFileURL", "  - capture: {livePhotoMovieFileURL: ESCAPE.mov}\n"),
        ("capture save", "  - capture: {flashMode: off}\n    save: [{photo: ESCAPE.png}]\n"),
        ("stream save", "  - stream: {frames: 1}\n    save: [{depth: ESCAPE.png}]\n"),
        ("image_scan save", "  - capture: {flashMode: off}\n  - image_scan: {save: ESCAPE.png}\n"),
        ("image_blend save", "  - capture: {flashMode: off}\n  - image_blend: {color: [0, 0, 1], save: ESCAPE.png}\n"),
        ("image_wide_gamut save", "  - capture: {flashMode: off}\n  - image_wide_gamut: {save: ESCAPE.png}\n"),
    ]

    @Test(arguments: ["/tmp/obscura-escape-\(UUID().uuidString)", "../escape", "sub/../../escape", "~/escape"])
    func writingKeysRefuseEscapingPaths(_ escape: String) throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (key, step) in Self.writingSteps {
            let text = Self.running + step.replacingOccurrences(of: "ESCAPE", with: escape)
            let file = try RunCommandTests.write(text, in: dir)
            let out = dir.appendingPathComponent("out").path
            let result = try CLIRunner.run(["run", file, "--out", out])
            #expect(result.status == 2, "\(key): \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: \(file):"), "\(key): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out), "\(key)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.scenario.yaml"], "\(key)")
        }
        if escape.hasPrefix("/") { #expect(!FileManager.default.fileExists(atPath: escape + ".mov")) }
    }

    /// Every key that names a file the run reads, through a link planted in the scenario's folder.
    @Test func readingKeysRefuseLinksOutOfTheFolder() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let scenarios = dir.appendingPathComponent("scenarios")
        let outside = dir.appendingPathComponent("outside")
        try fm.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try fm.createDirectory(at: outside, withIntermediateDirectories: true)
        try fm.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("Scenes/violets-warm-room.yaml"),
            to: outside.appendingPathComponent("room.yaml"))
        try fm.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("DeviceProfiles/iphone-14.yaml"),
            to: outside.appendingPathComponent("phone.yaml"))
        try fm.createSymbolicLink(at: scenarios.appendingPathComponent("linked"), withDestinationURL: outside)
        let keys = [
            "device: linked/phone.yaml\n" + Self.running,
            "scene: linked/room.yaml\n" + Self.running,
            Self.running + "  - scene_light: {name: window, from_scene: linked/room.yaml}\n",
            "device: \(outside.path)/phone.yaml\n" + Self.running,
            "scene: ../outside/room.yaml\n" + Self.running,
        ]
        for text in keys {
            let file = try RunCommandTests.write(text, in: scenarios)
            let result = try CLIRunner.run(["run", file, "--out", dir.appendingPathComponent("out").path])
            #expect(result.status == 2, "\(text): \(result.stderr)")
            #expect(result.stderr.contains("lies outside"), "\(text): \(result.stderr)")
        }
    }

    // A checkout cannot widen what is allowed by planting a catalogue folder that is a link out of
    // it: a `DeviceProfiles` found by walking up counts only inside the tree it was found in, holding
    // Obscura's README.
    @Test func aLinkedCatalogueFolderIsNotTrusted() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let project = dir.appendingPathComponent("proj")
        let secrets = dir.appendingPathComponent("secrets")
        try fm.createDirectory(at: project, withIntermediateDirectories: true)
        try fm.createDirectory(at: secrets, withIntermediateDirectories: true)
        let line = "root:$6$SECRETSECRETSECRET:19000:0:99999:7:::"
        try Data((line + "\n").utf8).write(to: secrets.appendingPathComponent("shadow.yaml"))
        // Even a copy of Obscura's README does not make a link trusted.
        try fm.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("DeviceProfiles/README.md"),
            to: secrets.appendingPathComponent("README.md"))
        try fm.createSymbolicLink(at: project.appendingPathComponent("DeviceProfiles"), withDestinationURL: secrets)
        for device in ["DeviceProfiles/shadow.yaml", secrets.appendingPathComponent("shadow.yaml").path] {
            try? fm.removeItem(at: project.appendingPathComponent("DeviceProfiles"))
            try fm.createSymbolicLink(
                at: project.appendingPathComponent("DeviceProfiles"), withDestinationURL: secrets)
            let file = try RunCommandTests.write("device: \(device)\n" + Self.running, in: project)
            let result = try CLIRunner.run(["run", "t.scenario.yaml", "--out", "out"], in: project)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("lies outside"), "\(result.stderr)")
            #expect(!result.stderr.contains("SECRET") && !result.stdout.contains("SECRET"), "\(result.stderr)")
            _ = file
        }
        // A link to the root of the file system is no catalogue either.
        try fm.removeItem(at: project.appendingPathComponent("DeviceProfiles"))
        try fm.createSymbolicLink(atPath: project.appendingPathComponent("DeviceProfiles").path, withDestinationPath: "/")
        _ = try RunCommandTests.write("device: /etc/passwd\n" + Self.running, in: project)
        let root = try CLIRunner.run(["run", "t.scenario.yaml", "--out", "out"], in: project)
        #expect(root.status == 2, "\(root.stderr)")
        #expect(root.stderr.contains("lies outside") && !root.stderr.contains("root:"), "\(root.stderr)")
        // The catalogue the CLI lists is the package's, not the linked folder.
        let listed = try CLIRunner.run(["devices", "list"], in: project)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("iphone-15-pro"))
    }

    // The Live Photo movie lands inside --out, and a link planted in the scenario's folder under a
    // temporary's old name reaches nothing.
    @Test(.needs(.ffmpeg))
    func livePhotoMovieLandsInsideTheOutput() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        try fm.createSymbolicLink(
            atPath: dir.appendingPathComponent(".live.mov.partial").path, withDestinationPath: victim.path)
        let text = Self.running + "  - capture: {livePhotoMovieFileURL: movies/live.mov}\n"
        let file = try RunCommandTests.write(text, in: dir)
        let out = dir.appendingPathComponent("out")
        let result = try CLIRunner.run(["run", file, "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let movie = out.appendingPathComponent("movies/live.mov").path
        let size = try fm.attributesOfItem(atPath: movie)[.size] as? Int ?? 0
        #expect(size > 10_000)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
        #expect(try fm.contentsOfDirectory(atPath: dir.path).sorted()
            == [".live.mov.partial", "out", "t.scenario.yaml", "victim.txt"])
    }
}
