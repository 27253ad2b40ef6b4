/// An additive RGB colour space: primaries, white point and transfer function.
///
/// The RGB → XYZ matrix is derived from the primaries and the white (SMPTE RP 177 method), not
/// copied from the 4-decimal matrices printed in IEC 61966-2-1, so the two directions are exact
/// inverses and conversions between spaces with the same white map white to white.
public struct RGBColorSpace: Sendable, Hashable {
    public let name: String
    public let red: Chromaticity
    public let green: Chromaticity
    public let blue: Chromaticity
    public let white: Chromaticity
    /// Linear RGB → XYZ with Y(white) = 1.
    public let toXYZ: Matrix3
    /// XYZ → linear RGB.
    public let fromXYZ: Matrix3
    public let transfer: TransferFunction

    /// A colour space from its primaries and white; throws if the primaries are collinear.
    public init(
        name: String, red: Chromaticity, green: Chromaticity, blue: Chromaticity, white: Chromaticity,
        transfer: TransferFunction
    ) throws {
        let p = Matrix3(rows: red.xyz().vector, green.xyz().vector, blue.xyz().vector).transposed
        guard let pInverse = p.inverse else {
            throw SpectraError("the primaries of \(name) are collinear; they span no colour space")
        }
        let scale = pInverse * white.xyz().vector
        let toXYZ = p * Matrix3.diagonal(scale)
        guard let fromXYZ = toXYZ.inverse else {
            throw SpectraError("the white point of \(name) gives a singular RGB → XYZ matrix")
        }
        self.name = name
        self.red = red
        self.green = green
        self.blue = blue
        self.white = white
        self.toXYZ = toXYZ
        self.fromXYZ = fromXYZ
        self.transfer = transfer
    }

    private static let d65 = Chromaticity(x: 0.3127, y: 0.3290)

    private static func builtIn(
        _ name: String, _ r: (Double, Double), _ g: (Double, Double), _ b: (Double, Double),
        _ transfer: TransferFunction
    ) -> RGBColorSpace {
        do {
            return try RGBColorSpace(
                name: name, red: Chromaticity(x: r.0, y: r.1), green: Chromaticity(x: g.0, y: g.1),
                blue: Chromaticity(x: b.0, y: b.1), white: d65, transfer: transfer)
        } catch {
            preconditionFailure("built-in colour space \(name) is invalid: \(error)")
        }
    }

    /// sRGB (IEC 61966-2-1): Rec. 709 primaries, D65, the sRGB curve.
    public static let sRGB = builtIn("sRGB", (0.64, 0.33), (0.30, 0.60), (0.15, 0.06), .sRGB)
    /// sRGB primaries with linear encoding.
    public static let linearSRGB = builtIn("Linear sRGB", (0.64, 0.33), (0.30, 0.60), (0.15, 0.06), .linear)
    /// Display P3 (SMPTE EG 432-1 primaries, D65 white, sRGB curve), Apple's display space.
    public static let displayP3 = builtIn("Display P3", (0.680, 0.320), (0.265, 0.690), (0.150, 0.060), .sRGB)
    /// Display P3 primaries with linear encoding.
    public static let linearDisplayP3 = builtIn(
        "Linear Display P3", (0.680, 0.320), (0.265, 0.690), (0.150, 0.060), .linear)
    /// ITU-R BT.2020 primaries, D65, linear encoding.
    public static let linearRec2020 = builtIn("Linear Rec. 2020", (0.708, 0.292), (0.170, 0.797), (0.131, 0.046), .linear)

    /// Linear RGB of `source` → linear RGB of `destination`, without adaptation (both whites are
    /// taken as they are; adapt first if they differ).
    public static func conversion(from source: RGBColorSpace, to destination: RGBColorSpace) -> Matrix3 {
        destination.fromXYZ * source.toXYZ
    }
}
