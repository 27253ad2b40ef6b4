/// A sensor's noise and conversion figures (EMVA 1288 quantities; ISETCam field meanings).
///
/// Electrons are counted per photosite. A delivered pixel that holds several photosites (a binned or
/// averaged readout, `NoiseParameters+Readout`) has the mean of theirs, and its figures are those of
/// that mean: `photositesPerPixel` sets its shot noise, and the other figures are already scaled.
public struct NoiseParameters: Sendable, Hashable {
    /// Full-well capacity, electrons. Signals clip here.
    public var fullWellElectrons: Double
    /// Read noise, electrons RMS (input-referred, independent of ISO in this model).
    public var readNoiseElectrons: Double
    /// Photo-response non-uniformity: standard deviation of the per-pixel gain, as a fraction (0.007 = 0.7 %).
    public var prnu: Double
    /// Dark-signal non-uniformity: standard deviation of the per-pixel offset, electrons.
    public var dsnuElectrons: Double
    /// Dark current, electrons per second per pixel (treated as signal, so it has shot noise).
    public var darkCurrentElectronsPerSecond: Double
    /// ADC resolution, bits.
    public var adcBits: Int
    /// Black level (pedestal), DN.
    public var blackLevel: Double
    /// White level, DN: the code a full well reaches at base ISO; outputs never exceed it.
    public var whiteLevel: Double
    /// The ISO at which a full well maps to the white level (unity analogue gain).
    public var baseISO: Double
    /// Identifies this sensor unit's fixed pattern (PRNU/DSNU), which does not change between frames.
    public var fixedPatternSeed: UInt64
    /// Photosites whose mean a pixel delivers (n ≥ 1): its shot noise is a Poisson count of n times
    /// its mean electrons, divided by n.
    public var photositesPerPixel: Double = 1

    /// Noise parameters; the defaults are ISETCam's IMX363 figures (color-science spec §3.2).
    public init(
        fullWellElectrons: Double = 6000, readNoiseElectrons: Double = 5, prnu: Double = 0.007,
        dsnuElectrons: Double = 0, darkCurrentElectronsPerSecond: Double = 0, adcBits: Int = 10,
        blackLevel: Double = 64, whiteLevel: Double = 1023, baseISO: Double = 55, fixedPatternSeed: UInt64 = 1
    ) {
        self.fullWellElectrons = fullWellElectrons
        self.readNoiseElectrons = readNoiseElectrons
        self.prnu = prnu
        self.dsnuElectrons = dsnuElectrons
        self.darkCurrentElectronsPerSecond = darkCurrentElectronsPerSecond
        self.adcBits = adcBits
        self.blackLevel = blackLevel
        self.whiteLevel = whiteLevel
        self.baseISO = baseISO
        self.fixedPatternSeed = fixedPatternSeed
    }

    /// Conversion gain at `iso`, DN per electron: the full well spans black…white at base ISO,
    /// and ISO multiplies the gain (ISO 12232 speed as analogue gain relative to base).
    public func gain(iso: Double) -> Double {
        (whiteLevel - blackLevel) / fullWellElectrons * iso / baseISO
    }
}
