import Imaging
import Scenes

extension GeometryPass {
    /// An occluder prepared for shadow rays that all share one direction (a hard key light), once
    /// per group: the bounding sphere (centre, radius², read first) and the exact test's terms that
    /// depend on the direction alone (the direction in the local frame and, for a box, its
    /// reciprocal), so a ray pays only for what depends on its start.
    ///
    /// `blocks` is `Primitive.distance` followed by `occluded`'s comparison, with the same
    /// operations in the same order on the same values (the hoisted terms are computed by the same
    /// expressions), so every ray gets `occluded`'s answer and the shadows are unchanged.
    ///
    /// The bounding spheres live in their own compact array (`SphereBound`): the shadow loop reads
    /// 48 bytes per occluder, and the exact terms only for a ray that meets the sphere (kept
    /// beside it, the compiler loads them all before the sphere test).
    struct SphereBound {
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
    }

    /// The exact test's terms of one occluder for a fixed direction (see `SphereBound`).
    struct RayOccluder {
        let kind: Primitive.Kind
        let toLocal: Rotation
        let size: Vector3
        /// The direction in the local frame (row · d per row).
        let local: Vector3
        /// 1/local per component (a box's slabs).
        let inverse: Vector3

        init(_ p: Primitive, direction d: Vector3) {
            kind = p.kind
            toLocal = p.toLocal
            size = p.size
            local = p.toLocal.rotate(d)
            inverse = Vector3(1 / local.x, 1 / local.y, 1 / local.z)
        }

        /// Whether the ray from `o` along the prepared unit direction `d` hits the primitive at a
        /// distance above 10⁻⁷ (any distance: a key light is at infinity), for a ray that meets
        /// the bounding sphere of `bound`.
        @inline(__always) static func blocks(
            _ o: Vector3, _ d: Vector3, _ bound: SphereBound, _ exact: UnsafePointer<RayOccluder>
        ) -> Bool {
            let tMin = 1e-7
            // Bounding-sphere rejection first: most rays miss most objects.
            let oc = o - bound.centre
            let b = oc.dot(d)
            let c = oc.dot(oc) - bound.radius2
            if c > 0 && (b > 0 || b * b - c < 0) { return false }
            return exact.pointee.blocks(oc, b: b, c: c, tMin: tMin)
        }

        /// The exact test once the bounding sphere is met: oc, b and c as `blocks` formed them.
        @inline(__always) func blocks(_ oc: Vector3, b: Double, c: Double, tMin: Double) -> Bool {
            var t = Double.infinity
            switch kind {
            case .plane, .disc:
                let dz = local.z
                guard abs(dz) > Primitive.epsilon else { return false }
                let q = toLocal.rotate(oc)
                t = -q.z / dz
                guard t > tMin && t < .infinity else { return false }
                let x = q.x + t * local.x
                let y = q.y + t * local.y
                if kind == .plane {
                    if abs(x) > size.x || abs(y) > size.y { return false }
                } else if x * x + y * y > size.x * size.x {
                    return false
                }
            case .sphere:
                let disc = b * b - c
                guard disc >= 0 else { return false }
                let s = disc.squareRoot()
                t = -b - s > tMin ? -b - s : -b + s
            case .box:
                let q = toLocal.rotate(oc)
                let t1 = (-size - q) * inverse
                let t2 = (size - q) * inverse
                let near = Primitive.lower(t1, t2).max()
                let far = Primitive.upper(t1, t2).min()
                guard near <= far else { return false }
                t = near > tMin ? near : far
            }
            return t > tMin && t < .infinity
        }
    }
}
