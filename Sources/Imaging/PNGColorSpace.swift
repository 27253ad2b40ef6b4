/// The colour space a PNG declares.
public enum PNGColorSpace: Sendable, Equatable {
    /// No colour chunks.
    case untagged
    /// sRGB: written as the sRGB chunk (perceptual) with the gAMA 0.45455 and cHRM fallbacks the PNG spec
    /// recommends (§11.3.3.5); read back from an sRGB chunk.
    case sRGB
    /// Display P3: written as cHRM with the P3 primaries, gAMA 0.45455 and, for colour images, an iCCP chunk with
    /// `ICCProfile.displayP3`; read back from an iCCP whose description names Display P3, or from a cHRM with the
    /// P3 primaries and D65 white (within 0.001) when there is no other ICC profile.
    case displayP3
    /// Any other combination of colour chunks, written back as given.
    case other(PNGColorChunks)
}

/// The raw colour chunks of a PNG.
public struct PNGColorChunks: Sendable, Equatable {
    /// The sRGB chunk's rendering intent (0 perceptual, 1 relative, 2 saturation, 3 absolute); nil without one.
    /// Not written for `.other`: an sRGB chunk makes the image `.sRGB`.
    public var sRGBIntent: Int?
    /// The gAMA value: the encoding exponent, such as 0.45455.
    public var gamma: Double?
    /// The cHRM chromaticities.
    public var chromaticities: PrimaryChromaticities?
    /// The iCCP profile name (1–79 Latin-1 characters).
    public var iccProfileName: String?
    /// The decompressed ICC profile.
    public var iccProfile: [UInt8]?

    /// Makes a set of colour chunks.
    public init(
        sRGBIntent: Int? = nil, gamma: Double? = nil, chromaticities: PrimaryChromaticities? = nil,
        iccProfileName: String? = nil, iccProfile: [UInt8]? = nil
    ) {
        self.sRGBIntent = sRGBIntent
        self.gamma = gamma
        self.chromaticities = chromaticities
        self.iccProfileName = iccProfileName
        self.iccProfile = iccProfile
    }

    /// Whether the chunks declare nothing.
    var isEmpty: Bool { sRGBIntent == nil && gamma == nil && chromaticities == nil && iccProfile == nil }

    /// The tag these chunks amount to (see `PNGColorSpace`).
    var colorSpace: PNGColorSpace {
        if sRGBIntent != nil { return .sRGB }
        if let iccProfile {
            let description = ICCProfile.description(of: iccProfile) ?? ""
            return description.lowercased().contains("display p3") ? .displayP3 : .other(self)
        }
        if let chromaticities, chromaticities.isClose(to: .displayP3) { return .displayP3 }
        return isEmpty ? .untagged : .other(self)
    }
}

/// The gAMA value for a curve close to the sRGB one: 1/2.2 (PNG spec §11.3.3.5).
let sRGBFallbackGamma = 0.45455
