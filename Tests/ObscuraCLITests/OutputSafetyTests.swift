import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Where the commands' single-file outputs go: standard output for `-`, into FIFOs and character
/// devices without replacing them, never over a directory; failures are one `error:` line.
struct OutputSafetyTests {
    static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-out-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o170000
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test func dashWritesThePNGToStandardOutputAndTheSummaryToStandardError() throws {
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Array(result.stdoutBytes.prefix(8)) == Self.pngSignature)
        #expect(result.stderr.contains("32x24"))
    }

    @Test func imageTriangleToStandardOutput() throws {
        let result = try CLIRunner.run(["image", "triangle", "-", "--size", "16"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Array(result.stdoutBytes.prefix(8)) == Self.pngSignature)
    }

    @Test func twoOutputsOnStandardOutputAreRefused() throws {
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", "-", "--depth", "-"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: --out and --depth both name standard output"))
    }

    @Test func fifoIsWrittenIntoNotReplaced() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("picture").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader, as `obscura render --out fifo & consumer < fifo` would have.
        let received = Received()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            received.set([UInt8](FileHandle(forReadingAtPath: fifo)?.readDataToEndOfFile() ?? Data()))
            done.signal()
        }
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", fifo])
        if result.status != 0 {
            // Let the reader go if the command never opened the FIFO.
            let unblock = open(fifo, O_WRONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
        }
        done.wait()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Array(received.value.prefix(8)) == Self.pngSignature)
        #expect(Self.fileType(fifo) == 0o010000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["picture"])
    }

    @Test func devNullStaysACharacterDevice() throws {
        // First on a FIFO nobody reads but this test: only if that FIFO survives is /dev/null named, so this
        // test cannot itself turn /dev/null into a file when run as root against code that renames.
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let probe = dir.appendingPathComponent("probe").path
        #expect(mkfifo(probe, 0o600) == 0)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = FileHandle(forReadingAtPath: probe)?.readDataToEndOfFile()
            done.signal()
        }
        let probed = try CLIRunner.run(["image", "triangle", probe, "--size", "8"])
        if probed.status != 0 {
            let unblock = open(probe, O_WRONLY | O_NONBLOCK)
            if unblock >= 0 { close(unblock) }
        }
        done.wait()
        try #require(Self.fileType(probe) == 0o010000, "the FIFO was replaced; /dev/null is left alone")
        try #require(Self.fileType("/dev/null") == 0o020000)
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.fileType("/dev/null") == 0o020000)
        // /dev/stdout is a link to the command's standard output, a pipe here: written into, link kept.
        let linkType = Self.fileType("/dev/stdout")
        let piped = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", "/dev/stdout"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(Array(piped.stdoutBytes.prefix(8)) == Self.pngSignature)
        // The summary went to standard error, so standard output holds the PNG alone (it ends with IEND's CRC).
        #expect(Array(piped.stdoutBytes.suffix(8)) == [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        #expect(piped.stderr.contains("32x24"))
        #expect(Self.fileType("/dev/stdout") == linkType)
    }

    @Test func directoryDestinationIsOneLineError() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", dir.path])
        #expect(result.status == 3)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: \(dir.path): "))
        #expect(result.stderr.contains("directory"))
    }

    @Test func folderThatCannotBeCreatedIsOneLineErrorWithoutCocoaDump() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let blocker = dir.appendingPathComponent("file")
        try Data([1]).write(to: blocker)
        let out = blocker.appendingPathComponent("sub/x.png").path
        for arguments in [
            ["render", "chart-d65", "--size", "32x24", "--out", out],
            ["validate", "constant-color", "--quick", "--size", "112x84", "--html", out],
        ] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 3, "\(arguments[0]): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.hasPrefix("error: cannot create folder \(blocker.path)"), "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
    }

    @Test func pictureAndDepthAreWrittenAsASet() throws {
        let dir = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = dir.appendingPathComponent("photo.png").path
        try Data([7]).write(to: URL(fileURLWithPath: picture))
        // The depth map cannot be written (a folder holds its name): the picture must stay as it was.
        let blocked = dir.appendingPathComponent("depth.png")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        let result = try CLIRunner.run([
            "render", "chart-d65", "--size", "32x24", "--out", picture, "--depth", blocked.path,
        ])
        #expect(result.status == 3)
        #expect(FileManager.default.contents(atPath: picture) == Data([7]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["depth.png", "photo.png"])
    }

    @Test func hugeSizeIsRefusedWithTheLimit() throws {
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "16384x16384", "--out", "/dev/null"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("16777216 pixels"), "\(result.stderr)")
    }

    @Test func hugeTriangleIsRefusedWithTheLimit() throws {
        let result = try CLIRunner.run(["image", "triangle", "/dev/null", "--size", "8192"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("expected 8 to 2896 pixels"), "\(result.stderr)")
    }

    @Test func tinyValidateSizeIsRefused() throws {
        for extra in [[String](), ["--json"]] {
            let result = try CLIRunner.run(["validate", "constant-color", "--quick", "--size", "10x10"] + extra)
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("the least is 112x84"), "\(result.stderr)")
            #expect(!result.stdout.contains("nan"))
        }
    }

    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        func set(_ value: [UInt8]) { lock.withLock { bytes = value } }
        var value: [UInt8] { lock.withLock { bytes } }
    }
}

