import Imaging
import Scenes

extension GeometryPass {
    /// An occluder's bounding sphere seen from a point or spot light, for the shadow rays of a
    /// tile's group: a cheaper rejection than the sphere test from each ray's start.
    ///
    /// Every shadow ray runs from a hit point P towards the light L along the unit l; with
    /// w = C − L for the sphere's centre C, the line through L along l passes at distance
    /// √(|w|² − (w·l)²) from C, and C projects to P + (dist + w·l)·l. The ray itself starts
    /// 10⁻⁶ off P along the normal, so its line lies within 10⁻⁶ of that one; `reach` is the
    /// radius plus 10⁻⁵, which covers that offset and the rounding of both tests (below 10⁻¹³ at
    /// scene scale, against a margin 2·radius·9·10⁻⁶ in the squared distances). An occluder this
    /// test drops is therefore one the full test (`Primitive.distance`) finds no hit on, and
    /// the shadows are exactly those of `occluded`.
    struct PointOccluder {
        /// C − L.
        let w: Vector3
        /// |w|².
        let w2: Double
        /// The bounding radius plus the margin, and its square.
        let reach: Double
        let reach2: Double
        /// The primitive.
        let index: Int

        init(_ p: Primitive, index: Int, light: Vector3) {
            w = p.position - light
            w2 = w.dot(w)
            reach = p.boundingRadius + 1e-5
            reach2 = reach * reach
            self.index = index
        }

        /// Whether the shadow ray from `start` (within 10⁻⁶ of the hit point) along the unit
        /// `l` towards the light, `dist` from the hit point, may meet this occluder.
        @inline(__always) func mayBlock(_ l: Vector3, dist: Double) -> Bool {
            let wl = w.dot(l)
            // Beyond the light, behind the start, or off the line.
            return wl <= reach && dist + wl >= -reach && w2 - wl * wl <= reach2
        }
    }

    /// `occluded` for a ray towards a point light, with `PointOccluder`'s rejection first: the
    /// same answer for every ray.
    @inline(__always) func occluded(
        _ o: Vector3, towards l: Vector3, dist: Double, _ tMax: Double, skip: Int,
        _ occluders: UnsafeBufferPointer<PointOccluder>, _ primitives: UnsafeBufferPointer<Primitive>
    ) -> Bool {
        for q in occluders where q.mayBlock(l, dist: dist) && q.index != skip {
            if GeometryPass.blocks(primitives, q.index, o, l, tMax) { return true }
        }
        return false
    }

    /// The full test of one occluder, out of line: few rays get this far.
    @inline(never) static func blocks(
        _ primitives: UnsafeBufferPointer<Primitive>, _ i: Int, _ o: Vector3, _ d: Vector3, _ tMax: Double
    ) -> Bool {
        primitives[i].distance(origin: o, direction: d, tMin: 1e-7, tMax: tMax) < tMax
    }
}
