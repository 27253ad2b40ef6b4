import ObscuraSupport

/// Reads the `sensitivities` and `noise` sections of a camera, and holds their defaults.
enum SensorReader {
    static let sensitivityKeys = ["model", "red", "green", "blue", "name", "peak_qe", "wavelengths_nm", "provenance"]
    enum ModelName: String, CaseIterable {
        case gaussianMixture = "gaussian-mixture"
        case named
        case samples
    }

    static func sensitivities(_ node: YAMLNode) throws -> SpectralSensitivities {
        let map = try node.mapping(allowedKeys: sensitivityKeys)
        let provenance = try ProvenanceReader.read(map, sectionKeys: sensitivityKeys)
        let model: SpectralSensitivities.Model
        switch try map.required("model").choice(ModelName.self) {
        case .gaussianMixture:
            model = .gaussianMixture(
                red: try lobes(try map.required("red")), green: try lobes(try map.required("green")),
                blue: try lobes(try map.required("blue")))
        case .named:
            let nameNode = try map.required("name")
            let name = try nameNode.string()
            guard SpectralSensitivities.namedSets.contains(name) else {
                throw nameNode.error(
                    "unknown sensitivity set \(TextExcerpt.quoted(name)); available: "
                        + SpectralSensitivities.namedSets.joined(separator: ", ")
                )
            }
            model = .named(name, peakQE: try map.required("peak_qe").double(in: 0.01...1))
        case .samples:
            let wavelengths = try map.required("wavelengths_nm").doubles(minimum: 2)
            guard zip(wavelengths, wavelengths.dropFirst()).allSatisfy({ $0 < $1 }) else {
                throw try map.required("wavelengths_nm").error("wavelengths must increase")
            }
            func channel(_ key: String) throws -> [Double] {
                let node = try map.required(key)
                let values = try node.doubles()
                guard values.count == wavelengths.count else {
                    throw node.error("needs \(wavelengths.count) values (one per wavelength), found \(values.count)")
                }
                guard values.allSatisfy({ (0...1).contains($0) }) else {
                    throw node.error("quantum efficiencies lie in 0…1")
                }
                return values
            }
            model = .samples(
                wavelengthsNM: wavelengths, red: try channel("red"), green: try channel("green"),
                blue: try channel("blue"))
        }
        return SpectralSensitivities(model: model, provenance: provenance)
    }

    static func lobes(_ node: YAMLNode) throws -> [SpectralSensitivities.Lobe] {
        let items = try node.sequence()
        guard !items.isEmpty else { throw node.error("needs at least one lobe") }
        return try items.map { item in
            let map = try item.mapping(allowedKeys: ["peak_nm", "sigma_nm", "peak_qe"])
            return SpectralSensitivities.Lobe(
                peakNM: try map.required("peak_nm").double(in: 380...780),
                sigmaNM: try map.required("sigma_nm").positiveDouble(),
                peakQE: try map.required("peak_qe").double(in: 0...1))
        }
    }

    /// Used when a camera has no `sensitivities`: a modelled Gaussian set whose peaks and widths
    /// follow typical Bayer CFA × BSI silicon curves (R 600/30 nm, G 535/35 nm, B 460/25 nm,
    /// the illustrative set of colour-science spec §3.3), with a small blue leak in red.
    static let defaultSensitivities = SpectralSensitivities(
        model: .gaussianMixture(
            red: [.init(peakNM: 600, sigmaNM: 30, peakQE: 0.55), .init(peakNM: 450, sigmaNM: 20, peakQE: 0.03)],
            green: [.init(peakNM: 535, sigmaNM: 35, peakQE: 0.6)],
            blue: [.init(peakNM: 460, sigmaNM: 25, peakQE: 0.5)]),
        provenance: ProvenanceMap(Provenance(.modelled, "default Gaussian set, colour-science spec §3.3")))

    static let noiseKeys = [
        "full_well_e", "read_noise_e", "prnu_percent", "dsnu_e", "dark_current_e_per_s", "adc_bits", "black_level_dn",
        "white_level_dn", "base_iso", "provenance",
    ]
    /// A photosite's full well in electrons, read here and for a binned format's read.
    static let fullWellRange: ClosedRange<Double> = 100...1_000_000
    /// Read noise in electrons RMS.
    static let readNoiseRange: ClosedRange<Double> = 0...1000

    static func noise(_ node: YAMLNode) throws -> NoiseModel {
        let map = try node.mapping(allowedKeys: noiseKeys)
        let bits = try map.required("adc_bits").int(in: 8...16)
        let maxCode = (1 << bits) - 1
        let black = try map.required("black_level_dn").int(in: 0...maxCode)
        let whiteNode = try map.required("white_level_dn")
        let white = try whiteNode.int(in: 1...maxCode)
        guard white > black else { throw whiteNode.error("must be above black_level_dn (\(black)), found \(white)") }
        // Ranges wide enough for any real sensor and narrow enough to catch a slip of the exponent: a phone's
        // photosite holds a few thousand electrons and the largest scientific CCD pixels a few hundred thousand.
        return NoiseModel(
            fullWellE: try map.required("full_well_e").double(in: fullWellRange),
            readNoiseE: try map.required("read_noise_e").double(in: readNoiseRange),
            prnuPercent: try map.required("prnu_percent").double(in: 0...10),
            dsnuE: try map.required("dsnu_e").double(in: 0...10_000),
            darkCurrentEPerS: try map.required("dark_current_e_per_s").double(in: 0...1_000_000),
            adcBits: bits, blackLevelDN: black, whiteLevelDN: white,
            baseISO: try map.required("base_iso").double(in: 1...100_000),
            provenance: try ProvenanceReader.read(map, sectionKeys: noiseKeys))
    }

    /// Used when a camera has no `noise`: ISETCam's IMX363 figures (colour-science spec §3.2):
    /// 6000 e⁻ full well, 10 bit, black 64, white 1023, PRNU 0.7 %; read noise 3 e⁻ (the
    /// middle of the 2–5 e⁻ range), ISO 55 at unity gain.
    static let defaultNoise = NoiseModel(
        fullWellE: 6000, readNoiseE: 3, prnuPercent: 0.7, dsnuE: 0, darkCurrentEPerS: 0, adcBits: 10, blackLevelDN: 64,
        whiteLevelDN: 1023, baseISO: 55,
        provenance: ProvenanceMap(Provenance(.modelled, "IMX363 defaults, colour-science spec §3.2")))
}
