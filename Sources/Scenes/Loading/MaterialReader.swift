import ObscuraSupport
import Spectra

/// Reads one entry of `materials`: a name, a diffuse reflectance and an optional gloss.
enum MaterialReader {
    static let keys = ["name", "reflectance", "samples", "srgb", "display_p3", "specular", "roughness"]
    static let sources = ["reflectance", "samples", "srgb", "display_p3"]
    /// A colour the smooth-reflectance fit misses by more than this is refused rather than
    /// silently shown in a different colour (1 ΔE00 is about a just-noticeable difference).
    static let maximumFitError = 1.0

    static func read(_ raw: YAMLNode) throws -> Material {
        let node = raw.labelledByName
        let m = try node.mapping(allowedKeys: keys)
        var errors = ErrorCollector()
        let name = errors.attempt { try m.required("name").string() }
        let reflectance = errors.attempt { () throws -> Spectrum in
            let source = try m.exactlyOne(of: sources, what: "a material's reflectance")
            let value = try m.required(source)
            switch source {
            case "reflectance": return try named(value)
            case "samples": return try SpectrumReader.readSamples(value, valueRange: 0...1)
            case "srgb": return try fitted(value, space: .sRGB)
            default: return try fitted(value, space: .displayP3)
            }
        }
        let specular = errors.attempt { try m.optional("specular")?.double(in: 0...1) ?? 0 }
        let roughness = errors.attempt { try m.optional("roughness")?.double(in: 0...1) ?? 0.5 }
        try errors.throwIfAny()
        return Material(
            name: try collected(name, at: node), reflectance: try collected(reflectance, at: node),
            specularStrength: try collected(specular, at: node), roughness: try collected(roughness, at: node))
    }

    /// A constant (`0.18`) or a reflectance from Spectra's sets: `colorchecker:13`,
    /// `colorchecker:blue` (a unique prefix of the patch name is enough), `skin:042`.
    static func named(_ node: YAMLNode) throws -> Spectrum {
        if case let .scalar(scalar) = node.node, scalar.style == .plain, Double(scalar.string) != nil {
            return .constant(try node.double(in: 0...1))
        }
        return try patch(node).reflectance
    }

    /// A patch of a reflectance set named `set:entry`.
    static func patch(_ node: YAMLNode) throws -> ReflectancePatch {
        let text = try node.string()
        let parts = text.split(separator: ":", maxSplits: 1).map { String($0).trimmingWhitespace }
        let sets = ["colorchecker", "skin"]
        guard parts.count == 2, sets.contains(parts[0].lowercased()) else {
            var message = "unknown reflectance \(TextExcerpt.quoted(text)); "
                + "name one as colorchecker:N, colorchecker:NAME or skin:N"
            if let guess = EditDistance.suggestion(for: parts.first ?? text, among: sets) {
                message += " (did you mean '\(guess):'?)"
            }
            throw node.error(message)
        }
        let entry = parts[1]
        if parts[0].lowercased() == "skin" {
            let count = SkinTones.patches.count
            guard let number = Int(entry), (1...count).contains(number) else {
                throw node.error("skin patches are numbered 1…\(count), found \(TextExcerpt.quoted(entry))")
            }
            return SkinTones.patches[number - 1]
        }
        if let number = Int(entry) {
            guard let hit = ColorChecker.patch(number) else {
                throw node.error("ColorChecker patches are numbered 1…24, found \(number)")
            }
            return hit
        }
        if let hit = ColorChecker.patch(named: entry) { return hit }
        let prefixed = ColorChecker.patches.filter { $0.name.lowercased().hasPrefix(entry.lowercased()) }
        if prefixed.count == 1 { return prefixed[0] }
        let names = ColorChecker.patches.map(\.name)
        var message = "no ColorChecker patch \(TextExcerpt.quoted(entry))"
        if let guess = EditDistance.suggestion(for: entry, among: names) { message += "; did you mean '\(guess)'?" }
        throw node.error(message)
    }

    private static func fitted(_ node: YAMLNode, space: RGBColorSpace) throws -> Spectrum {
        let fit = SmoothReflectance.fit(rgb: try node.colourTriple(), in: space)
        guard fit.deltaE00 <= maximumFitError else {
            let shown = (fit.deltaE00 * 10).rounded() / 10
            throw node.error(
                "no smooth reflectance reaches this colour (best ΔE00 \(shown)); give samples instead")
        }
        return fit.reflectance
    }
}

extension String {
    /// The string without leading and trailing spaces.
    var trimmingWhitespace: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
