/// A plane projective transformation: a 3 × 3 matrix acting on homogeneous points `(x, y, 1)`.
///
/// Points are continuous pixel coordinates: pixel `(i, j)` covers `[i, i + 1) × [j, j + 1)`, with its centre at
/// `(i + 0.5, j + 0.5)`, the origin at the top-left corner and y pointing down.
public struct Homography: Sendable, Equatable {
    /// The matrix, row-major: `x' = (m0 x + m1 y + m2) / (m6 x + m7 y + m8)`, `y' = (m3 x + m4 y + m5) / (…)`.
    public var entries: [Double]

    /// Makes a homography from nine row-major entries.
    public init(entries: [Double]) {
        precondition(entries.count == 9, "a homography has 9 entries, got \(entries.count)")
        self.entries = entries
    }

    /// The identity.
    public static let identity = Homography(entries: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The homography that maps each `source[i]` onto `destination[i]`, from exactly four correspondences.
    ///
    /// Solves the direct linear transformation with `h₈ = 1` (Hartley & Zisserman, *Multiple View Geometry*,
    /// 2nd ed., §4.1): each pair gives two rows of an 8 × 8 system, solved by Gaussian elimination with partial
    /// pivoting after translating and scaling both point sets to unit RMS size (§4.4, normalised DLT), which keeps
    /// the system well conditioned for pixel coordinates in the thousands. Returns nil when three of the points are
    /// collinear (the system is singular).
    public init?(mapping source: [SIMD2<Double>], to destination: [SIMD2<Double>]) {
        precondition(source.count == 4 && destination.count == 4, "a homography needs exactly 4 point pairs")
        let (sourceNorm, sourcePoints) = Homography.normalizing(source)
        let (destinationNorm, destinationPoints) = Homography.normalizing(destination)
        // Rows: [x, y, 1, 0, 0, 0, -x x', -y x' | x'] and [0, 0, 0, x, y, 1, -x y', -y y' | y'].
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let p = sourcePoints[i], q = destinationPoints[i]
            a[2 * i] = [p.x, p.y, 1, 0, 0, 0, -p.x * q.x, -p.y * q.x, q.x]
            a[2 * i + 1] = [0, 0, 0, p.x, p.y, 1, -p.x * q.y, -p.y * q.y, q.y]
        }
        guard let h = Homography.solve(&a) else { return nil }
        let normalized = Homography(entries: h + [1])
        // H = T_dst⁻¹ · Ĥ · T_src.
        guard let destinationInverse = destinationNorm.inverse else { return nil }
        self = destinationInverse.concatenating(normalized).concatenating(sourceNorm)
        guard let scale = self.entries.last, scale != 0 else { return nil }
        self.entries = self.entries.map { $0 / scale }
    }

    /// The image of point `p`; non-finite when `p` maps to infinity.
    public func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let m = entries
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return SIMD2((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// `self ∘ other`: apply `other` first, then `self`.
    public func concatenating(_ other: Homography) -> Homography {
        let a = entries, b = other.entries
        var c = [Double](repeating: 0, count: 9)
        for r in 0..<3 {
            for k in 0..<3 {
                c[3 * r + k] = a[3 * r] * b[k] + a[3 * r + 1] * b[3 + k] + a[3 * r + 2] * b[6 + k]
            }
        }
        return Homography(entries: c)
    }

    /// The inverse transformation (adjugate over determinant), or nil when the matrix is singular.
    public var inverse: Homography? {
        let m = entries
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard det != 0, det.isFinite else { return nil }
        let inv: [Double] = [
            c00, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            c01, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            c02, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return Homography(entries: inv.map { $0 / det })
    }

    /// A similarity that moves the points' centroid to the origin and their RMS distance to √2.
    private static func normalizing(_ points: [SIMD2<Double>]) -> (Homography, [SIMD2<Double>]) {
        let centroid = points.reduce(SIMD2<Double>.zero, +) / Double(points.count)
        let meanSquare = points.map { ($0 - centroid).x * ($0 - centroid).x + ($0 - centroid).y * ($0 - centroid).y }
            .reduce(0, +) / Double(points.count)
        let s = meanSquare > 0 ? (2 / meanSquare).squareRoot() : 1
        let t = Homography(entries: [s, 0, -s * centroid.x, 0, s, -s * centroid.y, 0, 0, 1])
        return (t, points.map { ($0 - centroid) * s })
    }

    /// Solves an n × n system given as rows `[A | b]` by Gaussian elimination with partial pivoting.
    package static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = a.count
        for column in 0..<n {
            var pivot = column
            for row in (column + 1)..<n where abs(a[row][column]) > abs(a[pivot][column]) { pivot = row }
            guard abs(a[pivot][column]) > 1e-12 else { return nil }
            a.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = a[row][column] / a[column][column]
                if factor == 0 { continue }
                for k in column...n { a[row][k] -= factor * a[column][k] }
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = a[row][n]
            for k in (row + 1)..<n { sum -= a[row][k] * x[k] }
            x[row] = sum / a[row][row]
        }
        return x
    }
}
