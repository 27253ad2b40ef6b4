import Foundation
import Imaging
import Testing

/// `obscura image`, run as a user would run it.
@Suite struct ImageCommandTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func scanReportsCornersOfADrawnPrint() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // An axis-aligned light rectangle on a dark orange surface: corners (60, 40) … (260, 200) in 320 × 240.
        let photo = UInt8Image(width: 320, height: 240, channels: 3) { x, y, c in
            (60..<260).contains(x) && (40..<200).contains(y) ? [230, 225, 210][c] : [110, 60, 30][c]
        }
        let input = dir.appendingPathComponent("photo.png").path, output = dir.appendingPathComponent("scan.png").path
        try PNG.write(PNGImage(pixels: photo, colorSpace: .sRGB), to: input)
        let result = try CLIRunner.run(["image", "scan", input, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let corners = try #require(report?["corners"] as? [[Double]])
        // Vision's convention: normalised, bottom-left origin; top left is (60/320, 1 − 40/240).
        let truth = [[0.1875, 1 - 40.0 / 240], [0.8125, 1 - 40.0 / 240], [0.8125, 1 - 200.0 / 240],
                     [0.1875, 1 - 200.0 / 240]]
        for (got, want) in zip(corners, truth) {
            #expect(abs(got[0] - want[0]) < 0.005 && abs(got[1] - want[1]) < 0.005, "\(got) vs \(want)")
        }
        let scanned = try PNG.read(contentsOf: output)
        #expect(abs(scanned.width - 200) <= 1 && abs(scanned.height - 160) <= 1)
    }

    @Test func triangleAndWideGamutWriteDisplayP3() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let triangle = dir.appendingPathComponent("triangle.png").path
        let highlighted = dir.appendingPathComponent("wide.png").path
        #expect(try CLIRunner.run(["image", "triangle", triangle, "--size", "64"]).status == 0)
        let result = try CLIRunner.run(["image", "wide-gamut", triangle, highlighted])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("pixels outside sRGB"))
        let image = try PNG.read(contentsOf: highlighted)
        #expect(image.colorSpace == .displayP3 && image.width == 128 && image.height == 64)
    }

    @Test func wideGamutCountsPixelsOutsideSRGB() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Left half Display P3 pure red, whose linear sRGB is (1.2249, −0.0421, −0.0196) (P3→sRGB matrix,
        // color-science spec §2.2): outside sRGB. Right half P3 mid grey, which is sRGB grey: inside.
        let picture = UInt16Image(width: 40, height: 10, channels: 3) { x, _, c in
            x < 20 ? (c == 0 ? 65535 : 0) : 30000
        }
        let input = dir.appendingPathComponent("p3.png").path, output = dir.appendingPathComponent("out.png").path
        try PNG.write(PNGImage(pixels: picture, colorSpace: .displayP3), to: input)
        let result = try CLIRunner.run(["image", "wide-gamut", input, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["outside"] as? Int == 200)
        #expect(report?["total"] as? Int == 400)
        #expect(report?["percent"] as? Double == 50)
    }

    @Test func badInputIsOneLineNamingTheFileOrOption() throws {
        let missing = try CLIRunner.run(["image", "scan", "no-such-photo.png", "out.png"])
        #expect(missing.status == 2 && missing.stderr.contains("no-such-photo.png"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let clip = try CLIRunner.run(["image", "scan", "no-such-photo.png", "out.png", "--clip", "abc"])
        #expect(clip.status == 2 && clip.stderr.contains("--clip"))
        let color = try CLIRunner.run(["image", "blend", "a.png", "b.png", "c.png", "--color", "mauve"])
        #expect(color.status == 2 && color.stderr.contains("--color"))
    }
}
