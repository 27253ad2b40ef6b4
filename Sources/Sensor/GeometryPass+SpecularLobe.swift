import Imaging
import Scenes

/// The specular lobe beside the diffuse factor: normalised Blinn–Phong, (n + 8)/8 · cosⁿ θ_h.
extension GeometryPass {
    /// The specular factor beside a visible diffuse factor `gd`; zero for matte materials.
    @inline(__always) func specular(
        l: Vector3, view v: Vector3, normal n: Vector3, material m: Int, diffuse gd: Double
    ) -> Double {
        lobe(l: l, view: v, normal: n, material: m) * gd
    }

    /// The specular factor per unit diffuse factor: (n + 8)/8·cosⁿ θ_h, zero for matte materials.
    /// Lights at one position share it.
    @inline(__always) func lobe(l: Vector3, view v: Vector3, normal n: Vector3, material m: Int) -> Double {
        GeometryPass.lobe(l: l, view: v, normal: n, term: lobeTerms[m])
    }

    /// `lobe` from the material's terms.
    @inline(__always) static func lobe(l: Vector3, view v: Vector3, normal n: Vector3, term: LobeTerm) -> Double {
        lobe(half: l + v, normal: n, term: term)
    }

    /// `lobe` for the view v = −d of the camera ray d: l − d is l + v bit for bit (IEEE 754
    /// defines x − y as x + (−y)), without forming v.
    @inline(__always) static func lobe(l: Vector3, ray d: Vector3, normal n: Vector3, term: LobeTerm) -> Double {
        lobe(half: l - d, normal: n, term: term)
    }

    /// `lobe` from the unnormalised half vector h = l + v.
    @inline(__always) static func lobe(half h: Vector3, normal n: Vector3, term: LobeTerm) -> Double {
        guard term.halfPower >= 0 else { return 0 }
        let exponent = term.exponent
        // Normalised Blinn–Phong: π·f_s = k_s·(n + 8)/8·cos^n θ_h; k_s lives in the rate table.
        // cosⁿ θ_h = (cos² θ_h)^(n/2) with cos² θ_h = (n·(l + v))² / |l + v|²: the half vector
        // needs no square root and no normalisation.
        let a = n.dot(h)
        guard a > 0 else { return 0 }
        let c2 = a * a / h.dot(h)
        // Below 2⁻⁵⁸ (about e⁻⁴⁰) the lobe is under Float's resolution of any diffuse factor
        // beside it, so the power is not worth finishing. cosⁿ θ_h ≤ e^(−n(1 − cos² θ_h)/2)
        // (ln x ≤ x − 1 and 1 − cos θ_h ≥ (1 − cos² θ_h)/2) skips most of them before the logarithm.
        guard exponent * (1 - c2) < 80 else { return 0 }
        return GeometryPass.lobePower(c2, term)
    }

    /// The lobe (n + 8)/8·(cos² θ_h)^(n/2) of a glossy material from cos² θ_h = `c2`, for a half
    /// vector facing the normal and above `lobe`'s cut.
    @inline(__always) static func lobePower(_ c2: Double, _ term: LobeTerm) -> Double {
        let exponent = term.exponent
        if term.halfPower > 0 {
            // A whole n/2: repeated squaring, with the same cut at 2⁻⁵⁸.
            let power = LobeTerm.power(c2, term.halfPower)
            return power > 0x1p-58 ? term.scale * power : 0
        }
        guard c2 >= InlinePower.smallestNormal else { return InlinePower.belowNormal(c2, exponent * 0.5) }
        let y = exponent * 0.5 * InlinePower.binaryLog(c2)
        guard y > -58 else { return 0 }
        return term.scale * InlinePower.binaryExp(y)
    }
}
