import Imaging
import Scenes

extension GeometryPass {
    /// Whether a flat occluder provably blocks no ray towards a directional light from any point
    /// within `radius` of `centre` (a tile's hit points), so the tile's pixels need not test it.
    ///
    /// The same geometry as `ConeOccluder`, for a ball of start points instead of one: in the
    /// occluder's frame a start point o + δ (|δ| ≤ ρ) has height h + δ_z and its central crossing
    /// moves by δ_xy − δ_z·l_xy/l_z, at most ρ/l_z for a unit l; every sample direction l + r·u
    /// crosses within h·r·(l_z + |l_xy|)/((l_z − r)·l_z) of it. If the disc of both radii around the
    /// centre's crossing lies outside the shape, no sample of any pixel meets it (rays that leave
    /// the plane behind never do). Curved shapes are kept.
    static func castsNoShadow(
        _ p: Primitive, towards l: Vector3, coneRadius r: Double, centre: Vector3, radius: Double
    ) -> Bool {
        guard p.kind == .plane || p.kind == .disc else { return false }
        // The shadow ray starts 10⁻⁶ off the hit point along the normal.
        let rho = radius + 2e-6
        let o = p.toLocal.rotate(centre - p.position)
        var d = p.toLocal.rotate(l)
        var h = -o.z
        if d.z < 0 {
            d.z = -d.z
            h = -h
        }
        guard d.z - r > 1e-6 else { return false }
        let hMax = h + rho
        if hMax < -1e-12 { return true }
        let lateral = (d.x * d.x + d.y * d.y).squareRoot()
        let spread = max(hMax, 0) * r * (d.z + lateral) / ((d.z - r) * d.z) + rho / d.z
        let qx = o.x + h * d.x / d.z
        let qy = o.y + h * d.y / d.z
        let margin = 1e-7 * (1 + spread + abs(qx) + abs(qy) + p.size.x + p.size.y)
        if p.kind == .plane {
            return abs(qx) > p.size.x + spread + margin || abs(qy) > p.size.y + spread + margin
        }
        return (qx * qx + qy * qy).squareRoot() > p.size.x + spread + margin
    }
}

extension GeometryPass {
    /// Whether a flat occluder provably blocks no segment from a point within `radius` of `centre`
    /// (a tile's hit points) to a point light, so the tile's pixels need not test it.
    ///
    /// In the occluder's frame (its plane z = 0), with the light at L and a start point o, the
    /// segment crosses the plane only when o and L lie on opposite sides, at L_xy + μ·(o_xy − L_xy)
    /// with μ = L_z/(L_z − o_z) in (0, 1]. For o' = o + δ (|δ| ≤ ρ) the crossing moves by
    /// μ'·δ_xy + (μ' − μ)·(o_xy − L_xy), at most ρ + |L_z|·ρ/((|L_z − o_z| − ρ)·|L_z − o_z|)·|o_xy − L_xy|.
    /// If the disc of that radius around the centre's crossing lies outside the shape, no segment
    /// meets it.
    static func castsNoShadow(_ p: Primitive, light: Vector3, centre: Vector3, radius: Double) -> Bool {
        guard p.kind == .plane || p.kind == .disc else { return false }
        // The shadow ray starts 10⁻⁶ off the hit point along the normal.
        let rho = radius + 2e-6
        let o = p.toLocal.rotate(centre - p.position)
        let l = p.toLocal.rotate(light - p.position)
        let gap = abs(l.z - o.z)
        guard gap - rho > 1e-9 * (1 + gap) else { return false }
        let mu = l.z / (l.z - o.z)
        let ox = o.x - l.x
        let oy = o.y - l.y
        let qx = l.x + mu * ox
        let qy = l.y + mu * oy
        let spread = rho + abs(l.z) * rho / ((gap - rho) * gap) * (ox * ox + oy * oy).squareRoot()
        let margin = 1e-7 * (1 + spread + abs(qx) + abs(qy) + p.size.x + p.size.y)
        if p.kind == .plane {
            return abs(qx) > p.size.x + spread + margin || abs(qy) > p.size.y + spread + margin
        }
        return (qx * qx + qy * qy).squareRoot() > p.size.x + spread + margin
    }
}

