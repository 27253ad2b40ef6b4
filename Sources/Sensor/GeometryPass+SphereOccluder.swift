import Scenes

extension GeometryPass {
    /// An occluder's bounding sphere in a compact entry (centre, radius², index), prepared once per
    /// group for the shadow rays of a hard key light, so the pixel loop reads 48 bytes per occluder
    /// instead of the whole `Primitive`.
    ///
    /// `mayBlock` is `Primitive.distance`'s own bounding-sphere rejection, the same operations in
    /// the same order on the same values (|C − o|², b and r² rounded alike), so it drops exactly
    /// the occluders that the full test would drop at its first step: the shadows are `occluded`'s.
    struct SphereOccluder {
        /// The bounding sphere's centre.
        let centre: Vector3
        /// The bounding radius squared, rounded as `Primitive.distance` rounds it.
        let radius2: Double
        /// The primitive.
        let index: Int

        init(_ p: Primitive, index: Int) {
            centre = p.position
            radius2 = p.boundingRadius * p.boundingRadius
            self.index = index
        }

        /// Whether the ray from `o` along the unit `d` may meet the bounding sphere.
        @inline(__always) func mayBlock(_ o: Vector3, _ d: Vector3) -> Bool {
            let oc = o - centre
            let b = oc.dot(d)
            let c = oc.dot(oc) - radius2
            return !(c > 0 && (b > 0 || b * b - c < 0))
        }
    }
}
