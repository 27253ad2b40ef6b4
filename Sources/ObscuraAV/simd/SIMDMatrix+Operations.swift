// simd's free functions and the 3×3 and 4×3 operators that capture code uses on intrinsics and
// extrinsics (spec §10), with simd's column-major meaning: `m * v` combines m's columns.

extension simd_float3x3 {
    /// The transpose.
    public var transpose: simd_float3x3 {
        let c = columns
        return simd_float3x3(
            simd_float3(c.0.x, c.1.x, c.2.x), simd_float3(c.0.y, c.1.y, c.2.y), simd_float3(c.0.z, c.1.z, c.2.z))
    }

    /// The determinant, `c0 · (c1 × c2)`.
    public var determinant: Float { simd_dot(columns.0, simd_cross(columns.1, columns.2)) }

    /// The inverse from the adjugate: rows of the inverse are cross products of column pairs over the
    /// determinant. A singular matrix gives non-finite entries, as simd's does, rather than a trap.
    public var inverse: simd_float3x3 {
        let (a, b, c) = columns
        let det = determinant
        return simd_float3x3(rows: [simd_cross(b, c) / det, simd_cross(c, a) / det, simd_cross(a, b) / det])
    }

    /// Matrix × matrix.
    public static func * (a: simd_float3x3, b: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(a * b.columns.0, a * b.columns.1, a * b.columns.2)
    }

    /// Matrix × 4×3 matrix (e.g. K × [R | t]).
    public static func * (a: simd_float3x3, b: simd_float4x3) -> simd_float4x3 {
        simd_float4x3(a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
    }

    /// Row vector × matrix.
    public static func * (v: simd_float3, m: simd_float3x3) -> simd_float3 {
        simd_float3(simd_dot(v, m.columns.0), simd_dot(v, m.columns.1), simd_dot(v, m.columns.2))
    }

    public static func * (s: Float, m: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(s * m.columns.0, s * m.columns.1, s * m.columns.2)
    }

    public static func + (a: simd_float3x3, b: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(a.columns.0 + b.columns.0, a.columns.1 + b.columns.1, a.columns.2 + b.columns.2)
    }

    public static func - (a: simd_float3x3, b: simd_float3x3) -> simd_float3x3 {
        simd_float3x3(a.columns.0 - b.columns.0, a.columns.1 - b.columns.1, a.columns.2 - b.columns.2)
    }
}

extension simd_float4x3 {
    /// Matrix × homogeneous vector: `[R | t] · (x, y, z, 1)`.
    public static func * (m: simd_float4x3, v: simd_float4) -> simd_float3 {
        m.columns.0 * v.x + m.columns.1 * v.y + m.columns.2 * v.z + m.columns.3 * v.w
    }

