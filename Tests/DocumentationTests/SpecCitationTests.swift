import Foundation
import Testing

/// Every spec citation in `Sources/` must resolve in the DocC catalogue, the same check as
/// `tools/check-spec-citations.py`.
///
/// Capture rules (`CaptureRules.md`) are cited as `spec §3.2`, `spec §3.2 rule 24`, `spec §13 N18`
/// or `spec §10 step 1`, and by string literals starting with `§` (what traces and rule records
/// name at run time); the colour-science reference (`ColorScience.md`) as `color-science spec
/// §3.4`. A `§` reference chained to a citation (`spec §2.7, §3.1, §13 N3`) cites the same
/// document. A section resolves when a heading starts with its number; a rule, item or step when
/// the section's text holds its bold label (`**Rule 24**`).
struct SpecCitationTests {
    /// The package root, three levels above this file (`Tests/DocumentationTests/<file>`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let catalogue = "Sources/Obscura/Obscura.docc"
    static let articles: [CitationIndex.Document: String] = [.capture: "CaptureRules.md", .colour: "ColorScience.md"]

    @Test func everyCitationInSourcesResolves() throws {
        var owned: [CitationIndex.Document: [String: String]] = [:]
        for (document, name) in Self.articles {
            let url = Self.root.appendingPathComponent(Self.catalogue).appendingPathComponent(name)
            owned[document] = try CitationIndex.sections(of: try String(contentsOf: url, encoding: .utf8))
        }
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var problems: [String] = []
        var count = 0
        for case let url as URL in files where ["swift", "c", "h"].contains(url.pathExtension) {
            let source = try String(contentsOf: url, encoding: .utf8)
            for citation in try CitationIndex.citations(in: source) {
                count += 1
                if let problem = CitationIndex.problem(with: citation, in: owned[citation.document] ?? [:]) {
                    let file = url.path.dropFirst(Self.root.path.count + 1)
                    problems.append("\(file):\(citation.line): \(problem) in \(Self.articles[citation.document] ?? "")")
                }
            }
        }
        #expect(count > 100, "the sources cite the specifications hundreds of times")
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

    @Test func colourScienceCitationsGoToTheirOwnArticle() throws {
        let found = try CitationIndex.citations(in: "/// ISETCam's terms (colour-science spec §3.1, §3.2).")
        #expect(found.map(\.section) == ["3.1", "3.2"])
        #expect(found.map(\.document) == [.colour, .colour])
        #expect(try CitationIndex.citations(in: "// the project colour spec §1.5 recipe").map(\.document) == [.colour])
    }

    @Test func otherDocumentsAreNotCitations() throws {
        let lines = """
            // Any split is valid (PNG spec §11.2.4), see §12.8.
            /// Lab (CIE 15:2018 §8.2.1); deflate (RFC 1951 §3.2.7).
            """
        #expect(try CitationIndex.citations(in: lines).isEmpty)
    }

    @Test func aMissingRuleIsReported() throws {
        let owned = try CitationIndex.sections(of: "## 3 Output\n### 3.2 Capture\n- **Rule 1** x\n## 4 Settings\n")
        let rule1 = CitationIndex.Citation(line: 1, document: .capture, section: "3.2", label: "Rule 1")
        let rule2 = CitationIndex.Citation(line: 1, document: .capture, section: "3.2", label: "Rule 2")
        let section5 = CitationIndex.Citation(line: 1, document: .capture, section: "5", label: nil)
        #expect(CitationIndex.problem(with: rule1, in: owned) == nil)
        #expect(CitationIndex.problem(with: rule2, in: owned) != nil)
        #expect(CitationIndex.problem(with: section5, in: owned) != nil)
        // A section owns its subsections' text, not the next section's.
        let section3 = CitationIndex.Citation(line: 1, document: .capture, section: "3", label: "Rule 1")
        #expect(CitationIndex.problem(with: section3, in: owned) == nil)
        #expect(owned["4"]?.contains("Rule 1") == false)
    }
}

/// Finds citations in source text and sections in the article.
enum CitationIndex {
    /// The article a citation points to.
    enum Document: Hashable {
        /// `CaptureRules.md`.
        case capture
        /// `ColorScience.md`.
        case colour
    }

    struct Citation: Equatable {
        let line: Int
        let document: Document
        let section: String
        let label: String?
    }

    /// One reference: a section number, then optionally a rule, a step or an N-item.
    static let reference = #"§(\d+(?:\.\d+)*)(?:\s+(rule|step)\s+(\d+)|\s+(N\d+))?"#
    /// The words before "spec" that name the colour-science reference, or a document not ours.
    static let colour = #"(?:colou?r-science|colou?r)\s+spec\s$"#
    static let foreign = #"(?:PNG|png)\s+spec\s$"#
    /// What may stand between two chained references: tags in brackets, then a separator.
    static let chainGap = #"^(?:\s*\[[^\]]*\])*\s*(?:,|/|;|and)\s*(?:\[[^\]]*\]\s*)*$"#

    static func citations(in text: String) throws -> [Citation] {
        let referenceRegex = try Regex(reference)
        let colourRegex = try Regex(colour)
        let foreignRegex = try Regex(foreign)
        let gapRegex = try Regex(chainGap)
        var out: [Citation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var chain: (end: Substring.Index, document: Document)?
            for match in line.matches(of: referenceRegex) {
                let before = line[line.startIndex..<match.range.lowerBound]
                var document: Document?
                if before.hasSuffix("\"") {
                    document = .capture
                } else if before.hasSuffix("spec ") {
                    if before.firstMatch(of: colourRegex) != nil {
                        document = .colour
                    } else if before.firstMatch(of: foreignRegex) == nil {
                        document = .capture
                    }
                } else if let chain, line[chain.end..<match.range.lowerBound].wholeMatch(of: gapRegex) != nil {
                    // Chained to the previous citation: only tags and a separator stand between them.
                    document = chain.document
                }
                guard let document else {
                    chain = nil
                    continue
                }
                chain = (match.range.upperBound, document)
                let groups = match.output
                let section = String(groups[1].substring ?? "")
                var label: String?
                if let word = groups[2].substring, let number = groups[3].substring {
                    label = word.prefix(1).uppercased() + word.dropFirst() + " " + number
                } else if let item = groups[4].substring {
                    label = String(item)
                }
                out.append(Citation(line: index + 1, document: document, section: section, label: label))
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
