import Foundation
import Yams

/// Reads YAML text into a located node tree, turning every syntax error into a `LocatedError`.
///
/// This is the entry point shared by every Obscura file format (device profiles, scenes,
/// scenarios): parse with `YAMLDocument.parse`, then walk the tree with `YAMLNode` and
/// `YAMLMapping`, which report wrong types, unknown keys and bad values at their location.
public enum YAMLDocument {
    /// Parses one YAML document; `file` is only used in error locations.
    public static func parse(_ text: String, file: String) throws -> YAMLNode {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw locatedError(error, file: file)
        }
        guard let root else {
            throw LocatedError(SourceLocation(file: file, line: 1, column: 1), "the file is empty")
        }
        return YAMLNode(root, file: file, path: "")
    }

    /// Reads and parses a file; an unreadable file is reported at line 1, column 1.
    public static func load(path: String) throws -> YAMLNode {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LocatedError(SourceLocation(file: path, line: 1, column: 1), "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LocatedError(SourceLocation(file: path, line: 1, column: 1), "the file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Converts a Yams error to our located form, keeping libyaml's problem text.
    static func locatedError(_ error: YamlError, file: String) -> LocatedError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        func describe(_ context: YamlError.Context?, _ problem: String) -> String {
            guard let context else { return "YAML syntax error: \(problem)" }
            let mark = "\(context.mark.line):\(context.mark.column)"
            return "YAML syntax error: \(problem) (\(TextExcerpt.make(context.text)) at \(mark))"
        }
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
            let .composer(context, problem, mark, _):
            return LocatedError(at(mark), describe(context, problem))
        case let .duplicatedKeysInMapping(duplicates, context):
            return LocatedError(
                at(context.mark), "duplicate key " + duplicates.map { TextExcerpt.quoted($0) }.joined(separator: ", "))
        case let .reader(problem, offset, _, _):
            return LocatedError(
                SourceLocation(file: file, line: 1, column: 1),
                "unreadable text: \(problem)" + (offset.map { " at byte \($0)" } ?? ""))
        default:
            return LocatedError(
                SourceLocation(file: file, line: 1, column: 1), "YAML error: " + TextExcerpt.make("\(error)"))
        }
    }
}