    /// 4×3 × 4×4: a pose followed by a homogeneous transform.
    public static func * (a: simd_float4x3, b: simd_float4x4) -> simd_float4x3 {
        simd_float4x3(a * b.columns.0, a * b.columns.1, a * b.columns.2, a * b.columns.3)
    }
}

/// `simd_make_float2`.
public func simd_make_float2(_ x: Float, _ y: Float) -> simd_float2 { simd_float2(x, y) }
/// `simd_make_float3`.
public func simd_make_float3(_ x: Float, _ y: Float, _ z: Float) -> simd_float3 { simd_float3(x, y, z) }
/// `simd_make_float3` from the first three lanes of a `simd_float4`.
public func simd_make_float3(_ v: simd_float4) -> simd_float3 { simd_float3(v.x, v.y, v.z) }
/// `simd_make_float3` from a `simd_float2` and a third value.
public func simd_make_float3(_ xy: simd_float2, _ z: Float) -> simd_float3 { simd_float3(xy.x, xy.y, z) }
/// `simd_make_float4`.
public func simd_make_float4(_ x: Float, _ y: Float, _ z: Float, _ w: Float) -> simd_float4 {
    simd_float4(x, y, z, w)
}
/// `simd_make_float4` from a `simd_float3` and a fourth value.
public func simd_make_float4(_ xyz: simd_float3, _ w: Float) -> simd_float4 { simd_float4(xyz.x, xyz.y, xyz.z, w) }

/// `simd_matrix` from three columns.
public func simd_matrix(_ col0: simd_float3, _ col1: simd_float3, _ col2: simd_float3) -> simd_float3x3 {
    simd_float3x3(col0, col1, col2)
}
/// `simd_matrix_from_rows`: the matrix with these rows.
public func simd_matrix_from_rows(_ row0: simd_float3, _ row1: simd_float3, _ row2: simd_float3) -> simd_float3x3 {
    simd_float3x3(rows: [row0, row1, row2])
}

/// `simd_transpose`.
public func simd_transpose(_ m: simd_float3x3) -> simd_float3x3 { m.transpose }
/// `simd_transpose`.
public func simd_transpose(_ m: simd_float4x4) -> simd_float4x4 { m.transpose }
/// `simd_inverse`.
public func simd_inverse(_ m: simd_float3x3) -> simd_float3x3 { m.inverse }
/// `simd_inverse`.
public func simd_inverse(_ m: simd_float4x4) -> simd_float4x4 { m.inverse }
/// `simd_determinant`.
public func simd_determinant(_ m: simd_float3x3) -> Float { m.determinant }

/// `simd_mul`: matrix × vector.
public func simd_mul(_ m: simd_float3x3, _ v: simd_float3) -> simd_float3 { m * v }
/// `simd_mul`: matrix × matrix.
public func simd_mul(_ a: simd_float3x3, _ b: simd_float3x3) -> simd_float3x3 { a * b }
/// `simd_mul`: 3×3 × 4×3.
public func simd_mul(_ a: simd_float3x3, _ b: simd_float4x3) -> simd_float4x3 { a * b }
/// `simd_mul`: 4×3 × homogeneous vector.
public func simd_mul(_ m: simd_float4x3, _ v: simd_float4) -> simd_float3 { m * v }
/// `simd_mul`: 4×4 × vector.
public func simd_mul(_ m: simd_float4x4, _ v: simd_float4) -> simd_float4 { m * v }
/// `simd_mul`: 4×4 × 4×4.
public func simd_mul(_ a: simd_float4x4, _ b: simd_float4x4) -> simd_float4x4 { a * b }

/// `simd_dot`.
public func simd_dot<V: SIMD>(_ a: V, _ b: V) -> V.Scalar where V.Scalar: FloatingPoint { (a * b).sum() }
/// `simd_length`.
public func simd_length<V: SIMD>(_ v: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(v, v).squareRoot() }
/// `simd_length_squared`.
public func simd_length_squared<V: SIMD>(_ v: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(v, v) }
/// `simd_distance`.
public func simd_distance<V: SIMD>(_ a: V, _ b: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(a - b) }
/// `simd_normalize`: `v / |v|` (NaN lanes for the zero vector, as simd's).
public func simd_normalize<V: SIMD>(_ v: V) -> V where V.Scalar: FloatingPoint { v / V(repeating: simd_length(v)) }
/// `simd_cross`.
public func simd_cross<T: SIMDScalar & FloatingPoint>(_ a: SIMD3<T>, _ b: SIMD3<T>) -> SIMD3<T> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
/// `simd_clamp`: `x` held within `min…max`, as `simd_min(simd_max(x, min), max)`.
public func simd_clamp<T: FloatingPoint>(_ x: T, _ min: T, _ max: T) -> T { Swift.min(Swift.max(x, min), max) }
/// `simd_clamp`, lane by lane.
public func simd_clamp<V: SIMD>(_ x: V, _ min: V, _ max: V) -> V where V.Scalar: FloatingPoint {
    x.replacing(with: min, where: x .< min).replacing(with: max, where: x .> max)
}

/// `dot`, the Swift simd module's spelling.
public func dot<V: SIMD>(_ a: V, _ b: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_dot(a, b) }
/// `length`.
public func length<V: SIMD>(_ v: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length(v) }
/// `length_squared`.
public func length_squared<V: SIMD>(_ v: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_length_squared(v) }
/// `distance`.
public func distance<V: SIMD>(_ a: V, _ b: V) -> V.Scalar where V.Scalar: FloatingPoint { simd_distance(a, b) }
/// `normalize`.
public func normalize<V: SIMD>(_ v: V) -> V where V.Scalar: FloatingPoint { simd_normalize(v) }
/// `cross`.
public func cross<T: SIMDScalar & FloatingPoint>(_ a: SIMD3<T>, _ b: SIMD3<T>) -> SIMD3<T> { simd_cross(a, b) }
