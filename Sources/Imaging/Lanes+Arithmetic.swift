/// Lane-wise arithmetic for the small vectors of the pixel and ray loops, spelled out lane by lane.
///
/// Why: an unoptimised build (a dependent package's `swift build` or `swift test` in debug) compiles the standard
/// library's generic vector arithmetic into a loop over the lanes with a bounds check and a stack round trip per
/// lane, so pixel loops made of vector steps ran tens of times slower than optimised code. These operators are
/// `@_transparent`, so even an unoptimised build inlines them into plain scalar instructions, and an optimised build
/// turns the lanes back into the same vector instructions the standard library's operators give. Each lane is the
/// scalar IEEE operation the standard library performs on that lane, so results are bit for bit the same (negation
/// is `0 − x` per lane, as the standard library defines it for vectors: +0 stays +0; a mask lane is set when it
/// holds −1, as in `SIMDMask`).
///
/// Overload resolution prefers these concrete members to the standard library's generic ones, for these three
/// vector types only. They are `package`: code outside Obscura keeps the standard library's operators, and its type
/// checking is not burdened with more overloads.

extension SIMD2 where Scalar == Double {
    @_transparent @usableFromInline package static func + (a: Self, b: Self) -> Self {
        Self(a.x + b.x, a.y + b.y)
    }
    @_transparent @usableFromInline package static func + (a: Scalar, b: Self) -> Self {
        Self(a + b.x, a + b.y)
    }
    @_transparent @usableFromInline package static func + (a: Self, b: Scalar) -> Self {
        Self(a.x + b, a.y + b)
    }
    @_transparent @usableFromInline package static func += (a: inout Self, b: Self) { a = a + b }
    @_transparent @usableFromInline package static func += (a: inout Self, b: Scalar) { a = a + b }
    @_transparent @usableFromInline package static func - (a: Self, b: Self) -> Self {
        Self(a.x - b.x, a.y - b.y)
    }
    @_transparent @usableFromInline package static func - (a: Scalar, b: Self) -> Self {
        Self(a - b.x, a - b.y)
    }
    @_transparent @usableFromInline package static func - (a: Self, b: Scalar) -> Self {
        Self(a.x - b, a.y - b)
    }
    @_transparent @usableFromInline package static func -= (a: inout Self, b: Self) { a = a - b }
    @_transparent @usableFromInline package static func -= (a: inout Self, b: Scalar) { a = a - b }
    @_transparent @usableFromInline package static func * (a: Self, b: Self) -> Self {
        Self(a.x * b.x, a.y * b.y)
    }
    @_transparent @usableFromInline package static func * (a: Scalar, b: Self) -> Self {
        Self(a * b.x, a * b.y)
    }
    @_transparent @usableFromInline package static func * (a: Self, b: Scalar) -> Self {
        Self(a.x * b, a.y * b)
    }
    @_transparent @usableFromInline package static func *= (a: inout Self, b: Self) { a = a * b }
    @_transparent @usableFromInline package static func *= (a: inout Self, b: Scalar) { a = a * b }
    @_transparent @usableFromInline package static func / (a: Self, b: Self) -> Self {
        Self(a.x / b.x, a.y / b.y)
    }
    @_transparent @usableFromInline package static func / (a: Scalar, b: Self) -> Self {
        Self(a / b.x, a / b.y)
    }
    @_transparent @usableFromInline package static func / (a: Self, b: Scalar) -> Self {
        Self(a.x / b, a.y / b)
    }
    @_transparent @usableFromInline package static func /= (a: inout Self, b: Self) { a = a / b }
    @_transparent @usableFromInline package static func /= (a: inout Self, b: Scalar) { a = a / b }
    @_transparent @usableFromInline package static prefix func - (a: Self) -> Self { Self(0 - a.x, 0 - a.y) }

    /// Each lane from `other` where the mask is set, else from this vector.
    @_transparent @usableFromInline
    package func replacing(with other: Self, where mask: SIMDMask<SIMD2<Int64>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD2<Int64>.self)
        return Self(m.x < 0 ? other.x : x, m.y < 0 ? other.y : y)
    }
    /// `other` in each lane where the mask is set, else this vector's lane.
    @_transparent @usableFromInline
    package func replacing(with other: Scalar, where mask: SIMDMask<SIMD2<Int64>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD2<Int64>.self)
        return Self(m.x < 0 ? other : x, m.y < 0 ? other : y)
    }
    @_transparent @usableFromInline
    package mutating func replace(with other: Self, where mask: SIMDMask<SIMD2<Int64>>) {
        self = replacing(with: other, where: mask)
    }
    /// The lanes added left to right, the order of the standard library's `sum()`.
    @_transparent @usableFromInline package func sum() -> Scalar { x + y }
}

