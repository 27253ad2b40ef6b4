import Foundation
import Testing

/// Every capture-rule citation in `Sources/` must resolve in the Capture rules article of the DocC
/// catalogue, the same check as `tools/check-spec-citations.py`.
///
/// A citation is `spec §3.2`, `spec §3.2 rule 24`, `spec §13 N18` or `spec §10 step 1`, any `§`
/// reference chained to one (`spec §2.7, §3.1, §13 N3`), or a string literal starting with `§`
/// (what traces and rule records name at run time). A section resolves when a heading starts with
/// its number; a rule, item or step when the section's text holds its bold label (`**Rule 24**`).
struct SpecCitationTests {
    /// The package root, three levels above this file (`Tests/DocumentationTests/<file>`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let article = "Sources/Obscura/Obscura.docc/CaptureRules.md"

    @Test func everyCitationInSourcesResolves() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(Self.article), encoding: .utf8)
        let owned = try CitationIndex.sections(of: text)
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var problems: [String] = []
        var count = 0
        for case let url as URL in files where ["swift", "c", "h"].contains(url.pathExtension) {
            let source = try String(contentsOf: url, encoding: .utf8)
            for citation in try CitationIndex.citations(in: source) {
                count += 1
                if let problem = CitationIndex.problem(with: citation, in: owned) {
                    problems.append("\(url.path.dropFirst(Self.root.path.count + 1)):\(citation.line): \(problem)")
                }
            }
        }
        #expect(count > 100, "the sources cite the capture rules hundreds of times")
        #expect(problems.isEmpty, "dangling citations:\n\(problems.joined(separator: "\n"))")
    }

    @Test func chainedCitationsCount() throws {
        let found = try CitationIndex.citations(in: "// A flashless camera (spec §2.7 [D], §3.1, §13 N3).")
        #expect(found.map(\.section) == ["2.7", "3.1", "13"])
        #expect(found.map(\.label) == [nil, nil, "N3"])
    }

    @Test func rulesAndStepsAreLabels() throws {
        let found = try CitationIndex.citations(in: "// spec §3.2 rule 24\n// (spec §10 step 3)")
        #expect(found.map(\.label) == ["Rule 24", "Step 3"])
        #expect(found.map(\.line) == [1, 2])
    }

    @Test func runTimeSectionsAreCitations() throws {
        let found = try CitationIndex.citations(in: #"CaptureRule("§1.3", .observed, "…")"#)
        #expect(found.map(\.section) == ["1.3"])
    }

    @Test func otherDocumentsAreNotCitations() throws {
        let lines = """
            // Any split is valid (PNG spec §11.2.4).
            // The ramp of the color-science spec §3.4, see §3.2 there.
            /// Lab (CIE 15:2018 §8.2.1).
            """
        #expect(try CitationIndex.citations(in: lines).isEmpty)
    }

    @Test func aMissingRuleIsReported() throws {
        let owned = try CitationIndex.sections(of: "## 3 Output\n### 3.2 Capture\n- **Rule 1** x\n## 4 Settings\n")
        let rule1 = CitationIndex.Citation(line: 1, section: "3.2", label: "Rule 1")
        let rule2 = CitationIndex.Citation(line: 1, section: "3.2", label: "Rule 2")
        let section5 = CitationIndex.Citation(line: 1, section: "5", label: nil)
        #expect(CitationIndex.problem(with: rule1, in: owned) == nil)
        #expect(CitationIndex.problem(with: rule2, in: owned) != nil)
        #expect(CitationIndex.problem(with: section5, in: owned) != nil)
        // A section owns its subsections' text, not the next section's.
        let section3 = CitationIndex.Citation(line: 1, section: "3", label: "Rule 1")
        #expect(CitationIndex.problem(with: section3, in: owned) == nil)
        #expect(owned["4"]?.contains("Rule 1") == false)
    }
}

/// Finds citations in source text and sections in the article.
enum CitationIndex {
    struct Citation: Equatable {
        let line: Int
        let section: String
        let label: String?
    }

    /// One reference: a section number, then optionally a rule, a step or an N-item.
    static let reference = #"§(\d+(?:\.\d+)*)(?:\s+(rule|step)\s+(\d+)|\s+(N\d+))?"#
    /// Words before "spec" that name another document.
    static let foreign = #"(?:colou?r-science|colou?r|PNG|png)\s+spec\s*$"#
    /// What may stand between two chained references: tags in brackets, then a separator.
    static let chainGap = #"^(?:\s*\[[^\]]*\])*\s*(?:,|/|;|and)\s*(?:\[[^\]]*\]\s*)*$"#

    static func citations(in text: String) throws -> [Citation] {
        let referenceRegex = try Regex(reference)
        let foreignRegex = try Regex(foreign)
        let gapRegex = try Regex(chainGap)
        var out: [Citation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var chainedEnd: Substring.Index?
            for match in line.matches(of: referenceRegex) {
                let before = line[line.startIndex..<match.range.lowerBound]
                let quoted = before.hasSuffix("\"")
                let cited = before.hasSuffix("spec ") && before.firstMatch(of: foreignRegex) == nil
                // Chained to the previous citation when only tags and a separator stand between them.
                let gap = chainedEnd.map { line[$0..<match.range.lowerBound] }
                let chained = gap.map { $0.wholeMatch(of: gapRegex) != nil } ?? false
                guard quoted || cited || chained else {
                    chainedEnd = nil
                    continue
                }
                chainedEnd = match.range.upperBound
                let groups = match.output
                let section = String(groups[1].substring ?? "")
                var label: String?
                if let word = groups[2].substring, let number = groups[3].substring {
                    label = word.prefix(1).uppercased() + word.dropFirst() + " " + number
                } else if let item = groups[4].substring {
                    label = String(item)
                }
                out.append(Citation(line: index + 1, section: section, label: label))
            }
        }
        return out
    }

    /// Each section number mapped to its text: from its heading to the next of its level or higher.
    static func sections(of article: String) throws -> [String: String] {
        let headingRegex = try Regex(#"^(#{2,6})\s+(\d+(?:\.\d+)*)\s"#)
        let lines = article.split(separator: "\n", omittingEmptySubsequences: false)
        var headings: [(index: Int, level: Int, section: String)] = []
        for (index, line) in lines.enumerated() {
            if let match = line.prefixMatch(of: headingRegex),
                let hashes = match.output[1].substring, let number = match.output[2].substring
            {
                headings.append((index, hashes.count, String(number)))
            }
        }
        var owned: [String: String] = [:]
        for (position, heading) in headings.enumerated() {
            let end = headings[(position + 1)...].first { $0.level <= heading.level }?.index ?? lines.count
            owned[heading.section] = lines[heading.index..<end].joined(separator: "\n")
        }
        return owned
    }

    /// Why a citation does not resolve, or nil when it does.
    static func problem(with citation: Citation, in owned: [String: String]) -> String? {
        guard let text = owned[citation.section] else { return "§\(citation.section) has no heading" }
        if let label = citation.label, !text.contains("**\(label)**") {
            return "§\(citation.section) has no **\(label)**"
        }
        return nil
    }
}
