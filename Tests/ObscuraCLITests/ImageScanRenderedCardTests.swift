import Foundation
import Imaging
import Testing

/// `obscura image scan` on cards photographed through a device's physics: scenes of our own rendered by
/// `obscura render` (the photo pipeline, with its lens distortion, noise and Exif) and scanned as a user would. The
/// truth is each card's size in its scene file, never a number the scanner produced.
@Suite struct ImageScanRenderedCardTests {
    /// A card lying on a surface, seen at an angle, and its true width over height.
    struct Card: CustomTestStringConvertible, Sendable {
        var name: String
        var scene: String
        var aspect: Double
        var testDescription: String { name }
    }

    /// A cream greeting card, 0.12 × 0.15 m (0.80), turned −20° on a dark slate desk in window daylight, seen from
    /// 0.43 m, about 50° off the vertical and to the side.
    static let greetingCard = Card(
        name: "greeting card", scene: """
            description: A cream greeting card lying turned on a dark slate desk in window daylight.
            device:
              position_m: [0.12, 0.32, 0.26]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {illuminant: D65}
              lux: 400
              direction: [-0.3, 1.0, 0.4]
              diffuse_fraction: 0.7
            materials:
              - {name: slate, srgb: [0.16, 0.17, 0.19], roughness: 0.7}
              - {name: card stock, srgb: [0.90, 0.87, 0.80], roughness: 0.9}
            objects:
              - {name: desk, shape: plane, size_m: [1.2, 0.9], rotation: {pitch_deg: -90}, material: slate}
              - {name: card, shape: plane, size_m: [0.12, 0.15], position_m: [0.0, 0.001, 0.0],
                 rotation: {yaw_deg: -20, pitch_deg: -90}, material: card stock}
            """, aspect: 0.12 / 0.15)

    /// A sheet of A4 paper, 0.210 × 0.297 m (1/√2 wide for its height), turned −15° on green felt under a
    /// tungsten desk lamp and a dim warm room light, seen from 0.66 m at the other side.
    static let a4Sheet = Card(
        name: "A4 sheet", scene: """
            description: An A4 sheet of white paper on green felt under a desk lamp, photographed from the side.
            device:
              position_m: [-0.30, 0.50, 0.32]
              look_at_m: [0.0, 0.0, 0.0]
            ambient:
              spectrum: {cct_k: 3500}
              lux: 80
              direction: [0.2, 1.0, 0.3]
              diffuse_fraction: 0.8
            lights:
              - {name: desk lamp, type: point, spectrum: {illuminant: A}, intensity_cd: 120,
                 position_m: [0.35, 0.55, -0.15]}
            materials:
              - {name: felt, srgb: [0.12, 0.32, 0.18], roughness: 0.95}
              - {name: paper, srgb: [0.92, 0.92, 0.90], roughness: 0.9}
            objects:
              - {name: felt, shape: plane, size_m: [1.6, 1.2], rotation: {pitch_deg: -90}, material: felt}
              - {name: sheet, shape: plane, size_m: [0.210, 0.297], position_m: [0.0, 0.001, 0.0],
                 rotation: {yaw_deg: -15, pitch_deg: -90}, material: paper}
            """, aspect: 0.210 / 0.297)

    static let cards = [greetingCard, a4Sheet]

    /// A glossy 0.10 × 0.15 m print on a varnished table under a bare bulb. The camera looks from C = (0.10, 0.30,
    /// 0.22) m; the bulb sits on the line from C's mirror image in the table, (0.10, −0.30, 0.22), through the middle
    /// of the print's right edge, (0.05, 0, 0), 1.2 times that far again beyond it: the law of reflection puts the
    /// bulb's highlight on that edge, in the print and in the varnish around it.
    static func glossyPrint(lamp: Bool) -> String {
        """
        description: A glossy print on a varnished table, a bare bulb mirrored in the print's edge.
        device:
          position_m: [0.10, 0.30, 0.22]
          look_at_m: [0.0, 0.0, 0.0]
        ambient:
          spectrum: {cct_k: 4000}
          lux: 150
          direction: [0.0, 1.0, 0.2]
          diffuse_fraction: 0.8
        \(lamp ? """
        lights:
          - {name: bulb, type: point, spectrum: {illuminant: A}, intensity_cd: 100, position_m: [-0.01, 0.36, -0.264]}
        """ : "")
        materials:
          - {name: varnished oak, srgb: [0.30, 0.18, 0.10], specular: 0.05, roughness: 0.15}
          - {name: glossy print, srgb: [0.85, 0.84, 0.82], specular: 0.05, roughness: 0.08}
        objects:
          - {name: table, shape: plane, size_m: [1.2, 0.9], rotation: {pitch_deg: -90}, material: varnished oak}
          - {name: print, shape: plane, size_m: [0.10, 0.15], position_m: [0.0, 0.001, 0.0],
             rotation: {pitch_deg: -90}, material: glossy print}
        """
    }

    /// The true ratio of `glossyPrint`.
    static let glossyPrintAspect = 0.10 / 0.15