/// Inputs and sizes that would take unbounded memory or time are refused up front, with the bound named.
struct ResourceBoundTests {
    /// A PNG that declares `width` × `height` 16-bit RGBA pixels in a few dozen bytes: the signature
    /// and the header chunk, with nothing after (the size is refused before any data is needed).
    static func bomb(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for word in [width, height] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) } }
        bytes += [16, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data(bytes)
    }

    @Test(arguments: [["image", "wide-gamut"], ["image", "scan"]])
    func aPictureOverTheLimitIsRefusedBeforeDecoding(_ command: [String]) throws {
        let dir = OutputSafetyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("bomb.png")
        try Self.bomb(width: 11_000, height: 11_000).write(to: input)
        let started = Date()
        let result = try CLIRunner.run(command + [input.path, dir.appendingPathComponent("out.png").path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("over this command's limit of 50000000 pixels"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test func aSideOverTheEncodersLimitIsRefusedUpFront() throws {
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "16777216x1", "--out", "/dev/null"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("has a side over 65535 pixels"), "\(result.stderr)")
    }

    @Test func aFIFOWithNoReaderOrWriterIsRefusedAtOnce() throws {
        let dir = OutputSafetyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        let output = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", fifo])
        #expect(output.status == 3, "\(output.stderr)")
        #expect(output.stderr.contains("no process reads"), "\(output.stderr)")
        let input = try CLIRunner.run(["image", "scan", fifo, dir.appendingPathComponent("out.png").path])
        #expect(input.status == 2, "\(input.stderr)")
        #expect(input.stderr.contains("not a regular file"), "\(input.stderr)")
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(OutputSafetyTests.fileType(fifo) == 0o010000)
    }

    // A derived name follows its base's rules: depth sent to a device gets no companion beside it.
    @Test func depthToADeviceMakesNoCompanionBesideIt() throws {
        let result = try CLIRunner.run(["render", "chart-d65", "--size", "32x24", "--out", "/dev/null", "--depth", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-view.png"))
        #expect(OutputSafetyTests.fileType("/dev/null") == 0o020000)
    }

    /// An output that names an input is refused before anything is read or written, and the input stays.
    @Test func anOutputNamingAnInputIsRefused() throws {
        let folder = OutputSafetyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("in.png").path
        let made = try CLIRunner.run(["render", "chart-d65", "--size", "64x48", "--out", photo])
        #expect(made.status == 0, "\(made.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: photo))
        for arguments in [["image", "wide-gamut", photo, photo], ["image", "scan", photo, photo]] {
            let result = try CLIRunner.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("replace what is read"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: photo)) == before)

        let scenario = folder.appendingPathComponent("one.scenario.yaml")
        try FileManager.default.copyItem(
            at: CLIRunner.repositoryRoot.appendingPathComponent("Scenes/constant-color.scenario.yaml"), to: scenario)
        let text = try Data(contentsOf: scenario)
        let run = try CLIRunner.run([
            "run", scenario.path, "--out", folder.appendingPathComponent("out").path, "--junit", scenario.path,
        ])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(try Data(contentsOf: scenario) == text)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    /// The world variables are for tests that make no Obscura calls; the command line's scenarios name their
    /// own world, so a value meant for such tests (even one naming nothing) neither stops nor changes a run.
    @Test func worldVariablesDoNotReachTheCommandLine() throws {
        let folder = OutputSafetyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run(
            ["run", "Scenes/constant-color.scenario.yaml", "--out", folder.appendingPathComponent("o").path],
            environment: ["OBSCURA_DEVICE": "no-such-phone", "OBSCURA_SEED": "abc", "OBSCURA_CLOCK": "sundial"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// Two saves of one run bound for one file are an error, and the run writes nothing.
    @Test func twoSavesOfOneNameAreRefused() throws {
        let folder = OutputSafetyTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("twice.scenario.yaml")
        try """
        description: Two photos saved under one name.
        steps:
          - begin
          - session: {preset: vga640x480}
          - input: {type: builtInWideAngleCamera, position: back}
          - output: photo
          - commit
          - start
          - capture: {flashMode: off}
            save: [{photo: same.png}]
          - capture: {flashMode: off}
            save: [{photo: same.png}]
        """.write(to: scenario, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("out")
        let result = try CLIRunner.run(["run", scenario.path, "--out", out.path])
        #expect(result.status != 0, "\(result.stdout)")
        #expect(result.stderr.contains("written twice"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
