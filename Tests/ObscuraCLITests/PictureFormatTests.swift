import ExternalTools
import Foundation
import Testing

/// `render --out` writes the format its extension names; `--format` overrides it; a scenario's `save:`
/// can ask for JPEG or HEIC.
struct PictureFormatTests {
    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    static let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF]
    static let pngStart: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    /// Whether `bytes` is an ISO base media file whose brand is HEIC (`ftypheic`).
    static func isHEIC(_ bytes: [UInt8]) -> Bool {
        bytes.count > 12 && Array(bytes[4..<12]) == Array("ftypheic".utf8)
    }

    @Test func theExtensionChoosesTheCodec() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let jpeg = dir.appendingPathComponent("v.jpg").path
        let result = try CLIRunner.run(["render", "violets-warm-room", "--size", "64x48", "--out", jpeg, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Array(try Self.bytes(jpeg).prefix(3)) == Self.jpegStart)
        #expect(result.stdout.contains("\"format\" : \"jpeg\""), "\(result.stdout)")
        // --format wins over the extension.
        let forced = dir.appendingPathComponent("forced.jpg").path
        let png = try CLIRunner.run(["render", "violets-warm-room", "--size", "64x48", "--out", forced, "--format", "png"])
        #expect(png.status == 0, "\(png.stderr)")
        #expect(Array(try Self.bytes(forced).prefix(4)) == Self.pngStart)
        // exiftool reads the JPEG: its size and the camera that took it.
        let exiftool = try ExternalTool.exiftool.require()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exiftool)
        process.arguments = ["-s3", "-FileType", "-ImageWidth", "-Model", jpeg]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n").map(String.init) == ["JPEG", "64", "iPhone 15 Pro"], "\(text)")
    }

    @Test func anUnknownExtensionIsRefusedNamingTheFormats() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gif = dir.appendingPathComponent("v.gif").path
        let result = try CLIRunner.run(["render", "violets-warm-room", "--size", "64x48", "--out", gif])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: --out \(gif): cannot write '.gif' pictures"), "\(result.stderr)")
        #expect(result.stderr.contains("png (.png), jpeg (.jpg, .jpeg)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gif))
    }

    @Test func heicWhereLibheifCanEncode() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let heic = dir.appendingPathComponent("v.heic").path
        let result = try CLIRunner.run(["render", "violets-warm-room", "--size", "64x48", "--out", heic])
        if result.status == 0 {
            #expect(Self.isHEIC(try Self.bytes(heic)))
        } else {
            // No HEVC encoder here: refused up front, naming what can be written.
            #expect(result.status == 2)
            #expect(result.stderr.contains("heic cannot be written here"), "\(result.stderr)")
        }
    }

    @Test func aScenarioSavesTheFormatItAsksFor() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try RunCommandTests.write(
            """
            steps:
              - begin
              - session: {preset: photo}
              - input: {type: builtInWideAngleCamera, position: back}
              - output: photo
              - commit
              - lock
              - device: {format: {width: 640, height: 480}}
              - unlock
              - start
              - capture: {flashMode: off}
                save: [{photo: photos/p.jpg}, {photo: photos/q.png, format: png}]

            """, in: dir)
        let out = dir.appendingPathComponent("out").path
        let result = try CLIRunner.run(["run", file, "--out", out])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(Array(try Self.bytes(out + "/photos/p.jpg").prefix(3)) == Self.jpegStart)
        #expect(Array(try Self.bytes(out + "/photos/q.png").prefix(4)) == Self.pngStart)
        // A format and an extension that disagree are refused where they are written.
        let clash = try RunCommandTests.write(
            "steps:\n  - begin\n  - capture: {flashMode: off}\n    save: [{photo: p.png, format: jpeg}]\n", in: dir,
            name: "clash.scenario.yaml")
        let refused = try CLIRunner.run(["run", clash, "--out", dir.appendingPathComponent("clash").path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("clash.scenario.yaml:4:20: "), "\(refused.stderr)")
        #expect(refused.stderr.contains("output path 'p.png' must end in .jpg or .jpeg"), "\(refused.stderr)")
    }
}
