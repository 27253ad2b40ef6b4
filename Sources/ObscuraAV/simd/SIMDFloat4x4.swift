/// `simd_float2`.
public typealias simd_float2 = SIMD2<Float>
/// The older name of `simd_float2`, which Vision's landmark functions take.
public typealias vector_float2 = SIMD2<Float>
/// `simd_float4`.
public typealias simd_float4 = SIMD4<Float>
/// `simd_double2`.
public typealias simd_double2 = SIMD2<Double>
/// `simd_double3`.
public typealias simd_double3 = SIMD3<Double>
/// `simd_double4`.
public typealias simd_double4 = SIMD4<Double>
/// `simd_int2`.
public typealias simd_int2 = SIMD2<Int32>
/// `simd_int3`.
public typealias simd_int3 = SIMD3<Int32>
/// `simd_int4`.
public typealias simd_int4 = SIMD4<Int32>

/// A 4×4 float matrix stored as four columns (`simd_float4x4`), e.g. a homogeneous transform.
public struct simd_float4x4: Sendable, Equatable {
    public var columns: (simd_float4, simd_float4, simd_float4, simd_float4)

    /// The zero matrix.
    public init() { columns = (.zero, .zero, .zero, .zero) }

    public init(columns: (simd_float4, simd_float4, simd_float4, simd_float4)) { self.columns = columns }

    /// From four columns.
    public init(_ col0: simd_float4, _ col1: simd_float4, _ col2: simd_float4, _ col3: simd_float4) {
        columns = (col0, col1, col2, col3)
    }

    /// From an array of exactly four columns.
    public init(_ columns: [simd_float4]) {
        precondition(columns.count == 4, "simd_float4x4 needs 4 columns")
        self.columns = (columns[0], columns[1], columns[2], columns[3])
    }

    /// From exactly four rows.
    public init(rows: [simd_float4]) {
        precondition(rows.count == 4, "simd_float4x4 needs 4 rows")
        self.init(rows[0], rows[1], rows[2], rows[3])
        self = transpose
    }

    /// A diagonal matrix.
    public init(diagonal: simd_float4) {
        columns = (
            simd_float4(diagonal.x, 0, 0, 0), simd_float4(0, diagonal.y, 0, 0), simd_float4(0, 0, diagonal.z, 0),
            simd_float4(0, 0, 0, diagonal.w)
        )
    }

    /// `scalar` times the identity.
    public init(_ scalar: Float) { self.init(diagonal: simd_float4(repeating: scalar)) }

    /// A column.
    public subscript(column: Int) -> simd_float4 {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            case 2: return columns.2
            case 3: return columns.3
            default: preconditionFailure("column index out of range")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            case 3: columns.3 = newValue
            default: preconditionFailure("column index out of range")
            }
        }
    }

    /// An element by column and row.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    public static func == (a: simd_float4x4, b: simd_float4x4) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
            && a.columns.3 == b.columns.3
    }

    /// The transpose.
    public var transpose: simd_float4x4 {
        let c = columns
        return simd_float4x4(
            simd_float4(c.0.x, c.1.x, c.2.x, c.3.x), simd_float4(c.0.y, c.1.y, c.2.y, c.3.y),
            simd_float4(c.0.z, c.1.z, c.2.z, c.3.z), simd_float4(c.0.w, c.1.w, c.2.w, c.3.w))
    }

    /// The inverse, by Gauss–Jordan elimination with partial pivoting in double precision. A singular matrix
    /// gives non-finite entries, as simd's does, rather than a trap.
    public var inverse: simd_float4x4 {
        var a = (0..<4).map { r in (0..<4).map { c in Double(self[c, r]) } }
        var inv = (0..<4).map { r in (0..<4).map { c in r == c ? 1.0 : 0.0 } }
        for col in 0..<4 {
            let pivot = (col..<4).max { abs(a[$0][col]) < abs(a[$1][col]) } ?? col
            a.swapAt(col, pivot)
            inv.swapAt(col, pivot)
            let p = a[col][col]
            for c in 0..<4 {
                a[col][c] /= p
                inv[col][c] /= p
            }
            for r in 0..<4 where r != col {
                let f = a[r][col]
                guard f != 0 else { continue }
                for c in 0..<4 {
                    a[r][c] -= f * a[col][c]
                    inv[r][c] -= f * inv[col][c]
                }
            }
        }
        var m = simd_float4x4()
        for r in 0..<4 { for c in 0..<4 { m[c, r] = Float(inv[r][c]) } }
        return m
    }

    /// Matrix × vector.
    public static func * (m: simd_float4x4, v: simd_float4) -> simd_float4 {
        m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z + m.columns.3 * v.w
    }

    /// Matrix × matrix.
    public static func * (a: simd_float4x4, b: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
    }

    public static func + (a: simd_float4x4, b: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(
            a.columns.0 + b.columns.0, a.columns.1 + b.columns.1, a.columns.2 + b.columns.2, a.columns.3 + b.columns.3)
    }

    public static func * (s: Float, m: simd_float4x4) -> simd_float4x4 {
        simd_float4x4(s * m.columns.0, s * m.columns.1, s * m.columns.2, s * m.columns.3)
    }
}

/// `matrix_float4x4`, simd's older name.
public typealias matrix_float4x4 = simd_float4x4
/// The 4×4 identity.
public let matrix_identity_float4x4 = simd_float4x4(diagonal: simd_float4(1, 1, 1, 1))
