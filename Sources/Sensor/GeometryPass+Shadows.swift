import Foundation
import Imaging
import Scenes

/// Shadows: the occluders a tile keeps for a light, and the shadow rays that test them.
extension GeometryPass {
    /// Objects that could shadow any hit point of a tile from this emitter.
    ///
    /// The hit points lie in the box tileCentre ± `reach` (inside the ball of `tileRadius`); a flat
    /// shape whose plane has the whole box, shadow-ray starts included, on the light's side cannot
    /// block any of their rays, so dropping it changes no pixel.
    func cullOccluders(
        _ emitter: Emitter, _ primitives: UnsafeBufferPointer<Primitive>, tileCentre: Vector3, tileRadius: Double,
        reach: Vector3, into list: inout [Int]
    ) {
        list.removeAll(keepingCapacity: true)
        // Shadow rays start 10⁻⁶ off their hit points; the rest is margin for rounding.
        let clearance = 1e-5
        switch emitter.geometry {
        case .hemisphere:
            return
        case let .directional(towards, spread):
            let grow = tan(min(spread, 1.5))
            let lift = sin(min(spread, 1.5)) + 1e-9
            for (i, p) in primitives.enumerated() {
                if p.kind == .plane || p.kind == .disc {
                    // Tile and every ray direction strictly on one side of the flat shape's plane.
                    let side = p.planeNormal.dot(tileCentre - p.position)
                    let rise = p.planeNormal.dot(towards)
                    let depth = min(tileRadius, GeometryPass.extent(reach, along: p.planeNormal) + clearance)
                    if (side > depth && rise > lift) || (side < -depth && rise < -lift) { continue }
                }
                let v = p.position - tileCentre
                let s = v.dot(towards)
                if s < -(p.boundingRadius + tileRadius) { continue }
                let perp = (v - max(s, 0) * towards).length
                if perp <= p.boundingRadius + tileRadius + max(s, 0) * grow
                    && !GeometryPass.castsNoShadow(p, towards: towards, coneRadius: grow, centre: tileCentre,
                                                   radius: tileRadius)
                {
                    list.append(i)
                }
            }
        case let .positional(position, _, _):
            let seg = position - tileCentre
            let len2 = max(seg.dot(seg), 1e-30)
            for (i, p) in primitives.enumerated() {
                if p.kind == .plane || p.kind == .disc {
                    // Tile and light strictly on one side of the flat shape's plane.
                    let side = p.planeNormal.dot(tileCentre - p.position)
                    let lamp = p.planeNormal.dot(position - p.position)
                    let depth = min(tileRadius, GeometryPass.extent(reach, along: p.planeNormal) + clearance)
                    if (side > depth && lamp > 0) || (side < -depth && lamp < 0) { continue }
                    if GeometryPass.castsNoShadow(p, light: position, centre: tileCentre, radius: tileRadius) {
                        continue
                    }
                }
                let v = p.position - tileCentre
                let s = min(max(v.dot(seg) / len2, 0), 1)
                if (v - s * seg).length <= p.boundingRadius + tileRadius { list.append(i) }
            }
        }
    }

    /// Half the width of the box ± `reach` along the unit vector `n`.
    @inline(__always) static func extent(_ reach: Vector3, along n: Vector3) -> Double {
        abs(n.x) * reach.x + abs(n.y) * reach.y + abs(n.z) * reach.z
    }

    /// Whether anything but `skip` blocks the ray before `tMax` (any hit ends the search).
    @inline(__always) func occluded(
        _ o: Vector3, _ d: Vector3, _ tMax: Double, skip: Int, _ occluders: UnsafeBufferPointer<Int>,
        _ primitives: UnsafeBufferPointer<Primitive>
    ) -> Bool {
        for i in occluders where i != skip
            && primitives[i].distance(origin: o, direction: d, tMin: 1e-7, tMax: tMax) < tMax
        {
            return true
        }
        return false
    }

    /// The share of a soft key light's disc that a hit point sees, by casting `discSamples` shadow
    /// rays; for the pixels the cone test (`ConeOccluder`) leaves undecided.
    ///
    /// `skip` is the hit primitive when its visible side is the outside of a convex shape (any
    /// flat shape; a sphere or box seen from outside): a ray leaving such a surface into the open
    /// half-space (d·n > 0) cannot meet the shape again, so only rays with d·n ≤ 0 test it, and
    /// those are blocked by it.
    @inline(never) func sampledVisibility(
        towards l: Vector3, disc: (e1: Vector3, e2: Vector3, radius: Double), start: Vector3, normal n: Vector3,
        skip: Int, occluders: UnsafeBufferPointer<Int>, primitives: UnsafeBufferPointer<Primitive>, pixel: Int
    ) -> Double {
        // Rotate the sample pattern per pixel so penumbrae dither instead of banding.
        let turn = CounterRandom(seed: 0x5EED, stream: 7, pixel: pixel).uniform(0) * 2 * Double.pi
        let (c, s) = (cos(turn), sin(turn))
        let (e1, e2, r) = disc
        var open = 0
        for q in discSamples {
            let a = q.x * c - q.y * s
            let b = q.x * s + q.y * c
            let dir = (l + r * (a * e1 + b * e2)).normalized
            if skip >= 0 && dir.dot(n) <= 0 { continue }
            if !occluded(start, dir, .infinity, skip: skip, occluders, primitives) { open += 1 }
        }
        return Double(open) / Double(discSamples.count)
    }
}
