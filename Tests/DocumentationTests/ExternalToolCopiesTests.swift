import Foundation
import Testing

/// Test targets cannot share code, so each target whose tests need an external tool keeps its own copy
/// of `ExternalTool.swift` (the skip, and the failure under `OBSCURA_REQUIRE_TOOLS=1`); the copies must
/// not drift apart. Each target lists its tools in `ExternalTool+Catalogue.swift` instead.
struct ExternalToolCopiesTests {
    @Test func everyCopyIsTheSame() throws {
        let tests = SpecCitationTests.root.appendingPathComponent("Tests")
        let targets = try FileManager.default.contentsOfDirectory(atPath: tests.path).sorted()
        var copies: [String: Data] = [:]
        for target in targets {
            let url = tests.appendingPathComponent(target).appendingPathComponent("ExternalTool.swift")
            if let data = FileManager.default.contents(atPath: url.path) { copies[target] = data }
        }
        #expect(copies.keys.sorted() == ["DropInTests", "ImagingTests", "ObscuraAVTests", "ObscuraCLITests"])
        let first = try #require(copies.values.first)
        for (target, data) in copies.sorted(by: { $0.key < $1.key }) {
            #expect(data == first, "Tests/\(target)/ExternalTool.swift differs from the other copies")
        }
    }
}
