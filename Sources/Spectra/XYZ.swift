/// CIE XYZ tristimulus values. Obscura's convention: the perfect diffuser has Y = 100.
public struct XYZ: Sendable, Hashable {
    public var X: Double
    public var Y: Double
    public var Z: Double

    /// Tristimulus values from their three components.
    public init(_ X: Double, _ Y: Double, _ Z: Double) {
        self.X = X
        self.Y = Y
        self.Z = Z
    }

    /// Tristimulus values from a vector (X, Y, Z).
    public init(_ v: SIMD3<Double>) {
        self.init(v.x, v.y, v.z)
    }

    /// (X, Y, Z) as a vector.
    public var vector: SIMD3<Double> { SIMD3(X, Y, Z) }

    /// The CIE 1931 chromaticity x = X/(X+Y+Z), y = Y/(X+Y+Z) (CIE 15:2018 §7.3).
    /// Black has no chromaticity; it maps to (0, 0).
    public var chromaticity: Chromaticity {
        let sum = X + Y + Z
        guard sum != 0 else { return Chromaticity(x: 0, y: 0) }
        return Chromaticity(x: X / sum, y: Y / sum)
    }
}
