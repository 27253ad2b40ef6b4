import Imaging

/// A teaching picture: a triangle with the Display P3 primaries at its corners, filled twice side by side.
///
/// Each pixel's barycentric weights (λr, λg, λb) with respect to the red (bottom left), green (top) and blue
/// (bottom right) corners give its colour. The left triangle mixes in linear light, as light adds physically: the
/// linear P3 value is (λr, λg, λb), then encoded with the sRGB curve. The right triangle mixes the encoded values
/// directly ("gamma space"), as naive image code does: the encoded value is (λr, λg, λb). The centres show the
/// difference: linear mixing gives an encoded grey of 0.61, gamma-space mixing a darker 0.33.
public enum GamutTriangle {
    /// The picture, `2 × size` wide and `size` high, as Display P3 encoded floats (3 channels) on black.
    ///
    /// Pixels are sampled at their centres; the edge is not anti-aliased, so every inside pixel is an exact mix.
    public static func render(size: Int) -> FloatPlane {
        precondition(size >= 8, "the triangle needs at least 8 pixels")
        let s = Double(size)
        let margin = 0.06 * s
        let red = SIMD2(margin, s - margin), green = SIMD2(s / 2, margin), blue = SIMD2(s - margin, s - margin)
        let area = cross(green - red, blue - red)
        return FloatPlane(width: 2 * size, height: size, channels: 3) { x, y, c in
            let half = x / size
            let p = SIMD2(Double(x - half * size) + 0.5, Double(y) + 0.5)
            // Barycentric weights as ratios of signed sub-triangle areas.
            let weights = SIMD3(cross(green - p, blue - p), cross(blue - p, red - p), cross(red - p, green - p)) / area
            guard weights.min() >= 0 else { return 0 }
            let mix = Float(weights[c])
            return half == 0 ? encodeSRGBCurve(mix) : mix
        }
    }

    private static func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { a.x * b.y - a.y * b.x }
}
