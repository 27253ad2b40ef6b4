import Foundation
import Imaging
import Testing

/// `obscura render`, run as a user would run it.
@Suite struct RenderCommandTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func writesADecodableTaggedPNG() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("chart.png").path
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "160x120", "--out", out, "--seed", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        let image = try PNG.read(contentsOf: out)
        #expect(image.width == 160 && image.height == 120 && image.channels == 3 && image.bitDepth == 8)
        #expect(image.colorSpace == .sRGB)
        #expect(image.textValue(forKey: "Obscura.Device") == "iphone-15-pro")
        #expect(image.textValue(forKey: "Obscura.Seed") == "4")
        guard case let .eightBit(pixels) = image.pixels else { return }
        // Not a blank picture: the chart's white and black patches are far apart.
        let values = pixels.packedElements
        #expect((values.max() ?? 0) - (values.min() ?? 0) > 100)
    }

    @Test func createsTheFolderTheUserNames() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("new/nested/chart.png").path
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
    }

    /// The chart of `chart-d65` stands 0.5 m straight ahead, square to the axis: every pixel on it
    /// has depth 500 mm, and the wall behind it 1,500 mm.
    @Test func depthMapHoldsTheChartDistance() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("chart.png").path
        let depth = dir.appendingPathComponent("depth.png").path
        let result = try CLIRunner.run([
            "render", "chart-d65", "--size", "128x96", "--out", out, "--depth", depth, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"depth\" : \"\(depth)\""))
        let image = try PNG.read(contentsOf: depth)
        #expect(image.channels == 1 && image.bitDepth == 16)
        guard case let .sixteenBit(pixels) = image.pixels else { return }
        #expect(pixels[64, 48] == 500)
        #expect(pixels[2, 2] == 1500)
    }

    /// The picture and the depth map (or its view) named as one file would leave only the last written: refused
    /// before rendering, naming both options, and nothing is written. `a/./x.png` and `a/x.png` are one file.
    @Test func picturesThatWouldOverwriteEachOtherAreRefused() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let same = dir.appendingPathComponent("same.png").path
        let spelledapart = dir.appendingPathComponent(".").appendingPathComponent("same.png").path
        let one = try CLIRunner.run(["render", "chart-d65", "--size", "64x48", "--out", same, "--depth", spelledapart])
        #expect(one.status == 2, "\(one.stderr)")
        #expect(one.stderr.contains("--out and --depth both name"), "\(one.stderr)")
        let view = dir.appendingPathComponent("k-view.png").path
        let depth = dir.appendingPathComponent("k.png").path
        let companion = try CLIRunner.run(["render", "chart-d65", "--size", "64x48", "--out", view, "--depth", depth])
        #expect(companion.status == 2, "\(companion.stderr)")
        #expect(companion.stderr.contains("--out and the depth map's view both name"), "\(companion.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// Beside the exact map, a picture to look at: `depth-view.png`, 8-bit sRGB, the map in viridis
    /// with a legend to its right. The chart (0.5 m, the nearest depth) takes viridis's first
    /// published entry, (0.267004, 0.004874, 0.329415) → (68, 1, 84); the wall (1.5 m, the
    /// farthest) its last, (0.993248, 0.906157, 0.143936) → (253, 231, 37).
    @Test func depthMapComesWithAViewableColourPicture() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("chart.png").path
        let depth = dir.appendingPathComponent("chart-depth.png").path
        let view = dir.appendingPathComponent("chart-depth-view.png").path
        let result = try CLIRunner.run([
            "render", "chart-d65", "--size", "128x96", "--out", out, "--depth", depth, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"depth_view\" : \"\(view)\""))
        let image = try PNG.read(contentsOf: view)
        #expect(image.channels == 3 && image.bitDepth == 8 && image.colorSpace == .sRGB)
        #expect(image.width > 128 && image.height >= 96)
        guard case let .eightBit(pixels) = image.pixels else { return }
        #expect([pixels[64, 48, 0], pixels[64, 48, 1], pixels[64, 48, 2]] == [68, 1, 84])
        #expect([pixels[2, 2, 0], pixels[2, 2, 1], pixels[2, 2, 2]] == [253, 231, 37])
        // The plain report names every file written, the view too (it replaces a file of that name).
        let said = try CLIRunner.run(["render", "chart-d65", "--size", "128x96", "--out", out, "--depth", depth])
        #expect(said.status == 0 && said.stdout.contains("depth \(depth) and \(view):"), "\(said.stdout)")
    }

    @Test func fixedExposureAndFlashAreReported() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("flash.png").path
        let result = try CLIRunner.run([
            "render", "chart-tungsten", "--size", "64x48", "--flash", "--exposure", "100,1/50", "--out", out, "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"iso\" : 100"))
        #expect(result.stdout.contains("\"exposure_time_s\" : 0.02"))
        #expect(result.stdout.contains("\"flash\" : true"))
    }

    /// Bad input: exit code 2, one line naming the argument, and no file written.
    @Test(arguments: [
        (["--size", "12x"], "--size"),
        (["--exposure", "100,abc"], "--exposure"),
        // Outside what the camera takes (ISO 50 to 3200, at most its formats' longest frame, 1 s).
        (["--exposure", "1e9,1/50"], "ISO 1000000000 is outside"),
        (["--exposure", "100,100"], "100.000000 s is outside"),
        (["--warmth", "-0.5"], "--warmth: expected a value from 0 to 1"),
        (["--camera", "builtInTelephotoCamera", "--device", "ipad-10th-gen"], "builtInTelephotoCamera"),
        (["--device", "iphone-15"], "did you mean"),
        (
            ["--flash", "--position", "front", "--camera", "builtInUltraWideCamera", "--device", "ipad-10th-gen"],
            "--flash"
        ),
    ])
    func badArgumentsGiveOneLine(_ extra: [String], _ needle: String) throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.png").path
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", out] + extra)
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(needle), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func rendersASeedSceneByName() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("violets.png").path
        let result = try CLIRunner.run(["render", "violets-warm-room", "--size", "64x48", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try PNG.read(contentsOf: out).width == 64)
    }

    @Test func unknownSceneSuggestsTheNearestName() throws {
        let result = try CLIRunner.run(["render", "chart-d6", "--out", "/nonexistent/x.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'chart-d65'"))
        #expect(result.stderr.contains("no scene 'chart-d6' in "), "\(result.stderr)")
    }

    // A scene's name typed as its file name, where no such file is: the catalogue's scene is pointed at.
    @Test func aSceneNameWithItsExtensionPointsAtTheScene() throws {
        let result = try CLIRunner.run(["render", "violets-warm-room.yaml", "--out", "/nonexistent/x.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("obscura render violets-warm-room"), "\(result.stderr)")
    }
}
