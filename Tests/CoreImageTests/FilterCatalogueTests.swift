import CoreImage
import Foundation
import Testing

/// The Core Image filters article and the filters `CIFilter(name:)` knows list the same names.
@Suite struct FilterCatalogueTests {
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Obscura/Obscura.docc/CoreImageFilters.md")

    /// The filter names in the first column of the article's tables.
    static func documentedNames() throws -> Set<String> {
        let text = try String(contentsOf: article, encoding: .utf8)
        var names: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `CI") {
            let firstColumn = line.split(separator: "|")[0]
            for part in firstColumn.split(separator: "`") where part.hasPrefix("CI") { names.insert(String(part)) }
        }
        return names
    }

    @Test func theArticleListsExactlyTheFiltersThereAre() throws {
        let documented = try Self.documentedNames()
        let known = Set(CIFilter.filterNames(inCategory: nil))
        #expect(
            documented.subtracting(known).isEmpty, "documented but unknown: \(documented.subtracting(known).sorted())")
        #expect(
            known.subtracting(documented).isEmpty, "known but undocumented: \(known.subtracting(documented).sorted())")
        for name in known { #expect(CIFilter(name: name) != nil, "\(name)") }
        #expect(known.count >= 70)
    }
}
