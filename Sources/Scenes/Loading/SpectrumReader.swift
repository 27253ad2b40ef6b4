import ObscuraSupport
import Spectra

/// Reads the spectrum of a light: a named illuminant, a CCT with Duv, one or several LEDs, or
/// explicit samples. The scale is irrelevant; the photometric key next to it fixes it.
enum SpectrumReader {
    static let keys = ["illuminant", "cct_k", "duv", "model", "led", "leds", "samples"]
    static let sources = ["illuminant", "cct_k", "led", "leds", "samples"]

    /// The named illuminants, by their spelling in files.
    static var named: [String: Spectrum] {
        var out = ["D65": Illuminants.d65, "A": Illuminants.a]
        for led in CIELEDIlluminant.allCases { out[led.rawValue] = Illuminants.cie(led) }
        return out
    }

    static func read(_ node: YAMLNode) throws -> Spectrum {
        let m = try node.mapping(allowedKeys: keys)
        let source = try m.exactlyOne(of: sources, what: "a spectrum")
        if source != "cct_k" { try m.reject(["duv", "model"], because: "only applies with cct_k") }
        switch source {
        case "illuminant":
            let nameNode = try m.required("illuminant")
            let name = try nameNode.string()
            let table = named
            if let hit = table.first(where: { $0.key.lowercased() == name.lowercased() }) { return hit.value }
            let known = table.keys.sorted()
            var message = "unknown illuminant \(TextExcerpt.quoted(name))"
            if let guess = EditDistance.suggestion(for: name, among: known) { message += "; did you mean '\(guess)'?" }
            throw nameNode.error(message + " (known: \(known.joined(separator: ", ")))")
        case "cct_k":
            return try readCCT(m)
        case "led":
            return try readLED(try m.required("led"), allowPower: false).spectrum
        case "leds":
            let items = try m.required("leds").sequence()
            guard !items.isEmpty else { throw try m.required("leds").error("needs at least one LED") }
            var errors = ErrorCollector()
            let parts = items.map { item in errors.attempt { try readLED(item, allowPower: true) } }
            try errors.throwIfAny()
            var sum = Spectrum.constant(0)
            for part in parts.compactMap({ $0 }) { sum += part.spectrum * part.power }
            return sum
        default:
            let samples = try readSamples(try m.required("samples"), valueRange: nil)
            guard samples.values.contains(where: { $0 > 0 }) else {
                throw try m.required("samples").error("a light's spectrum cannot be zero everywhere")
            }
            return samples
        }
    }

    private static func readCCT(_ m: YAMLMapping) throws -> Spectrum {
        var errors = ErrorCollector()
        let cctNode = try m.required("cct_k")
        let cct = errors.attempt { try cctNode.double(in: 1000...25000) }
        // |Duv| ≤ 0.05 is the range ANSI C78.377 and CIE 15 give meaning to; beyond it a
        // "correlated" colour temperature no longer describes the light.
        let duv = errors.attempt { try m.optional("duv")?.double(in: -0.05...0.05) ?? 0 }
        let model = errors.attempt { try m.optional("model")?.choice(IlluminantModel.self) ?? .auto }
        try errors.throwIfAny()
        do {
            return try Illuminants.make(
                cct: try collected(cct, at: cctNode), duv: try collected(duv, at: cctNode),
                model: try collected(model, at: cctNode))
        } catch let error as SpectraError {
            throw cctNode.error("no illuminant for this CCT and Duv: \(error)")
        }
    }

    /// One LED of Ohno's model; `half_width_nm` is the model's Δ (full width at half maximum ≈ 0.92·Δ).
    private static func readLED(_ node: YAMLNode, allowPower: Bool) throws -> (spectrum: Spectrum, power: Double) {
        let keys = allowPower ? ["peak_nm", "half_width_nm", "power"] : ["peak_nm", "half_width_nm"]
        let m = try node.mapping(allowedKeys: keys)
        var errors = ErrorCollector()
        let peak = errors.attempt { try m.required("peak_nm").double(in: 380...780) }
        let width = errors.attempt { () throws -> Double in
            let node = try m.required("half_width_nm")
            let w = try node.positiveDouble()
            guard w <= 200 else { throw node.error("must be at most 200, found \(w)") }
            return w
        }
        let power = errors.attempt { try m.optional("power")?.positiveDouble() ?? 1 }
        try errors.throwIfAny()
        return (
            Illuminants.led(
                peakWavelength: try collected(peak, at: node), halfSpectralWidth: try collected(width, at: node)),
            try collected(power, at: node)
        )
    }

    /// `{wavelengths_nm: [...], values: [...]}` resampled onto the 5 nm grid; `valueRange`
    /// bounds each value (reflectances), nil only requires values ≥ 0 (spectral power).
    static func readSamples(_ node: YAMLNode, valueRange: ClosedRange<Double>?) throws -> Spectrum {
        let m = try node.mapping(allowedKeys: ["wavelengths_nm", "values"])
        let wavelengthNodes = try m.required("wavelengths_nm").sequence()
        let valueNodes = try m.required("values").sequence()
        var errors = ErrorCollector()
        let wavelengths = wavelengthNodes.map { item in errors.attempt { try item.double(in: 300...1000) } }
        let values = valueNodes.map { item in
            errors.attempt { try valueRange.map { try item.double(in: $0) } ?? item.nonNegativeDouble() }
        }
        try errors.throwIfAny()
        guard wavelengthNodes.count >= 2 else {
            throw try m.required("wavelengths_nm").error("needs at least 2 samples")
        }
        guard valueNodes.count == wavelengthNodes.count else {
            throw try m.required("values").error(
                "has \(valueNodes.count) values for \(wavelengthNodes.count) wavelengths")
        }
        let w = wavelengths.map { $0 ?? 0 }
        for i in 1..<w.count where w[i] <= w[i - 1] {
            throw wavelengthNodes[i].error("wavelengths must increase; \(w[i]) follows \(w[i - 1])")
        }
        return Spectrum(wavelengths: w, values: values.map { $0 ?? 0 })
    }
}
