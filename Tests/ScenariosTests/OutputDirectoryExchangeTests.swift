import Foundation
import Scenarios
import Testing

/// `--force` exchanges an earlier run's entries around the user's own; what it leaves behind when a
/// path was prepared for a writer that never wrote (found by the output fuzz target).
@Suite struct OutputDirectoryExchangeTests {
    @Test func aPreparedPathNeverWrittenIsNoEntry() throws {
        let fm = FileManager.default
        let sandbox = NSTemporaryDirectory() + "obscura-exchange-\(UUID())"
        defer { try? fm.removeItem(atPath: sandbox) }
        let destination = sandbox + "/out"
        try fm.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let manifest = #"{"entries": ["report.json", "old.png"], "obscura_output_manifest": 1}"#
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: destination + "/.obscura-manifest.json"))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: destination + "/notes.txt"))
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: destination + "/old.png"))
        let output = try OutputDirectory(path: destination, force: true)
        try output.write([1, 2, 3], to: "report.json")
        _ = try output.preparedPath(for: "movie.mov")  // a writer that never wrote
        try output.commit()
        #expect(try fm.contentsOfDirectory(atPath: sandbox) == ["out"])
        let names = try fm.contentsOfDirectory(atPath: destination).sorted()
        #expect(names == [".obscura-manifest.json", "notes.txt", "report.json"], "\(names)")
        let written = try String(contentsOfFile: destination + "/.obscura-manifest.json", encoding: .utf8)
        #expect(!written.contains("movie.mov") && written.contains("report.json"))
        #expect(try String(contentsOfFile: destination + "/notes.txt", encoding: .utf8) == "mine")
    }
}
