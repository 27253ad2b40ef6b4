import Foundation
import Scenes

extension GeometryPass {
    /// A lower bound of 1 − cos² θ_h over a group's pixels for a light at infinity, so the key
    /// light's loop can skip a lobe that `lobe` would cut (n·(1 − cos² θ_h) ≥ 80) for every pixel
    /// whose normal is the group's.
    ///
    /// The view directions v of a tile lie in the cone of half-angle β about the axis ray's v₀.
    /// The half vector ĥ(v) = (l + v)/|l + v| moves by at most |dv|/|l + v| as v moves, and
    /// |l + v| = 2·cos(∠(l, v)/2) ≥ 1 while ∠(l, v) ≤ 120°; so where ∠(l, v₀) + β ≤ 120°,
    /// ∠(ĥ(v), ĥ(v₀)) ≤ β over the (convex) cone and θ_h(v) ≥ θ_h(v₀) − β. Then for every pixel
    /// whose half vector faces the normal, 1 − cos² θ_h ≥ sin²(min(θ_h(v₀) − β, π/2)). Margins: β
    /// grows by 10⁻⁶ rad (the cone's own cosine and acos rounding, below 2·10⁻⁸), θ_h(v₀) shrinks by
    /// 10⁻⁶, and the bound by 10⁻⁹ (the pixel's rounded cos² θ_h, ~10⁻¹⁵); `cut` is 80 raised by a
    /// relative 10⁻⁹ for the products' rounding. A skipped lobe is therefore one `lobe` returns 0
    /// for, and the factors are unchanged.
    struct LobeBound {
        /// n·`sin2` at or above this shows the cut for every pixel of the normal.
        static let cut = 80 * (1 + 1e-9)
        /// The normal the bound holds for.
        let normal: Vector3
        /// The lower bound of 1 − cos² θ_h (0 where none is shown).
        let sin2: Double

        init(towards l: Vector3, normal n: Vector3, cone: (axis: Vector3, halfAngle: Double)) {
            normal = n
            let v = -cone.axis
            let beta = cone.halfAngle + 1e-6
            let h = l + v
            guard beta < 1, beta + LobeBound.angle(l, v) <= 2 * Double.pi / 3, n.dot(n) > 0.5, h.dot(h) >= 1 else {
                sin2 = 0
                return
            }
            let low = LobeBound.angle(n, h) - beta - 1e-6
            guard low > 0 else {
                sin2 = 0
                return
            }
            let s = sin(min(low, Double.pi / 2))
            sin2 = max(s * s - 1e-9, 0)
        }

        /// The angle between two non-zero vectors, accurate near 0 and π (unlike acos of the cosine).
        static func angle(_ a: Vector3, _ b: Vector3) -> Double {
            let c = Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
            return atan2(c.length, a.dot(b))
        }
    }
}
