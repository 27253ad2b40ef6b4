import Foundation

/// Colour differences in CIELAB.
public enum DeltaE {
    /// ΔE*ab (CIE 1976): the Euclidean distance in L*a*b*.
    public static func cie76(_ a: Lab, _ b: Lab) -> Double {
        let dL = a.L - b.L, da = a.a - b.a, db = a.b - b.b
        return (dL * dL + da * da + db * db).squareRoot()
    }

    /// ΔE00 (CIE 142-2001), following the implementation notes of Sharma, Wu & Dalal 2005
    /// (Color Res. Appl. 30:21), with kL = kC = kH = 1.
    ///
    /// Hue angles are taken in [0°, 360°); when |h1 − h2| is exactly 180° the mean hue is
    /// (h1 + h2 + 360°)/2 if h1 + h2 < 360°, as in the paper's eq. 14 (its test pair 14).
    public static func ciede2000(_ lab1: Lab, _ lab2: Lab) -> Double {
        let c1 = (lab1.a * lab1.a + lab1.b * lab1.b).squareRoot()
        let c2 = (lab2.a * lab2.a + lab2.b * lab2.b).squareRoot()
        let cMean = (c1 + c2) / 2
        let c7 = pow(cMean, 7)
        let g = 0.5 * (1 - (c7 / (c7 + pow(25, 7))).squareRoot())
        let a1p = (1 + g) * lab1.a
        let a2p = (1 + g) * lab2.a
        let c1p = (a1p * a1p + lab1.b * lab1.b).squareRoot()
        let c2p = (a2p * a2p + lab2.b * lab2.b).squareRoot()
        let h1p = hueDegrees(b: lab1.b, a: a1p)
        let h2p = hueDegrees(b: lab2.b, a: a2p)

        let dLp = lab2.L - lab1.L
        let dCp = c2p - c1p
        var dhp = 0.0
        if c1p * c2p != 0 {
            dhp = h2p - h1p
            if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
        }
        let dHp = 2 * (c1p * c2p).squareRoot() * sin(radians(dhp / 2))

        let lMean = (lab1.L + lab2.L) / 2
        let cpMean = (c1p + c2p) / 2
        var hpMean = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 {
                hpMean /= 2
            } else {
                hpMean = h1p + h2p < 360 ? (hpMean + 360) / 2 : (hpMean - 360) / 2
            }
        }
        let t = 1 - 0.17 * cos(radians(hpMean - 30)) + 0.24 * cos(radians(2 * hpMean))
            + 0.32 * cos(radians(3 * hpMean + 6)) - 0.20 * cos(radians(4 * hpMean - 63))
        let dTheta = 30 * exp(-pow((hpMean - 275) / 25, 2))
        let cp7 = pow(cpMean, 7)
        let rc = 2 * (cp7 / (cp7 + pow(25, 7))).squareRoot()
        let l50 = (lMean - 50) * (lMean - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cpMean
        let sh = 1 + 0.015 * cpMean * t
        let rt = -sin(radians(2 * dTheta)) * rc
        let termL = dLp / sl, termC = dCp / sc, termH = dHp / sh
        return (termL * termL + termC * termC + termH * termH + rt * termC * termH).squareRoot()
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    private static func hueDegrees(b: Double, a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }
}
