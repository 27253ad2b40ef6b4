import Imaging

/// A rigid motion per second: a translation velocity and an angular velocity.
public struct Motion: Sendable, Hashable {
    /// Translation, metres per second, world frame.
    public var velocity: Vector3
    /// Rotation axis (world frame) scaled by the angular speed in radians per second.
    public var angularVelocity: Vector3

    /// A motion.
    public init(velocity: Vector3 = .zero, angularVelocity: Vector3 = .zero) {
        self.velocity = velocity
        self.angularVelocity = angularVelocity
    }

    /// Standing still.
    public static let none = Motion()

    /// True when nothing moves.
    public var isStatic: Bool { velocity == .zero && angularVelocity == .zero }

    /// The transform after `seconds`: rotated about its own origin, then translated.
    public func advance(_ transform: Transform, by seconds: Double) -> Transform {
        guard !isStatic else { return transform }
        var out = transform
        out.position += velocity * seconds
        let angle = angularVelocity.length * seconds
        if angle != 0 {
            out.rotation = Rotation(axis: angularVelocity, radians: angle) * transform.rotation
        }
        return out
    }
}
