/// The CIE 1931 xy chromaticities of an RGB colour space's white point and primaries, as a PNG cHRM chunk holds them.
public struct PrimaryChromaticities: Sendable, Hashable {
    /// One CIE 1931 xy chromaticity.
    public struct XY: Sendable, Hashable {
        /// CIE x.
        public var x: Double
        /// CIE y.
        public var y: Double

        /// Makes a chromaticity.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The white point.
    public var white: XY
    /// The red primary.
    public var red: XY
    /// The green primary.
    public var green: XY
    /// The blue primary.
    public var blue: XY

    /// Makes a set of chromaticities.
    public init(white: XY, red: XY, green: XY, blue: XY) {
        self.white = white
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// ITU-R BT.709 / IEC 61966-2-1 (sRGB) primaries with a D65 white.
    public static let sRGB = PrimaryChromaticities(
        white: XY(x: 0.3127, y: 0.3290), red: XY(x: 0.640, y: 0.330), green: XY(x: 0.300, y: 0.600),
        blue: XY(x: 0.150, y: 0.060))

    /// Display P3: SMPTE EG 432-1 (DCI-P3) primaries with a D65 white.
    public static let displayP3 = PrimaryChromaticities(
        white: XY(x: 0.3127, y: 0.3290), red: XY(x: 0.680, y: 0.320), green: XY(x: 0.265, y: 0.690),
        blue: XY(x: 0.150, y: 0.060))

    /// Whether every coordinate is within `tolerance` of `other`'s.
    public func isClose(to other: PrimaryChromaticities, tolerance: Double = 0.001) -> Bool {
        let pairs = [(white, other.white), (red, other.red), (green, other.green), (blue, other.blue)]
        return pairs.allSatisfy { abs($0.x - $1.x) <= tolerance && abs($0.y - $1.y) <= tolerance }
    }
}
