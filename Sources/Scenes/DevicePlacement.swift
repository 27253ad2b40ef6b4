import Imaging

/// Where the capturing device stands and where it looks.
public struct DevicePlacement: Sendable, Hashable {
    /// The device position (the reference camera's optical centre), metres.
    public var position: Vector3
    /// The point the optical axis passes through.
    public var lookAt: Vector3
    /// The world direction that appears "up" in the image.
    public var up: Vector3
    /// Movement of the device per second (hand shake, panning).
    public var motion: Motion

    /// A placement; world +Y is up by default.
    public init(position: Vector3, lookAt: Vector3, up: Vector3 = Vector3(0, 1, 0), motion: Motion = .none) {
        self.position = position
        self.lookAt = lookAt
        self.up = up
        self.motion = motion
    }

    /// The device-to-world rotation in camera convention: device +X right, +Y down (image rows),
    /// +Z along the optical axis.
    public var rotation: Rotation {
        let forward = (lookAt - position).normalized
        var right = forward.cross(up).normalized
        if right == .zero { right = forward.cross(Vector3(0, 0, 1)).normalized }
        let down = forward.cross(right)
        // Columns of the device-to-world matrix are right, down, forward.
        return Rotation(
            rows: Vector3(right.x, down.x, forward.x), Vector3(right.y, down.y, forward.y),
            Vector3(right.z, down.z, forward.z))
    }

    /// The placement after `seconds` of motion (the look-at point moves with the device).
    public func advanced(by seconds: Double) -> DevicePlacement {
        // A still device stays bit-identical: position + (lookAt − position) need not round back to
        // lookAt, and a placement that differs in the last bit would cost a renderer its geometry.
        guard !motion.isStatic else { return self }
        let t = motion.advance(Transform(position: position, rotation: .identity), by: seconds)
        var out = self
        out.position = t.position
        out.lookAt = t.position + t.rotation.apply(lookAt - position)
        out.up = t.rotation.apply(up)
        return out
    }
}