    /// Renders `scene` through the default device's wide camera at 640 × 480 into `name` in `dir` (the extension
    /// chooses PNG, JPEG or HEIC) and returns its path.
    static func photograph(_ scene: String, as name: String, in dir: URL) throws -> String {
        let sceneFile = dir.appendingPathComponent("scene-\(UUID().uuidString).yaml")
        try scene.write(to: sceneFile, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent(name).path
        let result = try CLIRunner.run(["render", sceneFile.path, "--size", "640x480", "--seed", "3", "--out", out])
        try #require(result.status == 0, "\(result.stderr)")
        return out
    }

    /// The scan's JSON report of `photo`.
    static func scan(_ photo: String, in dir: URL) throws -> [String: Any] {
        let result = try CLIRunner.run(["image", "scan", photo, dir.appendingPathComponent("scan.png").path, "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// How far a scanned ratio is from the true one, whichever way round the card lies in the picture.
    static func relativeError(_ ratio: Double, truth: Double) -> Double {
        let upright = (ratio < 1) == (truth < 1) ? ratio : 1 / ratio
        return abs(upright / truth - 1)
    }

    /// A PNG that records nothing of its camera: the rendered picture written again without its text chunks.
    @Test(arguments: cards)
    func pngWithoutIntrinsicsGivesTheTrueAspect(card: Card) throws {
        let dir = try ImageCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rendered = try PNG.read(contentsOf: try Self.photograph(card.scene, as: "photo.png", in: dir))
        #expect(rendered.textValue(forKey: "Obscura.Intrinsics") != nil)
        let bare = dir.appendingPathComponent("bare.png").path
        guard case .eightBit(let pixels) = rendered.pixels else {
            Issue.record("an 8-bit photo")
            return
        }
        try PNG.write(PNGImage(pixels: pixels, colorSpace: rendered.colorSpace), to: bare)
        let report = try Self.scan(bare, in: dir)
        // The card is turned about both axes, so the corners fix the focal length (Zhang & He 2007, §3).
        #expect(report["aspect_ratio_method"] as? String == "estimated-focal")
        let ratio = try #require(report["aspect_ratio"] as? Double)
        #expect(Self.relativeError(ratio, truth: card.aspect) < 0.02, "\(card.name): \(ratio)")
    }

    /// A phone's JPEG: the focal length comes from its Exif.
    @Test(arguments: cards)
    func jpegWithExifGivesTheTrueAspect(card: Card) throws {
        let dir = try ImageCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try Self.scan(try Self.photograph(card.scene, as: "photo.jpg", in: dir), in: dir)
        #expect(report["aspect_ratio_method"] as? String == "exif")
        let ratio = try #require(report["aspect_ratio"] as? Double)
        #expect(Self.relativeError(ratio, truth: card.aspect) < 0.02, "\(card.name): \(ratio)")
    }

    /// A phone's HEIC: the picture decoded through libheif, the focal length from the file's `Exif` item.
    @Test(.needs(.libheif), arguments: cards)
    func heicWithExifGivesTheTrueAspect(card: Card) throws {
        let dir = try ImageCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let photo = try Self.photograph(card.scene, as: "photo.heic", in: dir)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: photo))[4..<8]) == Array("ftyp".utf8))
        let report = try Self.scan(photo, in: dir)
        #expect(report["aspect_ratio_method"] as? String == "exif")
        let ratio = try #require(report["aspect_ratio"] as? Double)
        #expect(Self.relativeError(ratio, truth: card.aspect) < 0.02, "\(card.name): \(ratio)")
    }

    /// A lamp's glare on the print's edge: the same print photographed without the bulb gives the edges; with it,
    /// clipped pixels lie on one of those edges, inside and outside the print. The scan still finds the print, its
    /// ratio within 2 %, and says which method gave the ratio.
    @Test func glareTouchingAnEdgeStillGivesThePrint() throws {
        let dir = try ImageCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let unlit = try Self.scan(try Self.photograph(Self.glossyPrint(lamp: false), as: "unlit.png", in: dir), in: dir)
        let photo = try Self.photograph(Self.glossyPrint(lamp: true), as: "glare.png", in: dir)
        let image = try PNG.read(contentsOf: photo)
        guard case .eightBit(let pixels) = image.pixels else {
            Issue.record("an 8-bit photo")
            return
        }
        // The unlit print's corners in pixels (the report's are normalised with the origin at the bottom left).
        let corners = try #require(unlit["corners"] as? [[Double]]).map {
            SIMD2($0[0] * Double(image.width), (1 - $0[1]) * Double(image.height))
        }
        try #require(corners.count == 4)
        /// Signed distance of a point from the edge a → b (positive on the print's side) and whether it lies
        /// between the edge's ends.
        func edgeDistance(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>, inside: SIMD2<Double>)
            -> (distance: Double, along: Bool)
        {
            let d = b - a, length = (d * d).sum().squareRoot()
            let normal = SIMD2(-d.y, d.x) / length
            let side: Double = ((inside - a) * normal).sum() > 0 ? 1 : -1
            let t = ((p - a) * d).sum() / (length * length)
            return (side * ((p - a) * normal).sum(), t > 0.1 && t < 0.9)
        }
        let centre = corners.reduce(SIMD2<Double>.zero, +) / 4
        var (insideEdge, outsideEdge) = (0, 0)
        for y in 0..<pixels.height {
            for x in 0..<pixels.width where (0..<3).allSatisfy({ pixels[x, y, $0] >= 250 }) {
                let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                for i in 0..<4 {
                    let (distance, along) = edgeDistance(p, corners[i], corners[(i + 1) % 4], inside: centre)
                    guard along else { continue }
                    if (0..<4).contains(distance) { insideEdge += 1 }
                    if (-4 ..< 0).contains(distance) { outsideEdge += 1 }
                }
            }
        }
        #expect(insideEdge > 10 && outsideEdge > 10, "clipped beside an edge: \(insideEdge) in, \(outsideEdge) out")
        let report = try Self.scan(photo, in: dir)
        let ratio = try #require(report["aspect_ratio"] as? Double)
        #expect(report["aspect_ratio_method"] as? String == "intrinsics")
        #expect(Self.relativeError(ratio, truth: Self.glossyPrintAspect) < 0.02, "\(ratio)")
        let text = try CLIRunner.run(["image", "scan", photo, dir.appendingPathComponent("scan.png").path])
        #expect(text.stdout.contains("method intrinsics: from the camera intrinsics"), "\(text.stdout)")
    }
}
