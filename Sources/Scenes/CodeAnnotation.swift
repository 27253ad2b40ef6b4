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
        return nil
    }
}
