import Foundation
import Testing

/// Runs the built `obscura` executable (next to the test bundle) and checks its output and exit code.
@Suite struct DevicesCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func executable() -> URL? {
        var dir = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("obscura")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        let debug = root.appendingPathComponent(".build/debug/obscura")
        return FileManager.default.isExecutableFile(atPath: debug.path) ? debug : nil
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let binary = try #require(Self.executable(), "build the obscura product first (swift build)")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = Self.root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }

    @Test func listsTheCatalogue() throws {
        let r = try run(["devices"])
        #expect(r.status == 0)
        #expect(r.out.contains("iphone-15-pro (default)  iPhone 15 Pro"))
        #expect(r.out.contains("ipad-10th-gen  iPad (10th generation)"))
        #expect(r.out.contains("no flash, no depth, no Constant Color"))
    }

    @Test func showPrintsSortedJSON() throws {
        let r = try run(["devices", "show", "iphone-7-plus", "--json"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
        #expect(json?["id"] as? String == "iphone-7-plus")
        #expect(r.out.contains("\"320x240 hdis,fdis,hdep,fdep ≤24 fps\""))
        // Sorted keys: "cameras" precedes "family", which precedes "id".
        let c = try #require(r.out.range(of: "\"cameras\""))
        let i = try #require(r.out.range(of: "\"id\" : \"iphone-7-plus\""))
        #expect(c.lowerBound < i.lowerBound)
    }

    @Test func showUnknownDeviceIsBadInput() throws {
        let r = try run(["devices", "show", "iphone-7-pluss"])
        #expect(r.status == 2)
        #expect(r.err.contains("did you mean 'iphone-7-plus'?"))
    }

    @Test func lintCatalogueIsClean() throws {
        let r = try run(["devices", "lint"])
        #expect(r.status == 0)
        #expect(r.out.contains("no problems"))
    }

    @Test func lintReportsLocatedProblemsAndExitsOne() throws {
        let file = "Tests/DevicesTests/Broken/lint-baseline.yaml"
        let r = try run(["devices", "lint", file])
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("\(file):68:20: cameras[2] (back-dual).depth.baseline_mm: "))
    }
}
