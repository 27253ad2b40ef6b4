/// A machine-readable code printed over a whole plane: what a barcode reader would decode there.
public struct CodeAnnotation: Sendable, Hashable {
    /// The barcode families a scene may print.
    public enum Symbology: String, Sendable, Hashable, CaseIterable {
        case qr
        case ean13
        case ean8
        case code128
        case code39
        case code93
        case pdf417
        case aztec
        case dataMatrix
        case upce
        case interleaved2of5
        case itf14
        /// Code 39 with its modulo-43 check character, which the encoder appends.
        case code39Mod43
        case codabar

        /// The digit counts a numeric symbology encodes (with or without its check digit);
        /// nil for symbologies that encode text.
        public var digitCounts: [Int]? {
            switch self {
            case .ean13: return [12, 13]
            case .ean8: return [7, 8]
            case .upce: return [6, 7, 8]
            case .itf14: return [13, 14]
            default: return nil
            }
        }
    }

    /// The family.
    public var symbology: Symbology
    /// The decoded payload.
    public var value: String

    /// A code; `CodeAnnotation.problem(symbology:value:)` says whether the payload fits.
    public init(symbology: Symbology, value: String) {
        self.symbology = symbology
        self.value = value
    }

    /// Why a payload cannot be printed in a symbology; nil when it can.
    public static func problem(symbology: Symbology, value: String) -> String? {
        if value.isEmpty { return "a code needs a non-empty value" }
        let digitsOnly = value.allSatisfy { $0.isASCII && $0.isNumber }
        if let counts = symbology.digitCounts {
            guard digitsOnly, counts.contains(value.count) else {
                let list = counts.map(String.init).joined(separator: " or ")
                return "\(symbology.rawValue) codes hold \(list) digits, not '\(value)'"
            }
        }
        if symbology == .interleaved2of5, !(digitsOnly && value.count % 2 == 0) {
            return "interleaved2of5 codes hold an even number of digits, not '\(value)'"
        }
        if [.code39, .code93].contains(symbology), !value.allSatisfy(\.isASCII) {
            return "\(symbology.rawValue) codes hold ASCII text only"
        }
        if symbology == .code39Mod43, !value.allSatisfy({ Self.code39Characters.contains($0) }) {
            return "code39Mod43 codes hold digits, capital letters, space and - . $ / + % only, not '\(value)'"
        }
        if symbology == .codabar, !value.allSatisfy({ "0123456789-$:/.+".contains($0) }) {
            return "codabar codes hold digits and - $ : / . + (the start and stop letters are drawn as A), "
                + "not '\(value)'"
        }
        if symbology == .qr, let limit = qrCapacity(of: value) {
            return "a QR code holds at most \(limit.count) \(limit.unit) (version 40 at error correction L, "
                + "ISO/IEC 18004), not \(limit.used)"
        }
        return nil
    }

    /// The largest QR symbol's capacity for `value`, in the densest mode its characters allow, where the value
    /// exceeds it; nil where it fits. ISO/IEC 18004's table for version 40 at level L: 7089 digits, 4296
    /// characters of the alphanumeric set, 2953 bytes. It holds whether or not an encoder is present, so a scene
    /// loads or fails alike on every machine; an encoder may still refuse a value just under it (an ECI header
    /// takes room).
    static func qrCapacity(of value: String) -> (count: Int, unit: String, used: Int)? {
        let alphanumeric = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
        let limit: (count: Int, unit: String, used: Int)
        if value.allSatisfy({ $0.isASCII && $0.isNumber }) {
            limit = (7089, "digits", value.count)
        } else if value.allSatisfy({ alphanumeric.contains($0) }) {
            limit = (4296, "alphanumeric characters", value.count)
        } else {
            limit = (2953, "bytes of text", value.utf8.count)
        }
        return limit.used > limit.count ? limit : nil
    }

    /// Code 39's 43 characters, in the order of their values for the modulo-43 check.
    static let code39Characters = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%")

    /// The modulo-43 check character of Code 39 text made of `code39Characters`.
    package static func code39Check(_ text: String) -> Character? {
        var sum = 0
        for c in text {
            guard let value = code39Characters.firstIndex(of: c) else { return nil }
            sum += value
        }
        return code39Characters[sum % 43]
    }
}
