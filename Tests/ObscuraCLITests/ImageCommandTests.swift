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

    /// A 0.80 card tilted 25° back and turned 15°, drawn through a pinhole camera (fx = fy = 600, principal point at
    /// the centre of 640 × 480): its corners projected in closed form, the card filled through the plane's homography.
    static func tiltedCard(camera: (fx: Double, fy: Double, cx: Double, cy: Double)) throws -> UInt8Image {
        let pitch = 25 * Double.pi / 180, yaw = 15 * Double.pi / 180
        let corners: [SIMD2<Double>] = [(-0.4, -0.5), (0.4, -0.5), (0.4, 0.5), (-0.4, 0.5)].map { x, y in
            // Turn about x, then about y, then place 2.6 units ahead; project.
            let a = SIMD3(x, cos(pitch) * y, sin(pitch) * y)
            let p = SIMD3(cos(yaw) * a.x + sin(yaw) * a.z, a.y, -sin(yaw) * a.x + cos(yaw) * a.z) + SIMD3(0.05, 0, 2.6)
            return SIMD2(camera.fx * p.x / p.z + camera.cx, camera.fy * p.y / p.z + camera.cy)
        }
        let unit: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]
        let toCard = try #require(Homography(mapping: corners, to: unit))
        return UInt8Image(width: 640, height: 480, channels: 3) { x, y, c in
            let u = toCard.apply(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
            return (0..<1).contains(u.x) && (0..<1).contains(u.y) ? [235, 230, 220][c] : [90, 50, 25][c]
        }
    }

    @Test func scanKeepsTheTrueAspectRatioWithIntrinsics() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let card = try Self.tiltedCard(camera: (600, 600, 320, 240))
        let plain = dir.appendingPathComponent("plain.png").path
        try PNG.write(PNGImage(pixels: card, colorSpace: .sRGB), to: plain)
        // The intrinsics recorded in the file, as every Obscura photo records them.
        let tagged = dir.appendingPathComponent("tagged.png").path
        let text = [PNGText(key: "Obscura.Intrinsics", value: "600 600 320 240")]
        try PNG.write(PNGImage(pixels: card, colorSpace: .sRGB, text: text), to: tagged)
        func scan(_ arguments: [String]) throws -> (ratio: Double, method: String, image: PNGImage) {
            let output = dir.appendingPathComponent("scan.png").path
            let result = try CLIRunner.run(["image", "scan"] + arguments + [output, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (
                try #require(report?["aspect_ratio"] as? Double), try #require(report?["aspect_ratio_method"] as? String),
                try PNG.read(contentsOf: output)
            )
        }
        for arguments in [[plain, "--intrinsics", "600,600,320,240"], [tagged]] {
            let (ratio, method, image) = try scan(arguments)
            #expect(method == "intrinsics")
            #expect(abs(ratio / 0.8 - 1) < 0.02, "\(ratio)")
            #expect(abs(Double(image.width) / Double(image.height) / 0.8 - 1) < 0.02, "\(image.width)x\(image.height)")
        }
        // Without intrinsics, the focal length the quadrilateral implies (Zhang & He 2007, §3): the card is turned
        // about both axes, so the true ratio comes back, where the foreshortened edges read it 4 % wider.
        let (ratio, method, _) = try scan([plain])
        #expect(method == "estimated-focal")
        #expect(abs(ratio / 0.8 - 1) < 0.02, "\(ratio)")
        let bad = try CLIRunner.run(["image", "scan", plain, "out.png", "--intrinsics", "600,600,320"])
        #expect(bad.status == 2 && bad.stderr.contains("--intrinsics"))
    }

    /// A phone's JPEG carries no intrinsics text, only Exif: the 0.80 card seen by a 600 px focal length in 640 × 480
    /// is 32.45 mm equivalent (600 / 800 of the 43.27 mm film diagonal), which a phone writes rounded, 32 mm. The
    /// scan reads the focal length back from Exif and gets the card's ratio within 2 %; the rounding is the only error.
    @Test func scanReadsAJPEGWithItsExifFocalLength() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let card = try Self.tiltedCard(camera: (600, 600, 320, 240))
        let exif = ExifMetadata(
            make: "Apple", model: "iPhone", software: "test", orientation: 1, exposureTimeSeconds: 1 / 60.0,
            fNumber: 1.8, iso: 100, focalLengthMM: 5.7, focalLength35mmEquivalentMM: 32, flashFired: false,
            pixelWidth: 640, pixelHeight: 480, isSRGB: true)
        let jpeg = try JPEG.encode(card, quality: 92, segments: [JPEG.Segment(marker: 0xE1, data: exif.app1)])
        let input = dir.appendingPathComponent("photo.jpg")
        try Data(jpeg).write(to: input)
        let output = dir.appendingPathComponent("scan.png").path
        let result = try CLIRunner.run(["image", "scan", input.path, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["aspect_ratio_method"] as? String == "exif")
        let ratio = try #require(report?["aspect_ratio"] as? Double)
        #expect(abs(ratio / 0.8 - 1) < 0.02, "\(ratio)")
        let text = try CLIRunner.run(["image", "scan", input.path, output])
        #expect(text.stdout.contains("method exif"), "\(text.stdout)")
    }

    /// A desk lamp's reflection: a bright specular spot on the card that spills over its right edge onto the
    /// darker desk, so the bright region's outline bulges there. The consensus line fit keeps the straight run of
    /// that edge, and the card's corners and ratio come back (within 2 %, intrinsics known).
    @Test func scanFindsTheCardWhenGlareTouchesAnEdge() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let card = try Self.tiltedCard(camera: (600, 600, 320, 240))
        // The card's right edge runs near x = 470 at mid-height; the spot is centred on it.
        var column = 0
        for x in stride(from: 639, to: 0, by: -1) where card[x, 240, 0] > 200 {
            column = x
            break
        }
        try #require(column > 320)
        let (sx, sy, radius) = (Double(column), 230.0, 34.0)
        let glared = UInt8Image(width: 640, height: 480, channels: 3) { x, y, c in
            let d = ((Double(x) - sx) * (Double(x) - sx) + (Double(y) - sy) * (Double(y) - sy)).squareRoot()
            let spot = max(0, 1 - d / radius)
            let base = Double(card[x, y, c])
            return UInt8(min(255, base + (255 - base) * min(1, 1.6 * spot)))
        }
        let input = dir.appendingPathComponent("glare.png").path, output = dir.appendingPathComponent("scan.png").path
        try PNG.write(PNGImage(pixels: glared, colorSpace: .sRGB), to: input)
        let result = try CLIRunner.run(["image", "scan", input, output, "--json", "--intrinsics", "600,600,320,240"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect(report?["aspect_ratio_method"] as? String == "intrinsics")
        let ratio = try #require(report?["aspect_ratio"] as? Double)
        #expect(abs(ratio / 0.8 - 1) < 0.02, "\(ratio)")
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
