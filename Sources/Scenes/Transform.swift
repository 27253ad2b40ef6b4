import Imaging

/// Where an object sits: local coordinates are rotated, then moved to `position`.
public struct Transform: Sendable, Hashable {
    /// The local origin in world coordinates, metres.
    public var position: Vector3
    /// The local-to-world rotation.
    public var rotation: Rotation

    /// A transform; by default no rotation.
    public init(position: Vector3 = .zero, rotation: Rotation = .identity) {
        self.position = position
        self.rotation = rotation
    }

    /// A local point in world coordinates.
    @inlinable public func point(_ local: Vector3) -> Vector3 { rotation.apply(local) + position }
    /// A world point in local coordinates.
    @inlinable public func localPoint(_ world: Vector3) -> Vector3 { rotation.inverse.apply(world - position) }
}
