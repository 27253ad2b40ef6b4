import Foundation
import Testing

/// The lane-wise vector operators of `Imaging/Lanes+Arithmetic.swift` apply only in files that import Imaging
/// themselves: a file doing vector arithmetic without that import silently falls back to the standard library's
/// generic operators, which an unoptimised build runs lane by lane in loops. Scenes, Sensor and ISP hold the pixel and
/// ray loops, so each of their files that names these vector types imports Imaging.
struct LaneArithmeticImportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func vectorArithmeticFilesImportImaging() throws {
        let vectorNames = ["SIMD2<Double>", "SIMD3<Double>", "SIMD4<Float>", "Vector3", "SIMD2(", "SIMD3(", "SIMD4("]
        var missing: [String] = []
        var checked = 0
        for target in ["Scenes", "Sensor", "ISP"] {
            let folder = Self.root.appendingPathComponent("Sources").appendingPathComponent(target)
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let url as URL in files where url.pathExtension == "swift" {
                let source = try String(contentsOf: url, encoding: .utf8)
                guard vectorNames.contains(where: source.contains) else { continue }
                checked += 1
                let imports = source.split(separator: "\n").contains { $0.hasPrefix("import Imaging") }
                if !imports { missing.append(String(url.path.dropFirst(Self.root.path.count + 1))) }
            }
        }
        #expect(checked > 50, "the renderer and ISP use vectors in dozens of files")
        let list = missing.joined(separator: "\n")
        #expect(missing.isEmpty, "files doing vector arithmetic without `import Imaging`:\n\(list)")
    }
}
