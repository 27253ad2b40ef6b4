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

    /// `file:line:column`, the form compilers print and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}
