import Imaging  // lane-wise vector arithmetic (Lanes+Arithmetic)

/// A point or direction in a right-handed world frame, in metres.
///
/// The world frame is right-handed with +Y up. The standard library's SIMD vector is used so that
/// arithmetic is vectorised without the platform `simd` module.
public typealias Vector3 = SIMD3<Double>

extension SIMD3 where Scalar == Double {
    /// The dot product.
    ///
    /// Written out rather than as `(self * other).sum()`: the same additions in the same order, which an
    /// unoptimised build runs without the generic `sum()`.
    @inlinable package func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    /// The cross product.
    @inlinable package func cross(_ other: Vector3) -> Vector3 {
        Vector3(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    /// The Euclidean length.
    @inlinable package var length: Double { dot(self).squareRoot() }

    /// This vector scaled to unit length; the zero vector stays zero.
    @inlinable package var normalized: Vector3 {
        let l = length
        return l > 0 ? self / l : self
    }
}
