/// A width and height in pixels (`CMVideoDimensions`).
public struct Dimensions: Sendable, Hashable, Codable, CustomStringConvertible, Comparable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Dimensions from width and height.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width over height.
    public var aspectRatio: Double { Double(width) / Double(height) }

    /// Number of pixels.
    public var area: Int { width * height }

    /// The largest centred region of these dimensions with `other`'s aspect ratio, at the same pixel
    /// pitch: how a 16:9 format is cut from a 4:3 sensor. Sides round to whole pixels.
    public func centredCrop(toAspectOf other: Dimensions) -> Dimensions {
        guard other.width > 0, other.height > 0 else { return self }
        if other.aspectRatio >= aspectRatio {
            return Dimensions(width: width, height: Int((Double(width) / other.aspectRatio).rounded()))
        }
        return Dimensions(width: Int((Double(height) * other.aspectRatio).rounded()), height: height)
    }

    /// `WxH`.
    public var description: String { "\(width)x\(height)" }

    /// Ordered by pixel count, then width (the ascending order of `supportedMaxPhotoDimensions`).
    public static func < (a: Dimensions, b: Dimensions) -> Bool {
        (a.area, a.width) < (b.area, b.width)
    }
}
