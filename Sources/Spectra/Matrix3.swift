/// A 3×3 matrix of doubles, stored row-major; the workhorse of tristimulus algebra.
public struct Matrix3: Sendable, Hashable {
    /// The nine entries, row by row.
    public private(set) var entries: [Double]

    /// A matrix from three rows of three values.
    public init(rows: [[Double]]) {
        precondition(rows.count == 3 && rows.allSatisfy { $0.count == 3 }, "Matrix3 needs 3 rows of 3 values")
        entries = rows.flatMap { $0 }
    }

    /// A matrix whose rows are the given vectors.
    public init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        entries = [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z]
    }

    /// A diagonal matrix.
    public static func diagonal(_ d: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: [[d.x, 0, 0], [0, d.y, 0], [0, 0, d.z]])
    }

    /// The identity matrix.
    public static let identity = Matrix3(rows: [[1, 0, 0], [0, 1, 0], [0, 0, 1]])

    /// The entry at a row and column, each 0…2.
    public subscript(row: Int, column: Int) -> Double {
        get { entries[row * 3 + column] }
        set { entries[row * 3 + column] = newValue }
    }

    /// The rows as nested arrays.
    public var rows: [[Double]] { (0..<3).map { r in (0..<3).map { self[r, $0] } } }

    /// Matrix product.
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var out = Matrix3(rows: [[0, 0, 0], [0, 0, 0], [0, 0, 0]])
        for r in 0..<3 {
            for c in 0..<3 {
                out[r, c] = a[r, 0] * b[0, c] + a[r, 1] * b[1, c] + a[r, 2] * b[2, c]
            }
        }
        return out
    }

    /// Matrix times column vector.
    public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(
            m[0, 0] * v.x + m[0, 1] * v.y + m[0, 2] * v.z,
            m[1, 0] * v.x + m[1, 1] * v.y + m[1, 2] * v.z,
            m[2, 0] * v.x + m[2, 1] * v.y + m[2, 2] * v.z
        )
    }

    /// The determinant.
    public var determinant: Double {
        self[0, 0] * (self[1, 1] * self[2, 2] - self[1, 2] * self[2, 1])
            - self[0, 1] * (self[1, 0] * self[2, 2] - self[1, 2] * self[2, 0])
            + self[0, 2] * (self[1, 0] * self[2, 1] - self[1, 1] * self[2, 0])
    }

    /// The inverse by the adjugate, or nil when the matrix is singular (|det| below 1e-300).
    public var inverse: Matrix3? {
        let det = determinant
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        let m = self
        let cofactors: [[Double]] = [
            [
                m[1, 1] * m[2, 2] - m[1, 2] * m[2, 1],
                m[0, 2] * m[2, 1] - m[0, 1] * m[2, 2],
                m[0, 1] * m[1, 2] - m[0, 2] * m[1, 1],
            ],
            [
                m[1, 2] * m[2, 0] - m[1, 0] * m[2, 2],
                m[0, 0] * m[2, 2] - m[0, 2] * m[2, 0],
                m[0, 2] * m[1, 0] - m[0, 0] * m[1, 2],
            ],
            [
                m[1, 0] * m[2, 1] - m[1, 1] * m[2, 0],
                m[0, 1] * m[2, 0] - m[0, 0] * m[2, 1],
                m[0, 0] * m[1, 1] - m[0, 1] * m[1, 0],
            ],
        ]
        return Matrix3(rows: cofactors.map { $0.map { $0 / det } })
    }

    /// The transpose.
    public var transposed: Matrix3 {
        Matrix3(rows: (0..<3).map { c in (0..<3).map { self[$0, c] } })
    }
}
