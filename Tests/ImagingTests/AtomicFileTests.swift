import Foundation
import Imaging
import Testing

@Suite struct AtomicFileTests {
    @Test func writesANewFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        try AtomicFile.write([1, 2, 3], to: "\(directory.path)/new.bin")
        #expect(FileManager.default.contents(atPath: "\(directory.path)/new.bin") == Data([1, 2, 3]))
        #expect(try directory.contents() == ["new.bin"])
    }

    @Test func replacesAnExistingFileWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/out.bin"
        try AtomicFile.write([UInt8](repeating: 7, count: 10_000), to: path)
        try AtomicFile.write([9, 9], to: path)
        #expect(FileManager.default.contents(atPath: path) == Data([9, 9]))
        #expect(try directory.contents() == ["out.bin"])
    }

    @Test func missingDirectoryFailsAndLeavesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/absent/out.png"
        #expect(throws: AtomicFileError.self) { try AtomicFile.write([1], to: path) }
        #expect(try directory.contents().isEmpty)
        #expect(throws: PNGError.self) { try PNG.write(PNGImage(pixels: sampleImage()), to: path) }
        #expect(try directory.contents().isEmpty)
    }

    @Test func failedRenameRemovesTheTemporaryFile() throws {
        // A non-empty directory at the destination makes rename(2) fail after the data was written.
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let blocker = "\(directory.path)/out.png"
        try FileManager.default.createDirectory(atPath: blocker, withIntermediateDirectories: false)
        try AtomicFile.write([0], to: "\(blocker)/keep")
        do {
            try AtomicFile.write([1, 2, 3], to: blocker)
            Issue.record("writing over a directory succeeded")
        } catch {
            #expect(error.path == blocker)
            #expect(error.description.contains(blocker))
        }
        #expect(try directory.contents() == ["out.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocker) == ["keep"])
    }

    @Test func encodingFailureWritesNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let path = "\(directory.path)/bad.png"
        let fiveChannels = PNGImage(pixels: UInt8Image(width: 2, height: 2, channels: 5))
        #expect(throws: PNGError.self) { try PNG.write(fiveChannels, to: path) }
        #expect(try directory.contents().isEmpty)
    }
}
