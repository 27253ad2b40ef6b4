/// How a format's pictures are read off the sensor, which sets the noise of each delivered pixel.
///
/// - `full`: every photosite is read once and the picture has the sensor's pixels (a full-resolution
///   photo format).
/// - `binned`: each 2×2 block of photosites sums its charge before one read (charge binning), so a
///   read holds four photosites' signal and shot noise with one read noise; the binned readout has
///   half the sensor's width and height.
/// - `scaled`: every photosite is read, and the ISP averages the full readout down to the format's
///   size, dividing the noise variance by the area ratio.
///
/// Whatever the mode, a picture smaller than the readout is averaged down from it, as a phone's ISP
/// scales a photo to the size asked for.
public struct FormatReadout: Sendable, Hashable, Codable {
    /// The three ways a format is read out.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        case full, binned, scaled
    }

    /// How the sensor is read.
    public var mode: Mode
    /// Full well of one binned read, electrons; nil for four photosites' wells. Binned only.
    public var binnedFullWellE: Double?
    /// Read noise of one binned read, electrons RMS; nil for the photosite's. Binned only.
    public var binnedReadNoiseE: Double?

    /// Photosites whose charge one read sums: 4 for 2×2 binning, else 1.
    public var summedPhotosites: Int { mode == .binned ? 4 : 1 }

    /// A readout from its values.
    public init(mode: Mode, binnedFullWellE: Double? = nil, binnedReadNoiseE: Double? = nil) {
        self.mode = mode
        self.binnedFullWellE = binnedFullWellE
        self.binnedReadNoiseE = binnedReadNoiseE
    }
}
