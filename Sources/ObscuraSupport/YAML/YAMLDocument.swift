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

    /// Reads and parses a file; a file that cannot be read is reported as a whole, saying why.
    public static func load(path: String) throws -> YAMLNode {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LocatedError(.whole(path), "cannot read \(path): \(unreadableReason(path))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LocatedError(SourceLocation(file: path, line: 1, column: 1), "the file is not UTF-8 text")
        }
        return try parse(text, file: path)
    }

    /// Why `path` cannot be read, in the words a shell uses: it is not there, it is a folder, or the
    /// system's reason for refusing to open it (permission).
    public static func unreadableReason(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            // A dangling link exists as a name but not as a file.
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                return "it is a symbolic link to nothing"
            }
            return "no such file"
        }
        if isFolder.boolValue { return "it is a folder, not a file" }
        let descriptor = open(path, O_RDONLY)
        if descriptor >= 0 {
            close(descriptor)
            return "it could not be read to the end"
        }
        return String(cString: strerror(errno)).lowercased()
    }

    /// Converts a Yams error to our located form, keeping libyaml's problem text, except where that text speaks to
    /// the library's programmer rather than the file's author (`plainProblem`).
    static func locatedError(_ error: YamlError, file: String) -> LocatedError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        func describe(_ context: YamlError.Context?, _ raw: String) -> String {
            let problem = plainProblem(raw)
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

    /// libyaml's problem text in the file author's terms: its nesting limit names the C call that sets it.
    static func plainProblem(_ problem: String) -> String {
        guard problem.hasPrefix("Maximum nesting level reached") else { return problem }
        return "lists and mappings nested more than 1000 deep, the most the YAML parser takes"
    }
}
