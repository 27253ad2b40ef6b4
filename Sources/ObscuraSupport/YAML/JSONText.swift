/// JSON text made safe to print: JSON encoders escape the C0 controls but pass C1 controls, DEL and
/// the bidirectional overrides through, and a terminal or log viewer can act on those. They occur only
/// inside strings, where `\uXXXX` stands for the same character, so the JSON means exactly what it did.
public enum JSONText {
    /// `json` with DEL, the C1 controls and the bidirectional controls written as `\uXXXX` escapes.
    public static func escapingInvisibleControls(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            let v = scalar.value
            if v == 0x7F || (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                let hex = String(v, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The same for encoded bytes (UTF-8).
    public static func escapingInvisibleControls(_ json: [UInt8]) -> [UInt8] {
        Array(escapingInvisibleControls(String(decoding: json, as: UTF8.self)).utf8)
    }
}
