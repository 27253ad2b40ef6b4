/// A radial lens-distortion table in the convention of Apple's camera calibration data
/// (avfoundation-capture spec §10): magnification as a function of radius.
///
/// An undistorted point p maps to the distorted point c + (p − c)(1 + m(|p − c|)), where m is
/// interpolated linearly in `lookupTable`, whose entries are spread evenly over [0, r_max] and
/// r_max is the distance from `center` to the farthest image corner. Beyond r_max the last
/// entry holds.
public struct LensDistortion: Sendable, Hashable {
    /// Relative elongation samples (0 = none), evenly spaced from the centre to r_max.
    public var lookupTable: [Double]
    /// The distortion centre in pixels from the top-left of the image.
    public var center: SIMD2<Double>

    /// A distortion table; it needs at least two entries.
    public init(lookupTable: [Double], center: SIMD2<Double>) {
        precondition(lookupTable.count >= 2, "a distortion table needs at least two entries")
        self.lookupTable = lookupTable
        self.center = center
    }

    /// The farthest-corner radius for an image of this size (spec §10 step 1).
    public func maximumRadius(width: Int, height: Int) -> Double {
        let dx = max(center.x, Double(width) - center.x)
        let dy = max(center.y, Double(height) - center.y)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The magnification m at radius `r` (spec §10 step 3).
    public func magnification(radius r: Double, maximumRadius rMax: Double) -> Double {
        let n = lookupTable.count
        guard r < rMax else { return lookupTable[n - 1] }
        let t = r * Double(n - 1) / rMax
        let i = Int(t)
        let f = t - Double(i)
        return (1 - f) * lookupTable[i] + f * lookupTable[i + 1]
    }

    /// Where an undistorted point lands in the distorted image (the forward table).
    public func distort(_ p: SIMD2<Double>, width: Int, height: Int) -> SIMD2<Double> {
        let v = p - center
        let r = (v * v).sum().squareRoot()
        return center + v * (1 + magnification(radius: r, maximumRadius: maximumRadius(width: width, height: height)))
    }

    /// The same distortion for an image scaled by `factor` (table entries are scale-free).
    public func scaled(by factor: Double) -> LensDistortion {
        LensDistortion(lookupTable: lookupTable, center: center * factor)
    }
}
