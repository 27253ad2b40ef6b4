import Imaging

/// Depth maps shown in colour: the viridis colour map, near yellow and far purple, holes black.
///
/// Viridis (van der Walt and Smith, matplotlib 1.5, 2015) is perceptually uniform and reads in
/// grey and to the common colour-vision deficiencies, so equal depth steps look like equal steps.
/// The map here interpolates linearly in 8-bit sRGB between nine anchors: the published map
/// sampled at 0, 1/8, …, 1 (the values R's `viridisLite::viridis(9)` lists). Between anchors it
/// differs from the 256-entry table by a few code values at most, well below what a report needs.
public enum DepthColourMap {
    /// sRGB anchors at t = 0, 1/8, …, 1.
    public static let anchors: [SIMD3<UInt8>] = [
        SIMD3(0x44, 0x01, 0x54), SIMD3(0x47, 0x2D, 0x7B), SIMD3(0x3B, 0x52, 0x8B), SIMD3(0x2C, 0x72, 0x8E),
        SIMD3(0x21, 0x90, 0x8C), SIMD3(0x27, 0xAD, 0x81), SIMD3(0x5D, 0xC8, 0x63), SIMD3(0xAA, 0xDC, 0x32),
        SIMD3(0xFD, 0xE7, 0x25),
    ]

    /// The colour at `t` in 0…1 (clamped).
    public static func colour(_ t: Double) -> SIMD3<UInt8> {
        let x = (t.isFinite ? min(1, max(0, t)) : 0) * Double(anchors.count - 1)
        let i = min(Int(x), anchors.count - 2)
        let f = x - Double(i)
        let a = SIMD3<Double>(anchors[i]), b = SIMD3<Double>(anchors[i + 1])
        let c = (a + (b - a) * f).rounded(.toNearestOrEven)
        return SIMD3(UInt8(c.x), UInt8(c.y), UInt8(c.z))
    }

    /// The CSS gradient of the map from far (left) to near (right), for a legend strip.
    public static var cssGradient: String {
        let stops = anchors.map { "rgb(\($0.x),\($0.y),\($0.z))" }
        return "linear-gradient(to right," + stops.joined(separator: ",") + ")"
    }

    /// A colour picture of depths in metres (row-major from the top): linear in depth between the
    /// near and far ends of the valid values, near yellow; holes (0, NaN, ∞) black. Returns nil
    /// when there is no valid depth at all.
    public static func render(width: Int, height: Int, metres: [Float])
        -> (image: UInt8Image, near: Double, far: Double)?
    {
        let valid = metres.filter { $0.isFinite && $0 > 0 }.sorted()
        guard !valid.isEmpty else { return nil }
        // The 1st and 99th percentiles, not the extremes: a few stray far or near samples (noise,
        // a hole's edge) would otherwise squeeze the whole scene into one colour. Depths beyond
        // them take the end colours.
        let near = Double(valid[(valid.count - 1) / 100])
        let far = Double(valid[valid.count - 1 - (valid.count - 1) / 100])
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for (i, m) in metres.enumerated() where m.isFinite && m > 0 {
            let t = far > near ? (far - Double(m)) / (far - near) : 1
            let c = colour(t)
            rgb[i * 3] = c.x
            rgb[i * 3 + 1] = c.y
            rgb[i * 3 + 2] = c.z
        }
        return (UInt8Image(width: width, height: height, channels: 3, elements: rgb), near, far)
    }
}
