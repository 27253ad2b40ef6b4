import Foundation

/// A fenced code block of a Markdown document: an example the documentation shows.
///
/// The info string's first word is the language (`yaml`, `swift`); the words after it are flags. An
/// example that is deliberately incomplete (a fragment of a scene, one key of a profile, a line of a
/// package manifest) says so with `partial` (```` ```yaml partial ````) and is skipped by name; every
/// other YAML example is a scenario that must pass, and every other Swift example must compile as
/// written (see `DocumentationExampleTests`).
struct FencedExample: Sendable, CustomStringConvertible {
    /// The document, relative to the package root.
    let document: String
    /// The 1-based line of the opening fence.
    let line: Int
    let language: String
    let flags: [String]
    /// The lines between the fences, the fence's indentation removed, each ending in a newline.
    let text: String

    /// `document:line`, how tests name the example.
    var description: String { "\(document):\(line)" }

    /// Marked as deliberately incomplete.
    var isPartial: Bool { flags.contains("partial") }

    /// A Swift package manifest (`import PackageDescription`), which SwiftPM compiles on its own.
    var isManifest: Bool { text.contains("import PackageDescription") }

    /// The document line of `line` of the example's text (1-based).
    func documentLine(_ line: Int) -> Int { self.line + line }

    /// The fenced blocks of `markdown`, in order. Fences are three or more backticks or tildes, indented
    /// by at most three spaces (CommonMark); a block ends at a fence of the same character at least as
    /// long, or at the end of the document.
    static func all(in markdown: String, document: String) -> [FencedExample] {
        var found: [FencedExample] = []
        var open: (line: Int, fence: String, indent: Int, info: String, lines: [String])?
        for (index, raw) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let indent = line.prefix { $0 == " " }.count
            let rest = line.dropFirst(indent)
            let marker = rest.first.flatMap { "`~".contains($0) ? $0 : nil }
            let run = marker.map { m in rest.prefix { $0 == m }.count } ?? 0
            if var current = open {
                let closes = indent <= 3 && run >= current.fence.count && marker == current.fence.first
                    && rest.dropFirst(run).allSatisfy(\.isWhitespace)
                if closes {
                    let text = current.lines.map { $0 + "\n" }.joined()
                    let words = current.info.split(separator: " ").map(String.init)
                    found.append(
                        FencedExample(
                            document: document, line: current.line, language: words.first ?? "",
                            flags: Array(words.dropFirst()), text: text))
                    open = nil
                } else {
                    // Content keeps what lies beyond the fence's own indentation.
                    let strip = min(current.indent, line.prefix { $0 == " " }.count)
                    current.lines.append(String(line.dropFirst(strip)))
                    open = current
                }
            } else if indent <= 3, run >= 3, let marker {
                let info = rest.dropFirst(run).trimmingCharacters(in: .whitespaces)
                if marker == "`" && info.contains("`") { continue }
                open = (index + 1, String(repeating: marker, count: run), indent, info, [])
            }
        }
        return found
    }

    /// The package root, three levels above this file (`Tests/DocumentationTests/<file>`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The documents whose examples are run: the READMEs a user reads first and every DocC article.
    static let documents: [String] = {
        var paths = ["README.md", "Scenes/README.md", "DeviceProfiles/README.md"]
        let sources = root.appendingPathComponent("Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        for module in modules.sorted() {
            let folder = sources.appendingPathComponent(module)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for catalogue in entries.sorted() where catalogue.hasSuffix(".docc") {
                let articles = (try? FileManager.default.contentsOfDirectory(
                    atPath: folder.appendingPathComponent(catalogue).path)) ?? []
                paths += articles.filter { $0.hasSuffix(".md") }.sorted().map { "Sources/\(module)/\(catalogue)/\($0)" }
            }
        }
        return paths
    }()

    /// Every example of every document.
    static let everyExample: [FencedExample] = documents.flatMap { document -> [FencedExample] in
        guard let text = try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8) else {
            return []
        }
        return all(in: text, document: document)
    }

    /// The YAML examples that are scenarios to run.
    static var scenarios: [FencedExample] {
        everyExample.filter { $0.language == "yaml" && !$0.isPartial }
    }

    /// The Swift examples compiled in the `DocumentationExamples` test target.
    static var compiledSwift: [FencedExample] {
        everyExample.filter { $0.language == "swift" && !$0.isPartial && !$0.isManifest }
    }
}
