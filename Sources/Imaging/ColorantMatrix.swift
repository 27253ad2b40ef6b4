/// The 3×3 matrix arithmetic an ICC matrix/TRC profile needs: RGB → XYZ from chromaticities, and Bradford
/// adaptation to the D50 profile connection space. Kept here because Imaging sits below Spectra.
struct Matrix3: Equatable {
    /// Rows.
    var m: [[Double]]

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(m: (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a.m[i][$1] * b.m[$1][j] } } })
    }

    static func * (a: Matrix3, v: [Double]) -> [Double] {
        (0..<3).map { i in (0..<3).reduce(0) { $0 + a.m[i][$1] * v[$1] } }
    }

    static func diagonal(_ d: [Double]) -> Matrix3 {
        Matrix3(m: (0..<3).map { i in (0..<3).map { j in i == j ? d[i] : 0 } })
    }

    func column(_ j: Int) -> [Double] { (0..<3).map { m[$0][j] } }

    /// The inverse by cofactors; nil when singular (collinear primaries).
    var inverse: Matrix3? {
        let a = m
        let c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1]
        let c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2]
        let c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0]
        let determinant = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02
        guard abs(determinant) > 1e-12 else { return nil }
        let r = 1 / determinant
        return Matrix3(m: [
            [c00 * r, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * r, (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * r],
            [c01 * r, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * r, (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * r],
            [c02 * r, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * r, (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * r],
        ])
    }

    /// XYZ of chromaticity (x, y) at luminance Y = 1.
    static func xyz(_ c: PrimaryChromaticities.XY) -> [Double] {
        [c.x / c.y, 1, (1 - c.x - c.y) / c.y]
    }

    /// The normalised primary matrix: linear RGB → XYZ with RGB (1, 1, 1) mapping to the white at Y = 1
    /// (SMPTE RP 177-1993 §3.3).
    static func rgbToXYZ(_ c: PrimaryChromaticities) -> Matrix3? {
        let primaries = [xyz(c.red), xyz(c.green), xyz(c.blue)]
        let p = Matrix3(m: (0..<3).map { i in primaries.map { $0[i] } })
        guard let inverse = p.inverse else { return nil }
        return p * diagonal(inverse * xyz(c.white))
    }

    /// The Bradford cone response matrix (Lam 1985; ICC.1:2010 Annex E).
    static let bradford = Matrix3(m: [
        [0.8951, 0.2664, -0.1614],
        [-0.7502, 1.7135, 0.0367],
        [0.0389, -0.0685, 1.0296],
    ])

    /// The Bradford chromatic adaptation from `source` white XYZ to `destination` white XYZ (ICC.1:2010 Annex E.3).
    static func bradfordAdaptation(from source: [Double], to destination: [Double]) -> Matrix3? {
        guard let inverse = bradford.inverse else { return nil }
        let s = bradford * source
        let d = bradford * destination
        return inverse * diagonal([d[0] / s[0], d[1] / s[1], d[2] / s[2]]) * bradford
    }
}
