/// A CIE 1931 (x, y) chromaticity.
public struct Chromaticity: Sendable, Hashable {
    public var x: Double
    public var y: Double

    /// A chromaticity from its x and y coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Tristimulus values with this chromaticity and the given luminance Y.
    public func xyz(luminance: Double = 1) -> XYZ {
        guard y != 0 else { return XYZ(0, 0, 0) }
        return XYZ(x * luminance / y, luminance, (1 - x - y) * luminance / y)
    }

    /// The CIE 1960 UCS coordinates, u = 4x/(−2x + 12y + 3), v = 6y/(−2x + 12y + 3)
    /// (CIE 15:2018 §8.1; the space in which CCT and Duv are defined).
    public var uv1960: (u: Double, v: Double) {
        let d = -2 * x + 12 * y + 3
        return (4 * x / d, 6 * y / d)
    }

    /// The chromaticity of a CIE 1960 (u, v) point: x = 3u/(2u − 8v + 4), y = 2v/(2u − 8v + 4).
    public init(u1960 u: Double, v1960 v: Double) {
        let d = 2 * u - 8 * v + 4
        self.init(x: 3 * u / d, y: 2 * v / d)
    }
}
