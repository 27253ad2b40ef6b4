import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `obscura run --shard i/n` and `obscura report merge`: a suite split over CI jobs and joined again.
struct ShardTests {
    /// The scenario names listed by a folder's report.json.
    static func names(inReport path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return list.compactMap { ($0["scenario"] as? [String: Any])?["name"] as? String }
    }

    @Test func tenScenariosOverThreeShardsRunEachExactlyOnceAndMergeIntoOneReport() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Written in an order unlike their sorted order, and passed shuffled: the shares depend on the
        // sorted paths only.
        let names = (0..<10).map { "case-\($0)" }
        var files: [String] = []
        for name in names.reversed() {
            files.append(try RunCommandTests.write(RunCommandTests.small, in: dir, name: name + ".scenario.yaml"))
        }
        let sorted = files.sorted()
        var seen: [String] = []
        for shard in 1...3 {
            let out = dir.appendingPathComponent("shard\(shard)").path
            let result = try CLIRunner.run(
                ["run"] + files.shuffled() + ["--shard", "\(shard)/3", "--out", out,
                                              "--junit", dir.appendingPathComponent("shard\(shard).xml").path])
            try #require(result.status == 0, "\(result.stderr)")
            let ran = try Self.names(inReport: out + "/report.json")
            // Sorted by path, then every third from position shard - 1.
            let expected = sorted.enumerated().filter { $0.offset % 3 == shard - 1 }.map {
                URL(fileURLWithPath: $0.element).lastPathComponent.replacingOccurrences(of: ".scenario.yaml", with: "")
            }
            #expect(ran.sorted() == expected.sorted())
            #expect(ran.count == (shard == 1 ? 4 : 3))
            for name in ran {
                #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)/report.html"))
            }
            let junit = try XMLDocument(contentsOf: dir.appendingPathComponent("shard\(shard).xml"), options: [])
            #expect(junit.rootElement()?.elements(forName: "testsuite").count == ran.count)
            seen += ran
        }
        #expect(seen.sorted() == names.sorted())

        let merged = dir.appendingPathComponent("all").path
        let merge = try CLIRunner.run(
            ["report", "merge", merged] + (1...3).map { dir.appendingPathComponent("shard\($0)").path })
        try #require(merge.status == 0, "\(merge.stderr)")
        #expect(try Self.names(inReport: merged + "/report.json") == names.sorted())
        let junit = try XMLDocument(contentsOf: URL(fileURLWithPath: merged + "/junit.xml"), options: [])
        let root = try #require(junit.rootElement())
        #expect(root.elements(forName: "testsuite").count == 10)
        #expect(root.attribute(forName: "tests")?.stringValue == "10")
        #expect(root.attribute(forName: "failures")?.stringValue == "0")
        let index = try String(contentsOfFile: merged + "/report.html", encoding: .utf8)
        for name in names {
            #expect(index.contains("href=\"\(name)/report.html\""))
            #expect(FileManager.default.fileExists(atPath: "\(merged)/\(name)/report.html"))
            #expect(FileManager.default.fileExists(atPath: "\(merged)/\(name)/report.json"))
        }

        // The same scenarios twice would be counted twice: refused.
        let twice = try CLIRunner.run(
            ["report", "merge", dir.appendingPathComponent("twice").path,
             dir.appendingPathComponent("shard1").path, dir.appendingPathComponent("shard1").path])
        #expect(twice.status == 2)
        #expect(twice.stderr.hasPrefix("error: "))
        #expect(twice.stderr.contains("both hold scenario"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("twice").path))

        // Last, as it ends the test where xmllint is missing.
        try JUnitReportTests.validateWithXmllint(merged + "/junit.xml")
    }

    // The merged report lists the scenarios in the order one run of all the files does (their paths, byte by
    // byte), not by name: "pair-b.scenario.yaml" sorts before "pair.scenario.yaml" though "pair" < "pair-b".
    @Test func aMergeKeepsTheOrderOfOneRun() throws {
        let dir = RunCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try ["pair", "pair-b"].map {
            try RunCommandTests.write(RunCommandTests.small, in: dir, name: $0 + ".scenario.yaml")
        }
        let whole = dir.appendingPathComponent("whole").path
        try #require(try CLIRunner.run(["run"] + files + ["--shard", "1/1", "--out", whole]).status == 0)
        var shards: [String] = []
        for shard in 1...2 {
            shards.append(dir.appendingPathComponent("shard\(shard)").path)
            let run = try CLIRunner.run(["run"] + files + ["--shard", "\(shard)/2", "--out", shards[shard - 1]])
            try #require(run.status == 0, "\(run.stderr)")
        }
        let merged = dir.appendingPathComponent("merged").path
        try #require(try CLIRunner.run(["report", "merge", merged] + shards.reversed()).status == 0)
        #expect(try Self.names(inReport: whole + "/report.json") == ["pair-b", "pair"])
        #expect(try Self.names(inReport: merged + "/report.json") == ["pair-b", "pair"])
    }

    @Test func badShardIsAUsageError() throws {
        for bad in ["0/3", "4/3", "1/0", "x", "1/2/3"] {
            let result = try CLIRunner.run(["run", "Scenes/constant-color.scenario.yaml", "--shard", bad])
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.hasPrefix("error: "), "\(bad)")
        }
    }
}
