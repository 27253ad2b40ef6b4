/// Sensor noise and ADC parameters, in ISETCam's terms (colour-science spec §3.1, §3.2).
public struct NoiseModel: Sendable, Hashable, Codable {
    /// Full-well capacity in electrons.
    public var fullWellE: Double
    /// Read noise in electrons RMS at base ISO.
    public var readNoiseE: Double
    /// Photo-response non-uniformity, in percent of the signal (1 σ).
    public var prnuPercent: Double
    /// Dark-signal non-uniformity in electrons (1 σ).
    public var dsnuE: Double
    /// Dark current in electrons per second per pixel.
    public var darkCurrentEPerS: Double
    /// ADC resolution in bits.
    public var adcBits: Int
    /// Black level in digital numbers.
    public var blackLevelDN: Int
    /// White (saturation) level in digital numbers.
    public var whiteLevelDN: Int
    /// The ISO speed at analog gain 1.
    public var baseISO: Double
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// A noise model from its values.
    public init(
        fullWellE: Double, readNoiseE: Double, prnuPercent: Double, dsnuE: Double, darkCurrentEPerS: Double,
        adcBits: Int, blackLevelDN: Int, whiteLevelDN: Int, baseISO: Double, provenance: ProvenanceMap
    ) {
        self.fullWellE = fullWellE
        self.readNoiseE = readNoiseE
        self.prnuPercent = prnuPercent
        self.dsnuE = dsnuE
        self.darkCurrentEPerS = darkCurrentEPerS
        self.adcBits = adcBits
        self.blackLevelDN = blackLevelDN
        self.whiteLevelDN = whiteLevelDN
        self.baseISO = baseISO
        self.provenance = provenance
    }

    /// Electrons per digital number at base ISO: the full well spread over the ADC's usable range.
    public var electronsPerDN: Double { fullWellE / Double(whiteLevelDN - blackLevelDN) }
}