extension SIMD3 where Scalar == Double {
    @_transparent @usableFromInline package static func + (a: Self, b: Self) -> Self {
        Self(a.x + b.x, a.y + b.y, a.z + b.z)
    }
    @_transparent @usableFromInline package static func + (a: Scalar, b: Self) -> Self {
        Self(a + b.x, a + b.y, a + b.z)
    }
    @_transparent @usableFromInline package static func + (a: Self, b: Scalar) -> Self {
        Self(a.x + b, a.y + b, a.z + b)
    }
    @_transparent @usableFromInline package static func += (a: inout Self, b: Self) { a = a + b }
    @_transparent @usableFromInline package static func += (a: inout Self, b: Scalar) { a = a + b }
    @_transparent @usableFromInline package static func - (a: Self, b: Self) -> Self {
        Self(a.x - b.x, a.y - b.y, a.z - b.z)
    }
    @_transparent @usableFromInline package static func - (a: Scalar, b: Self) -> Self {
        Self(a - b.x, a - b.y, a - b.z)
    }
    @_transparent @usableFromInline package static func - (a: Self, b: Scalar) -> Self {
        Self(a.x - b, a.y - b, a.z - b)
    }
    @_transparent @usableFromInline package static func -= (a: inout Self, b: Self) { a = a - b }
    @_transparent @usableFromInline package static func -= (a: inout Self, b: Scalar) { a = a - b }
    @_transparent @usableFromInline package static func * (a: Self, b: Self) -> Self {
        Self(a.x * b.x, a.y * b.y, a.z * b.z)
    }
    @_transparent @usableFromInline package static func * (a: Scalar, b: Self) -> Self {
        Self(a * b.x, a * b.y, a * b.z)
    }
    @_transparent @usableFromInline package static func * (a: Self, b: Scalar) -> Self {
        Self(a.x * b, a.y * b, a.z * b)
    }
    @_transparent @usableFromInline package static func *= (a: inout Self, b: Self) { a = a * b }
    @_transparent @usableFromInline package static func *= (a: inout Self, b: Scalar) { a = a * b }
    @_transparent @usableFromInline package static func / (a: Self, b: Self) -> Self {
        Self(a.x / b.x, a.y / b.y, a.z / b.z)
    }
    @_transparent @usableFromInline package static func / (a: Scalar, b: Self) -> Self {
        Self(a / b.x, a / b.y, a / b.z)
    }
    @_transparent @usableFromInline package static func / (a: Self, b: Scalar) -> Self {
        Self(a.x / b, a.y / b, a.z / b)
    }
    @_transparent @usableFromInline package static func /= (a: inout Self, b: Self) { a = a / b }
    @_transparent @usableFromInline package static func /= (a: inout Self, b: Scalar) { a = a / b }
    @_transparent @usableFromInline package static prefix func - (a: Self) -> Self { Self(0 - a.x, 0 - a.y, 0 - a.z) }

    /// Each lane from `other` where the mask is set, else from this vector.
    @_transparent @usableFromInline
    package func replacing(with other: Self, where mask: SIMDMask<SIMD3<Int64>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD3<Int64>.self)
        return Self(m.x < 0 ? other.x : x, m.y < 0 ? other.y : y, m.z < 0 ? other.z : z)
    }
    /// `other` in each lane where the mask is set, else this vector's lane.
    @_transparent @usableFromInline
    package func replacing(with other: Scalar, where mask: SIMDMask<SIMD3<Int64>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD3<Int64>.self)
        return Self(m.x < 0 ? other : x, m.y < 0 ? other : y, m.z < 0 ? other : z)
    }
    @_transparent @usableFromInline
    package mutating func replace(with other: Self, where mask: SIMDMask<SIMD3<Int64>>) {
        self = replacing(with: other, where: mask)
    }
    /// The lanes added left to right, the order of the standard library's `sum()`.
    @_transparent @usableFromInline package func sum() -> Scalar { x + y + z }
}

