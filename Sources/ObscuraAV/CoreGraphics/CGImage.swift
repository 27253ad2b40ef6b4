import Foundation

/// How a bitmap stores alpha (`CGImageAlphaInfo`).
public enum CGImageAlphaInfo: UInt32, Sendable, Hashable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}

/// A colour space, known by its name (`CGColorSpace`). Only the named spaces Obscura encodes
/// photos in exist here; names are strings where Apple's are `CFString`s, so comparisons such as
/// `image.colorSpace?.name == CGColorSpace.sRGB` read the same.
public final class CGColorSpace: @unchecked Sendable, Hashable {
    /// The IEC 61966-2-1 sRGB space.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// Display P3: P3 primaries, D65 white, the sRGB transfer curve.
    public static let displayP3 = "kCGColorSpaceDisplayP3"

    /// The space's name.
    public let name: String?

    /// The named space; nil for names Obscura does not know.
    public init?(name: String) {
        guard name == Self.sRGB || name == Self.displayP3 else { return nil }
        self.name = name
    }

    public static func == (a: CGColorSpace, b: CGColorSpace) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A bitmap image (`CGImage`): 8 bits per component, RGB with a skipped fourth byte
/// (`.noneSkipLast`), rows packed. Obscura's images have no data provider; their bytes are read
/// through the control module.
public final class CGImage: @unchecked Sendable {
    /// Pixels per row.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Bits per colour component: 8.
    public var bitsPerComponent: Int { 8 }
    /// Bits per pixel: 32 (R, G, B and an unused byte).
    public var bitsPerPixel: Int { 32 }
    /// Bytes per row: four per pixel, no padding.
    public var bytesPerRow: Int { 4 * width }
    /// The colour space the components are encoded in.
    public let colorSpace: CGColorSpace?
    /// The fourth byte is padding, not alpha.
    public var alphaInfo: CGImageAlphaInfo { .noneSkipLast }

    /// The pixel bytes, row by row (R, G, B, 255).
    package let pixelData: Data

    package init(width: Int, height: Int, colorSpaceName: String, pixelData: Data) {
        self.width = width
        self.height = height
        colorSpace = CGColorSpace(name: colorSpaceName)
        self.pixelData = pixelData
    }
}
