/// A place in a text file: the file name as the user gave it, and a 1-based line and column.
///
/// Columns count Unicode scalars, as libyaml does, so a location printed by Obscura points at
/// the same character an editor shows for plain ASCII files.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file as the user named it (relative or absolute); `<input>` for text without a file.
    public var file: String
    /// Line number, starting at 1.
    public var line: Int
    /// Column number, starting at 1.
    public var column: Int

    /// A location from its parts.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A problem with a file or folder as a whole (it cannot be read, it is not there), with no place
    /// inside it to point at: line and column 0, and the description is the path alone, so no
    /// `:1:1` is invented for a place that does not exist.
    public static func whole(_ file: String) -> SourceLocation { SourceLocation(file: file, line: 0, column: 0) }

    /// Whether the location names a place inside the file (else the file as a whole).
    public var isInsideFile: Bool { line > 0 }

    /// `file:line:column`, the form compilers print and editors understand; the path alone for a
    /// location of the whole file.
    public var description: String { isInsideFile ? "\(file):\(line):\(column)" : file }
}
