import ObscuraSupport
import Scenes
import Spectra

/// A reference colour for ΔE checks: a reflectance under an illuminant, as CIELAB against that
/// illuminant's perfect diffuser (CIE 15:2018 §7.1).
struct ReferenceColor: Sendable {
    enum Source: Sendable {
        case spectrum(Spectrum, name: String)
        /// A material of the scenario's scene, by object name; resolved when the scene is known.
        case object(String)
    }

    let source: Source
    let illuminant: Spectrum
    let illuminantName: String

    /// `{reflectance: colorchecker:13 | skin:4 | 0.18, illuminant: D65 | A | "2800,0.0"}` or
    /// `{object: pot, illuminant: D65}`.
    init(_ node: YAMLNode, ignoring extra: String? = nil) throws {
        let map = try node.mapping(allowedKeys: ["reflectance", "object", "illuminant"] + (extra.map { [$0] } ?? []))
        if let object = map.optional("object") {
            source = .object(try object.string())
        } else {
            let r = try map.required("reflectance")
            source = .spectrum(try Self.reflectance(r), name: try r.scalarString())
        }
        let ill = map.optional("illuminant")
        illuminantName = try ill?.scalarString() ?? "D65"
        illuminant = try ill.map(Self.illuminant) ?? Illuminants.d65
    }

    var description: String {
        switch source {
        case let .spectrum(_, name): return "\(name) under \(illuminantName)"
        case let .object(name): return "object '\(name)' under \(illuminantName)"
        }
    }

    func lab(scene: Scene?) -> Lab? {
        switch source {
        case let .spectrum(spectrum, _):
            return Colorimetry.lab(reflectance: spectrum, illuminant: illuminant)
        case let .object(name):
            guard let scene, let index = scene.objectIndex(named: name),
                case let .uniform(material) = scene.objects[index].surface
            else { return nil }
            return Colorimetry.lab(reflectance: material.reflectance, illuminant: illuminant)
        }
    }

    private static func reflectance(_ node: YAMLNode) throws -> Spectrum {
        if let value = Double(try node.scalarString()) {
            guard (0...1).contains(value) else { throw node.error("a constant reflectance lies in 0…1") }
            return .constant(value)
        }
        let text = try node.string()
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        if parts.count == 2, parts[0] == "skin", let n = Int(parts[1]), SkinTones.patches.indices.contains(n - 1) {
            return SkinTones.patches[n - 1].reflectance
        }
        if parts.count == 2, parts[0] == "colorchecker" {
            if let n = Int(parts[1]), let patch = ColorChecker.patch(n) { return patch.reflectance }
            if let patch = ColorChecker.patch(named: parts[1]) { return patch.reflectance }
            var message = "no ColorChecker patch '\(parts[1])'"
            if let guess = EditDistance.suggestion(for: parts[1], among: ColorChecker.patches.map(\.name)) {
                message += "; did you mean '\(guess)'?"
            }
            throw node.error(message)
        }
        throw node.error("unknown reflectance '\(text)'; write colorchecker:N, colorchecker:NAME, skin:N or 0…1")
    }

    private static func illuminant(_ node: YAMLNode) throws -> Spectrum {
        let text = try node.scalarString()
        switch text {
        case "D65": return Illuminants.d65
        case "A": return Illuminants.a
        default:
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let cct = parts[0], let duv = parts[1] else {
                throw node.error("unknown illuminant '\(text)'; write D65, A or \"CCT,Duv\" such as \"2800,0\"")
            }
            do { return try Illuminants.make(cct: cct, duv: duv) } catch { throw node.error("\(error)") }
        }
    }
}
