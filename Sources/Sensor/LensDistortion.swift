import Devices
import Imaging

/// A radial lens-distortion table in the convention of Apple's camera calibration data
/// (avfoundation-capture spec §10): magnification as a function of radius, for one image size.
///
/// This is the renderer's per-image view of a profile's `Devices.LensDistortion` (its centre
/// already scaled to the image); the arithmetic is that type's reference mapping, not a copy.
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
        Devices.LensDistortion.maximumRadius(
            centerX: center.x, centerY: center.y, width: Double(width), height: Double(height))
    }

    /// The magnification m at radius `r` (spec §10 step 3).
    public func magnification(radius r: Double, maximumRadius rMax: Double) -> Double {
        Devices.LensDistortion.magnification(radius: r, table: lookupTable, maximumRadius: rMax)
    }

    /// Where an undistorted point lands in the distorted image (the forward table).
    public func distort(_ p: SIMD2<Double>, width: Int, height: Int) -> SIMD2<Double> {
        let q = Devices.LensDistortion.map(
            x: p.x, y: p.y, table: lookupTable, centerX: center.x, centerY: center.y, width: Double(width),
            height: Double(height))
        return SIMD2(q.x, q.y)
    }

    /// The same distortion for an image scaled by `factor` (table entries are scale-free).
    public func scaled(by factor: Double) -> LensDistortion {
        LensDistortion(lookupTable: lookupTable, center: center * factor)
    }
}