extension SIMD4 where Scalar == Float {
    @_transparent @usableFromInline package static func + (a: Self, b: Self) -> Self {
        Self(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w)
    }
    @_transparent @usableFromInline package static func + (a: Scalar, b: Self) -> Self {
        Self(a + b.x, a + b.y, a + b.z, a + b.w)
    }
    @_transparent @usableFromInline package static func + (a: Self, b: Scalar) -> Self {
        Self(a.x + b, a.y + b, a.z + b, a.w + b)
    }
    @_transparent @usableFromInline package static func += (a: inout Self, b: Self) { a = a + b }
    @_transparent @usableFromInline package static func += (a: inout Self, b: Scalar) { a = a + b }
    @_transparent @usableFromInline package static func - (a: Self, b: Self) -> Self {
        Self(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w)
    }
    @_transparent @usableFromInline package static func - (a: Scalar, b: Self) -> Self {
        Self(a - b.x, a - b.y, a - b.z, a - b.w)
    }
    @_transparent @usableFromInline package static func - (a: Self, b: Scalar) -> Self {
        Self(a.x - b, a.y - b, a.z - b, a.w - b)
    }
    @_transparent @usableFromInline package static func -= (a: inout Self, b: Self) { a = a - b }
    @_transparent @usableFromInline package static func -= (a: inout Self, b: Scalar) { a = a - b }
    @_transparent @usableFromInline package static func * (a: Self, b: Self) -> Self {
        Self(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w)
    }
    @_transparent @usableFromInline package static func * (a: Scalar, b: Self) -> Self {
        Self(a * b.x, a * b.y, a * b.z, a * b.w)
    }
    @_transparent @usableFromInline package static func * (a: Self, b: Scalar) -> Self {
        Self(a.x * b, a.y * b, a.z * b, a.w * b)
    }
    @_transparent @usableFromInline package static func *= (a: inout Self, b: Self) { a = a * b }
    @_transparent @usableFromInline package static func *= (a: inout Self, b: Scalar) { a = a * b }
    @_transparent @usableFromInline package static func / (a: Self, b: Self) -> Self {
        Self(a.x / b.x, a.y / b.y, a.z / b.z, a.w / b.w)
    }
    @_transparent @usableFromInline package static func / (a: Scalar, b: Self) -> Self {
        Self(a / b.x, a / b.y, a / b.z, a / b.w)
    }
    @_transparent @usableFromInline package static func / (a: Self, b: Scalar) -> Self {
        Self(a.x / b, a.y / b, a.z / b, a.w / b)
    }
    @_transparent @usableFromInline package static func /= (a: inout Self, b: Self) { a = a / b }
    @_transparent @usableFromInline package static func /= (a: inout Self, b: Scalar) { a = a / b }
    @_transparent @usableFromInline
    package static prefix func - (a: Self) -> Self { Self(0 - a.x, 0 - a.y, 0 - a.z, 0 - a.w) }

    /// Each lane from `other` where the mask is set, else from this vector.
    @_transparent @usableFromInline
    package func replacing(with other: Self, where mask: SIMDMask<SIMD4<Int32>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD4<Int32>.self)
        return Self(m.x < 0 ? other.x : x, m.y < 0 ? other.y : y, m.z < 0 ? other.z : z, m.w < 0 ? other.w : w)
    }
    /// `other` in each lane where the mask is set, else this vector's lane.
    @_transparent @usableFromInline
    package func replacing(with other: Scalar, where mask: SIMDMask<SIMD4<Int32>>) -> Self {
        let m = unsafeBitCast(mask, to: SIMD4<Int32>.self)
        return Self(m.x < 0 ? other : x, m.y < 0 ? other : y, m.z < 0 ? other : z, m.w < 0 ? other : w)
    }
    @_transparent @usableFromInline
    package mutating func replace(with other: Self, where mask: SIMDMask<SIMD4<Int32>>) {
        self = replacing(with: other, where: mask)
    }
    /// The lanes added left to right, the order of the standard library's `sum()`.
    @_transparent @usableFromInline package func sum() -> Scalar { x + y + z + w }
}

/// Whether any lane of the mask is set: the lanes' bitwise or is negative exactly when one holds −1.
@_transparent @usableFromInline package func any(_ mask: SIMDMask<SIMD2<Int64>>) -> Bool {
    let m = unsafeBitCast(mask, to: SIMD2<Int64>.self)
    return (m.x | m.y) < 0
}

/// Whether any lane of the mask is set: the lanes' bitwise or is negative exactly when one holds −1.
@_transparent @usableFromInline package func any(_ mask: SIMDMask<SIMD3<Int64>>) -> Bool {
    let m = unsafeBitCast(mask, to: SIMD3<Int64>.self)
    return (m.x | m.y | m.z) < 0
}

/// Whether any lane of the mask is set: the lanes' bitwise or is negative exactly when one holds −1.
@_transparent @usableFromInline package func any(_ mask: SIMDMask<SIMD4<Int32>>) -> Bool {
    let m = unsafeBitCast(mask, to: SIMD4<Int32>.self)
    return (m.x | m.y | m.z | m.w) < 0
}
