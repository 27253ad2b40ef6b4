import ObscuraSupport

/// Reads the device's `flash` section and spectrum descriptions.
enum FlashReader {
    static let keys = ["kind", "modules", "calibration", "provenance", "calibration_provenance"]
    static let moduleKeys = ["id", "spectrum", "intensity_cd", "beam_angle_deg", "position_mm"]
    static let calibrationKeys = ["module", "spectrum", "intensity_cd"]

    static func read(_ node: YAMLNode) throws -> FlashHardware {
        let map = try node.mapping(allowedKeys: keys)
        let moduleNodes = try map.required("modules").sequence()
        guard !moduleNodes.isEmpty else {
            throw try map.required("modules").error("a flash needs at least one LED module")
        }
        var modules: [FlashHardware.Module] = []
        for item in moduleNodes {
            let m = try item.mapping(allowedKeys: moduleKeys)
            let id = try m.required("id").string()
            guard !modules.contains(where: { $0.id == id }) else {
                throw try m.required("id").error("duplicate module id '\(id)'")
            }
            modules.append(
                FlashHardware.Module(
                    id: id, spectrum: try spectrum(try m.required("spectrum")),
                    intensityCD: try m.required("intensity_cd").positiveDouble(),
                    beamAngleDeg: try m.required("beam_angle_deg").double(in: 1...180),
                    positionMM: try m.required("position_mm").sequence(count: 3).map { try $0.double() }))
        }
        let ids = modules.map(\.id)
        var calibration: [FlashHardware.Calibration] = []
        let calibrationNode = try map.required("calibration")
        for item in try calibrationNode.sequence() {
            let c = try item.mapping(allowedKeys: calibrationKeys)
            let moduleNode = try c.required("module")
            let module = try moduleNode.string()
            guard ids.contains(module) else {
                var message = "no flash module with id \(TextExcerpt.quoted(module))"
                if let guess = EditDistance.suggestion(for: module, among: ids) {
                    message += "; did you mean '\(guess)'?"
                }
                throw moduleNode.error(message)
            }
            guard !calibration.contains(where: { $0.module == module }) else {
                throw moduleNode.error("module '\(module)' is calibrated twice")
            }
            calibration.append(
                FlashHardware.Calibration(
                    module: module, spectrum: try spectrum(try c.required("spectrum")),
                    intensityCD: try c.required("intensity_cd").positiveDouble()))
        }
        if let missing = ids.first(where: { id in !calibration.contains { $0.module == id } }) {
            throw calibrationNode.error("module '\(missing)' has no factory calibration")
        }
        return FlashHardware(
            kind: try map.required("kind").choice(FlashHardware.Kind.self), modules: modules, calibration: calibration,
            provenance: try ProvenanceReader.read(map, sectionKeys: ["kind", "modules"]),
            calibrationProvenance: try ProvenanceReader.read(
                YAMLMapping(
                    node: map.node,
                    entries: map.entries.compactMap {
                        switch $0.key {
                        case "provenance": return nil
                        case "calibration_provenance": return (key: "provenance", keyNode: $0.keyNode, value: $0.value)
                        default: return $0
                        }
                    }), sectionKeys: ["calibration"]))
    }

    static let spectrumKeys = [
        "cie_led", "peak_shift_nm", "led_peak_nm", "led_half_width_nm", "led_peaks_nm", "led_half_widths_nm",
        "led_peak_power_ratios", "wavelengths_nm", "values",
    ]

    /// One of: `{cie_led, peak_shift_nm?}`, `{led_peak_nm, led_half_width_nm}`,
    /// `{led_peaks_nm, led_half_widths_nm, led_peak_power_ratios}`, `{wavelengths_nm, values}`.
    static func spectrum(_ node: YAMLNode) throws -> SpectrumSource {
        let map = try node.mapping(allowedKeys: spectrumKeys)
        if let led = map.optional("cie_led") {
            let name = try led.string()
            guard SpectrumSource.cieLEDNames.contains(name) else {
                var message = "unknown CIE LED illuminant \(TextExcerpt.quoted(name))"
                if let guess = EditDistance.suggestion(for: name, among: SpectrumSource.cieLEDNames) {
                    message += "; did you mean '\(guess)'?"
                }
                throw led.error(message)
            }
            return .cieLED(name: name, peakShiftNM: try map.optional("peak_shift_nm")?.double(in: -20...20) ?? 0)
        }
        if let peak = map.optional("led_peak_nm") {
            return .ohnoLED(
                peakNM: try peak.double(in: 380...780),
                halfWidthNM: try map.required("led_half_width_nm").positiveDouble())
        }
        if let peaks = map.optional("led_peaks_nm") {
            let p = try peaks.doubles(minimum: 1)
            let w = try map.required("led_half_widths_nm").doubles()
            let r = try map.required("led_peak_power_ratios").doubles()
            guard w.count == p.count, r.count == p.count else {
                throw peaks.error("led_peaks_nm, led_half_widths_nm and led_peak_power_ratios must have equal lengths")
            }
            return .multiLED(peaksNM: p, halfWidthsNM: w, peakPowerRatios: r)
        }
        if let wavelengths = map.optional("wavelengths_nm") {
            let x = try wavelengths.doubles(minimum: 2)
            let valuesNode = try map.required("values")
            let y = try valuesNode.doubles()
            guard y.count == x.count else { throw valuesNode.error("needs \(x.count) values, found \(y.count)") }
            guard zip(x, x.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw wavelengths.error("wavelengths must increase")
            }
            return .samples(wavelengthsNM: x, values: y)
        }
        throw node.error("a spectrum needs one of 'cie_led', 'led_peak_nm', 'led_peaks_nm' or 'wavelengths_nm'")
    }
}
