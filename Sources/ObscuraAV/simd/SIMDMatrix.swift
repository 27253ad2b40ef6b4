/// `simd_float3`: three floats (SIMD3<Float>, 16-byte aligned storage as in simd).
public typealias simd_float3 = SIMD3<Float>

/// A 3×3 float matrix stored as three columns, simd's layout (`simd_float3x3`).
///
/// Column-major like simd: `columns.2` holds the third column, so an intrinsic matrix
/// `[[fx,0,ox],[0,fy,oy],[0,0,1]]` has `columns.2 == (ox, oy, 1)` (spec §10).
public struct simd_float3x3: Sendable, Equatable {
    public var columns: (simd_float3, simd_float3, simd_float3)

    /// The zero matrix.
    public init() { columns = (.zero, .zero, .zero) }

    public init(columns: (simd_float3, simd_float3, simd_float3)) { self.columns = columns }

    /// From an array of exactly three columns.
    public init(_ columns: [simd_float3]) {
        precondition(columns.count == 3, "simd_float3x3 needs 3 columns")
        self.columns = (columns[0], columns[1], columns[2])
    }

    /// From three columns.
    public init(_ col0: simd_float3, _ col1: simd_float3, _ col2: simd_float3) { columns = (col0, col1, col2) }

    /// `scalar` times the identity.
    public init(_ scalar: Float) { self.init(diagonal: simd_float3(repeating: scalar)) }

    /// A diagonal matrix.
    public init(diagonal: simd_float3) {
        columns = (simd_float3(diagonal.x, 0, 0), simd_float3(0, diagonal.y, 0), simd_float3(0, 0, diagonal.z))
    }

    /// From rows (transposed into columns).
    public init(rows: [simd_float3]) {
        precondition(rows.count == 3, "simd_float3x3 needs 3 rows")
        columns = (
            simd_float3(rows[0].x, rows[1].x, rows[2].x), simd_float3(rows[0].y, rows[1].y, rows[2].y),
            simd_float3(rows[0].z, rows[1].z, rows[2].z)
        )
    }

    /// A column.
    public subscript(column: Int) -> simd_float3 {
        get {
            switch column {
            case 0: return columns.0
            case 1: return columns.1
            case 2: return columns.2
            default: preconditionFailure("column index out of range")
            }
        }
        set {
            switch column {
            case 0: columns.0 = newValue
            case 1: columns.1 = newValue
            case 2: columns.2 = newValue
            default: preconditionFailure("column index out of range")
            }
        }
    }

    /// An element by column and row.
    public subscript(column: Int, row: Int) -> Float {
        get { self[column][row] }
        set { self[column][row] = newValue }
    }

    public static func == (a: simd_float3x3, b: simd_float3x3) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
    }

    /// Matrix × vector.
    public static func * (m: simd_float3x3, v: simd_float3) -> simd_float3 {
        m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z
    }
}

/// A 4-column × 3-row float matrix (`simd_float4x3`): an extrinsic `[R | t]` (spec §10).
public struct simd_float4x3: Sendable, Equatable {
    public var columns: (simd_float3, simd_float3, simd_float3, simd_float3)

    /// The zero matrix.
    public init() { columns = (.zero, .zero, .zero, .zero) }

    public init(columns: (simd_float3, simd_float3, simd_float3, simd_float3)) { self.columns = columns }

    /// From an array of exactly four columns.
    public init(_ columns: [simd_float3]) {
        precondition(columns.count == 4, "simd_float4x3 needs 4 columns")
        self.columns = (columns[0], columns[1], columns[2], columns[3])
    }

    /// From four columns.
    public init(_ col0: simd_float3, _ col1: simd_float3, _ col2: simd_float3, _ col3: simd_float3) {
        columns = (col0, col1, col2, col3)
    }

    /// From exactly three rows of four.
    public init(rows: [simd_float4]) {
        precondition(rows.count == 3, "simd_float4x3 needs 3 rows")
        columns = (
            simd_float3(rows[0].x, rows[1].x, rows[2].x), simd_float3(rows[0].y, rows[1].y, rows[2].y),
            simd_float3(rows[0].z, rows[1].z, rows[2].z), simd_float3(rows[0].w, rows[1].w, rows[2].w)
        )
    }

    /// A column.
    public subscript(column: Int) -> simd_float3 {
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

    public static func == (a: simd_float4x3, b: simd_float4x3) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2
            && a.columns.3 == b.columns.3
    }
}

/// `matrix_float3x3`, simd's older name.
public typealias matrix_float3x3 = simd_float3x3
/// `matrix_float4x3`, simd's older name.
public typealias matrix_float4x3 = simd_float4x3
/// The 3×3 identity.
public let matrix_identity_float3x3 = simd_float3x3(diagonal: simd_float3(1, 1, 1))