/// One occluder of a soft directional light, with the light's direction in its frame and the
/// cone test's per-light terms computed once: what a soft shadow's whole cone of sample rays
/// meets, decided from flat occluders without casting a ray.
///
/// Every sample direction is D = l + r·u with |u| ≤ 1 (`discSamples` lie in the unit disc), so in
/// a flat occluder's frame (z along its normal) D_z ≥ l_z − r. When that is positive, every
/// sample crosses the plane at height h = −o_z from o, at o_xy + h·D_xy/D_z, within
/// R = h·r·(l_z + |l_xy|) / ((l_z − r)·l_z) of the central direction's crossing q (from
/// |D_xy·l_z − l_xy·D_z| = r·|u_xy·l_z − l_xy·u_z| ≤ r·(l_z + |l_xy|)). The disc of radius R
/// around q outside the shape: no sample is blocked by it; inside: all are. The tests keep a
/// margin far above the rounding of the ray test itself, so they agree with it sample by sample.
///
/// `skip` is the surface's own primitive (see `GeometryPass.sampledVisibility`); with n·l > r no sample
/// dips below the surface, so it is never consulted.
struct ConeOccluder {
    var index: Int
    /// A flat occluder whose plane the whole cone crosses from one side (d_z − r > 10⁻⁶); any
    /// other occluder leaves a pixel undecided.
    var usable: Bool
    var isPlane: Bool
    var position: Vector3
    var toLocal: Rotation
    /// +1, or −1 when the light is seen from the shape's back (heights are mirrored).
    var side: Double
    /// d_x/d_z and d_y/d_z: the central crossing is o_xy + h·(d_x, d_y)/d_z.
    var slopeX: Double
    var slopeY: Double
    /// r·(d_z + |d_xy|)/((d_z − r)·d_z): the crossing disc's radius per unit height.
    var spreadPerHeight: Double
    var size: Vector3

    init(_ p: Primitive, index: Int, towards l: Vector3, radius r: Double) {
        self.index = index
        isPlane = p.kind == .plane
        position = p.position
        toLocal = p.toLocal
        size = p.size
        var d = p.toLocal.rotate(l)
        side = 1
        if d.z < 0 {
            d.z = -d.z
            side = -1
        }
        usable = (p.kind == .plane || p.kind == .disc) && d.z - r > 1e-6
        let lateral = (d.x * d.x + d.y * d.y).squareRoot()
        slopeX = usable ? d.x / d.z : 0
        slopeY = usable ? d.y / d.z : 0
        spreadPerHeight = usable ? r * (d.z + lateral) / ((d.z - r) * d.z) : 0
    }

    /// 0 when one occluder blocks every sample, 1 when none can block any, nil when undecided (a
    /// sample may be partly blocked, or an occluder is not flat).
    @inline(__always) static func visibility(
        start: Vector3, cosTheta: Double, radius r: Double, skip: Int, _ cones: UnsafeBufferPointer<ConeOccluder>
    ) -> Double? {
        guard cosTheta - r > 1e-9 else { return nil }
        var undecided = false
        for c in cones where c.index != skip {
            guard c.usable else {
                undecided = true
                continue
            }
            let o = c.toLocal.rotate(start - c.position)
            let h = -o.z * c.side
            if h < -1e-12 { continue }
            guard h > 1e-6 else {
                undecided = true
                continue
            }
            let spread = h * c.spreadPerHeight
            let qx = o.x + h * c.slopeX
            let qy = o.y + h * c.slopeY
            let margin = 1e-9 * (1 + spread + abs(qx) + abs(qy) + c.size.x + c.size.y)
            let outside: Bool
            let inside: Bool
            if c.isPlane {
                outside = abs(qx) > c.size.x + spread + margin || abs(qy) > c.size.y + spread + margin
                inside = abs(qx) + spread + margin < c.size.x && abs(qy) + spread + margin < c.size.y
            } else {
                let q = (qx * qx + qy * qy).squareRoot()
                outside = q > c.size.x + spread + margin
                inside = q + spread + margin < c.size.x
            }
            if inside { return 0 }
            if !outside { undecided = true }
        }
        return undecided ? nil : 1
    }
}
