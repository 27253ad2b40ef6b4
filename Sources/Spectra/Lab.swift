import Foundation

/// CIE 1976 L*a*b* (CIE 15:2018 §8.2.1).
public struct Lab: Sendable, Hashable {
    public var L: Double
    public var a: Double
    public var b: Double

    /// A colour from its lightness and opponent coordinates.
    public init(L: Double, a: Double, b: Double) {
        self.L = L
        self.a = a
        self.b = b
    }

    // CIE 15:2018 eq. 8.3–8.8: the cube root with a linear toe below (6/29)³.
    private static let epsilon = 216.0 / 24389.0
    private static let kappa = 24389.0 / 27.0

    private static func f(_ t: Double) -> Double {
        t > epsilon ? cbrt(t) : (kappa * t + 16) / 116
    }

    private static func fInverse(_ f: Double) -> Double {
        let t = f * f * f
        return t > epsilon ? t : (116 * f - 16) / kappa
    }

    /// The CIELAB coordinates of tristimulus values relative to a reference white (same scale).
    public init(_ xyz: XYZ, white: XYZ) {
        let fx = Lab.f(xyz.X / white.X)
        let fy = Lab.f(xyz.Y / white.Y)
        let fz = Lab.f(xyz.Z / white.Z)
        self.init(L: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    /// The tristimulus values of this colour relative to a reference white.
    public func xyz(white: XYZ) -> XYZ {
        let fy = (L + 16) / 116
        let fx = fy + a / 500
        let fz = fy - b / 200
        return XYZ(white.X * Lab.fInverse(fx), white.Y * Lab.fInverse(fy), white.Z * Lab.fInverse(fz))
    }

    /// The cylindrical form: chroma C*ab and hue angle hab in degrees, 0 ≤ h < 360.
    public var lch: LCh {
        var h = atan2(b, a) * 180 / .pi
        if h < 0 { h += 360 }
        return LCh(L: L, C: (a * a + b * b).squareRoot(), h: h)
    }
}

/// CIELAB in cylindrical coordinates: lightness, chroma and hue angle (degrees).
public struct LCh: Sendable, Hashable {
    public var L: Double
    public var C: Double
    /// Hue angle in degrees.
    public var h: Double

    /// A colour from lightness, chroma and hue angle in degrees.
    public init(L: Double, C: Double, h: Double) {
        self.L = L
        self.C = C
        self.h = h
    }

    /// The rectangular form.
    public var lab: Lab {
        let r = h * .pi / 180
        return Lab(L: L, a: C * cos(r), b: C * sin(r))
    }
}
