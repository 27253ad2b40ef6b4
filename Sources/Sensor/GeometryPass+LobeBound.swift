import Foundation
import Imaging
import Scenes

extension GeometryPass {
    /// A bound on the half vector's angle to the normal over a group's pixels for a light at
    /// infinity, so the key light's loop can skip a lobe that `lobe` would cut
    /// (n·(1 − cos² θ_h) ≥ 80) without forming it.
    ///
    /// The view directions v of a tile lie in the cone of half-angle β about the axis ray's v₀.
    /// The half vector ĥ(v) = (l + v)/|l + v| moves by at most |dv|/|l + v| as v moves, and
    /// |l + v| = 2·cos(∠(l, v)/2) ≥ 2·cos(w/2) with w = ∠(l, v₀) + β the widest angle over the
    /// (convex) cone; so ∠(ĥ(v), ĥ₀) ≤ τ = β/min(2·cos(w/2), 1) with ĥ₀ = ĥ(v₀), and for a pixel of
    /// normal n, θ_h ≥ ∠(n, ĥ₀) − τ. Since cos is 1-Lipschitz, n·ĥ₀ ≤ cos θ_c − τ − ε gives
    /// θ_h ≥ θ_c + ε, so with cos θ_c = `LobeTerm.cutCosine` the pixel's lobe is below the cut.
    /// Margins: β grows by 10⁻⁶ rad (the cone's cosine and acos rounding, below 2·10⁻⁸), ε is
    /// 10⁻⁶ (n·ĥ₀ and the cut cosine rounded, ~10⁻¹⁵), `cutCosine` holds 10⁻⁹ in sin² θ_h for the
    /// pixel's own rounded cos² θ_h (~10⁻¹⁵) and `cut` a relative 10⁻⁹ for the products. A skipped
    /// lobe is therefore one `lobe` returns 0 for, and the factors are unchanged.
    struct LobeBound {
        /// 80, raised by a relative 10⁻⁹.
        static let cut = 80 * (1 + 1e-9)
        /// ĥ₀, unit.
        let half: Vector3
        /// τ + ε; infinite where no bound is shown.
        let turn: Double

        init(towards l: Vector3, cone: (axis: Vector3, halfAngle: Double)) {
            let v = -cone.axis
            let beta = cone.halfAngle + 1e-6
            let h = l + v
            // The widest angle between l and a view direction of the cone, kept off π (l + v = 0).
            let widest = beta + LobeBound.angle(l, v)
            guard beta < 0.5, widest <= 2.8, h.dot(h) > 0.01 else {
                (half, turn) = (h, .infinity)
                return
            }
            half = h / h.length
            turn = beta / min(2 * cos(widest / 2), 1) + 1e-6
        }

        /// The angle between two non-zero vectors, accurate near 0 and π (unlike acos of the cosine).
        static func angle(_ a: Vector3, _ b: Vector3) -> Double {
            let c = Vector3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
            return atan2(c.length, a.dot(b))
        }
    }
}
