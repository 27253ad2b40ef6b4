/// A short, printable excerpt of text taken from a user's file, for quoting in error messages.
///
/// An error about a file that did not parse may reach a CI log or a published report, and the file
/// may not be the one the user meant to name (`device: /etc/shadow`). So a message quotes at most
/// `limit` characters of it, with control characters escaped so the excerpt stays on one line and
/// cannot drive a terminal.
public enum TextExcerpt {
    /// The longest excerpt, in characters, before the ellipsis.
    public static let limit = 80

    /// `text` with control characters escaped (`\n`, `\t`, `\u{1B}`), cut to `limit` characters
    /// with a trailing `…` when longer. A leading `::` becomes `\u{3A}:`: CI systems (GitHub Actions)
    /// read a line that starts with `::` as a command to them, and an excerpt may start a line.
    public static func make(_ text: String, limit: Int = TextExcerpt.limit) -> String {
        var out = ""
        var count = 0
        for (index, scalar) in text.unicodeScalars.enumerated() {
            let piece: String
            if index == 0, scalar == ":", text.unicodeScalars.dropFirst().first == ":" {
                piece = "\\u{3A}"
                if count + piece.count > limit { return out + "…" }
                out += piece
                count += piece.count
                continue
            }
            switch scalar {
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case "\\": piece = "\\\\"
            default:
                // C0 and C1 controls, DEL, and the bidirectional overrides that can reorder a line.
                let v = scalar.value
                let isControl = v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                    || (0x2066...0x2069).contains(v)
                piece = isControl ? "\\u{\(String(v, radix: 16, uppercase: true))}" : String(scalar)
            }
            if count + piece.count > limit { return out + "…" }
            out += piece
            count += piece.count
        }
        return out
    }

    /// The excerpt between single quotes: `'root:x:0:0…'`.
    public static func quoted(_ text: String, limit: Int = TextExcerpt.limit) -> String {
        "'" + make(text, limit: limit) + "'"
    }
}
