/// The gamut of real lights in the CIE 1960 uv diagram: the convex hull of the spectrum locus
/// (the monochromatic stimuli of the CIE 1931 observer on the 5 nm grid) closed by the purple line.
///
/// Every non-negative spectrum is a non-negative mix of monochromatic stimuli, and a mix lies in
/// the convex hull of its parts (CIE 15:2018 §7.3), so a chromaticity outside this hull belongs to
/// no light at all. The hull, not the raw locus, is used because the locus bends slightly inwards
/// at the long-wavelength end, where the tabulated functions are noisy.
enum SpectrumLocus {
    /// Hull vertices in counter-clockwise order.
    static let hull: [SIMD2<Double>] = {
        var points: [SIMD2<Double>] = []
        for i in 0..<Spectrum.count {
            let x = CIE1931.xBar.values[i], y = CIE1931.yBar.values[i], z = CIE1931.zBar.values[i]
            let d = x + 15 * y + 3 * z
            if d > 0 { points.append(SIMD2(4 * x / d, 6 * y / d)) }
        }
        return convexHull(points)
    }()

    /// Andrew's monotone chain; returns the hull counter-clockwise without repeating the first point.
    static func convexHull(_ input: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let points = input.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard points.count > 2 else { return points }
        func chain(_ sequence: [SIMD2<Double>]) -> [SIMD2<Double>] {
            var out: [SIMD2<Double>] = []
            for p in sequence {
                while out.count >= 2, cross(out[out.count - 2], out[out.count - 1], p) <= 0 { out.removeLast() }
                out.append(p)
            }
            return out
        }
        let lower = chain(points), upper = chain(points.reversed())
        return Array(lower.dropLast() + upper.dropLast())
    }

    /// Twice the signed area of the triangle (o, a, b): positive when o → a → b turns left.
    static func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// Whether a CIE 1960 uv point lies strictly inside the gamut of real lights.
    static func contains(u: Double, v: Double) -> Bool {
        let p = SIMD2(u, v)
        return hull.indices.allSatisfy { cross(hull[$0], hull[($0 + 1) % hull.count], p) > 0 }
    }
}
