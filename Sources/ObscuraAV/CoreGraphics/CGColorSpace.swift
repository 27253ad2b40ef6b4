import Foundation

/// The kind of colour a space holds (`CGColorSpaceModel`, Apple's raw values).
public enum CGColorSpaceModel: Int32, Sendable, Hashable {
    case unknown = -1
    case monochrome = 0
    case rgb = 1
    case cmyk = 2
    case lab = 3
    case deviceN = 4
    case indexed = 5
    case pattern = 6
    case XYZ = 7
}

/// A colour space, known by its name (`CGColorSpace`). Names are strings where Apple's are
/// `CFString`s, so comparisons such as `image.colorSpace?.name == CGColorSpace.sRGB` read the same;
/// the values are Apple's constant strings.
public final class CGColorSpace: @unchecked Sendable, Hashable {
    /// The IEC 61966-2-1 sRGB space.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// sRGB extended past 0…1 (and below 0) with the curve mirrored.
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    /// sRGB primaries, linear.
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"
    /// sRGB primaries, linear, extended range.
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB"
    /// Display P3: P3 primaries, D65 white, the sRGB transfer curve.
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    /// Display P3, extended range.
    public static let extendedDisplayP3 = "kCGColorSpaceExtendedDisplayP3"
    /// Display P3 primaries, linear.
    public static let linearDisplayP3 = "kCGColorSpaceLinearDisplayP3"
    /// Display P3 primaries, linear, extended range.
    public static let extendedLinearDisplayP3 = "kCGColorSpaceExtendedLinearDisplayP3"
    /// Display P3 with the hybrid log-gamma curve.
    public static let displayP3_HLG = "kCGColorSpaceDisplayP3_HLG"
    /// Display P3 with the perceptual quantiser curve.
    public static let displayP3_PQ = "kCGColorSpaceDisplayP3_PQ"
    /// DCI P3: P3 primaries, the DCI white, gamma 2.6.
    public static let dcip3 = "kCGColorSpaceDCIP3"
    /// ITU-R BT.709.
    public static let itur_709 = "kCGColorSpaceITUR_709"
    /// BT.709 primaries with the hybrid log-gamma curve.
    public static let itur_709_HLG = "kCGColorSpaceITUR_709_HLG"
    /// BT.709 primaries with the perceptual quantiser curve.
    public static let itur_709_PQ = "kCGColorSpaceITUR_709_PQ"
    /// ITU-R BT.2020.
    public static let itur_2020 = "kCGColorSpaceITUR_2020"
    /// BT.2020, extended range.
    public static let extendedITUR_2020 = "kCGColorSpaceExtendedITUR_2020"
    /// BT.2020 primaries, linear.
    public static let linearITUR_2020 = "kCGColorSpaceLinearITUR_2020"
    /// BT.2020 primaries, linear, extended range.
    public static let extendedLinearITUR_2020 = "kCGColorSpaceExtendedLinearITUR_2020"
    /// BT.2020 primaries with the hybrid log-gamma curve.
    public static let itur_2020_HLG = "kCGColorSpaceITUR_2020_HLG"
    /// BT.2020 primaries with the perceptual quantiser curve.
    public static let itur_2020_PQ = "kCGColorSpaceITUR_2020_PQ"
    /// ITU-R BT.2100 with the hybrid log-gamma curve.
    public static let itur_2100_HLG = "kCGColorSpaceITUR_2100_HLG"
    /// ITU-R BT.2100 with the perceptual quantiser curve.
    public static let itur_2100_PQ = "kCGColorSpaceITUR_2100_PQ"
    /// Adobe RGB (1998).
    public static let adobeRGB1998 = "kCGColorSpaceAdobeRGB1998"
    /// ROMM RGB (ProPhoto).
    public static let rommrgb = "kCGColorSpaceROMMRGB"
    /// ACEScg: AP1 primaries, linear.
    public static let acescgLinear = "kCGColorSpaceACESCGLinear"
    /// Generic RGB, linear.
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    /// The Core Media BT.709 space.
    public static let coreMedia709 = "kCGColorSpaceCoreMedia709"
    /// Grey with gamma 2.2.
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    /// Grey, linear.
    public static let linearGray = "kCGColorSpaceLinearGray"
    /// Grey with the sRGB curve, extended range.
    public static let extendedGray = "kCGColorSpaceExtendedGray"
    /// Grey, linear, extended range.
    public static let extendedLinearGray = "kCGColorSpaceExtendedLinearGray"
    /// Generic CMYK.
    public static let genericCMYK = "kCGColorSpaceGenericCMYK"
    /// CIE 1931 XYZ.
    public static let genericXYZ = "kCGColorSpaceGenericXYZ"
    /// CIE L*a*b*.
    public static let genericLab = "kCGColorSpaceGenericLab"

    /// The model of each name `init(name:)` knows.
    private static let models: [String: CGColorSpaceModel] = {
        var models: [String: CGColorSpaceModel] = [:]
        let rgb = [
            sRGB, extendedSRGB, linearSRGB, extendedLinearSRGB, displayP3, extendedDisplayP3, linearDisplayP3,
            extendedLinearDisplayP3, displayP3_HLG, displayP3_PQ, dcip3, itur_709, itur_709_HLG, itur_709_PQ,
            itur_2020, extendedITUR_2020, linearITUR_2020, extendedLinearITUR_2020, itur_2020_HLG, itur_2020_PQ,
            itur_2100_HLG, itur_2100_PQ, adobeRGB1998, rommrgb, acescgLinear, genericRGBLinear, coreMedia709,
        ]
        for name in rgb { models[name] = .rgb }
        for name in [genericGrayGamma2_2, linearGray, extendedGray, extendedLinearGray] {
            models[name] = .monochrome
        }
        models[genericCMYK] = .cmyk
        models[genericXYZ] = .XYZ
        models[genericLab] = .lab
        return models
    }()

    /// The space's name.
    public let name: String?
    /// The kind of colour it holds.
    public let model: CGColorSpaceModel

    /// The named space; nil for a name Core Graphics does not define.
    public init?(name: String) {
        guard let model = Self.models[name] else { return nil }
        self.name = name
        self.model = model
    }

    /// A device space: its name as Core Graphics reports it, and its model.
    init(device name: String, model: CGColorSpaceModel) {
        self.name = name
        self.model = model
    }

    /// Colour components per pixel, alpha excluded.
    public var numberOfComponents: Int {
        switch model {
        case .monochrome: return 1
        case .cmyk: return 4
        case .rgb, .lab, .XYZ: return 3
        default: return 0
        }
    }

    public static func == (a: CGColorSpace, b: CGColorSpace) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// `CGColorSpaceCreateDeviceRGB`: the device's RGB space.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace {
    CGColorSpace(device: "kCGColorSpaceDeviceRGB", model: .rgb)
}

/// `CGColorSpaceCreateDeviceGray`: the device's grey space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(device: "kCGColorSpaceDeviceGray", model: .monochrome)
}
