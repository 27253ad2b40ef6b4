import Foundation
import Imaging

/// A proper rotation of 3-D space, stored as an orthonormal 3×3 matrix (rows).
public struct Rotation: Sendable, Hashable {
    /// The matrix rows; `apply` computes `row · v` for each row.
    public let row0: Vector3
    public let row1: Vector3
    public let row2: Vector3

    /// A rotation from matrix rows. The caller guarantees orthonormality.
    public init(rows row0: Vector3, _ row1: Vector3, _ row2: Vector3) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// No rotation.
    public static let identity = Rotation(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    /// A rotation by `radians` about `axis`, counter-clockwise when the axis points at the viewer
    /// (Rodrigues' formula).
    public init(axis: Vector3, radians: Double) {
        let a = axis.normalized
        let c = cos(radians)
        let s = sin(radians)
        let t = 1 - c
        self.init(
            rows: Vector3(t * a.x * a.x + c, t * a.x * a.y - s * a.z, t * a.x * a.z + s * a.y),
            Vector3(t * a.x * a.y + s * a.z, t * a.y * a.y + c, t * a.y * a.z - s * a.x),
            Vector3(t * a.x * a.z - s * a.y, t * a.y * a.z + s * a.x, t * a.z * a.z + c))
    }

    /// A rotation from yaw (about +Y), pitch (about +X) and roll (about +Z) in degrees, applied
    /// roll first, then pitch, then yaw.
    public init(yawDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0) {
        let d = Double.pi / 180
        self = Rotation(axis: Vector3(0, 1, 0), radians: yawDegrees * d)
            * Rotation(axis: Vector3(1, 0, 0), radians: pitchDegrees * d)
            * Rotation(axis: Vector3(0, 0, 1), radians: rollDegrees * d)
    }

    /// The rotated vector.
    @inlinable public func apply(_ v: Vector3) -> Vector3 {
        Vector3(row0.dot(v), row1.dot(v), row2.dot(v))
    }

    /// The inverse rotation (the transpose).
    public var inverse: Rotation {
        Rotation(
            rows: Vector3(row0.x, row1.x, row2.x), Vector3(row0.y, row1.y, row2.y),
            Vector3(row0.z, row1.z, row2.z))
    }

    /// `(a * b).apply(v) == a.apply(b.apply(v))`.
    public static func * (a: Rotation, b: Rotation) -> Rotation {
        let t = b.inverse
        return Rotation(
            rows: Vector3(a.row0.dot(t.row0), a.row0.dot(t.row1), a.row0.dot(t.row2)),
            Vector3(a.row1.dot(t.row0), a.row1.dot(t.row1), a.row1.dot(t.row2)),
            Vector3(a.row2.dot(t.row0), a.row2.dot(t.row1), a.row2.dot(t.row2)))
    }
}
