/// A calibrated radial lens distortion in Apple's lookup-table form (spec §10 [D]).
///
/// Each table holds relative elongations spaced evenly along the radius, from the distortion
/// centre (index 0) to the farthest image corner (last index). The forward table maps a point of
/// the undistorted image to where it lies in the distorted one; the inverse table goes back.
public struct LensDistortion: Sendable, Hashable, Codable {
    /// The distortion centre in reference-dimension pixels from the top-left corner.
    public var centerX: Double, centerY: Double
    /// The forward table (`lensDistortionLookupTable`).
    public var lookupTable: [Double]
    /// The inverse table (`inverseLensDistortionLookupTable`).
    public var inverseLookupTable: [Double]
    /// Where each value comes from.
    public var provenance: ProvenanceMap

    /// A distortion from its values.
    public init(
        centerX: Double, centerY: Double, lookupTable: [Double], inverseLookupTable: [Double],
        provenance: ProvenanceMap
    ) {
        self.centerX = centerX
        self.centerY = centerY
        self.lookupTable = lookupTable
        self.inverseLookupTable = inverseLookupTable
        self.provenance = provenance
    }

    /// Maps a point through a table with the reference algorithm of `AVCameraCalibrationData.h`
    /// (spec §10, "Reference point mapping"): linear interpolation along the radius measured to
    /// the farthest corner, the last entry beyond it, and a radial move by (1 + m).
    ///
    /// The point, the centre and the size must share one coordinate system and scale (spec §10).
    /// Computed in Double; Apple's reference uses Float, which differs below 1e-3 px here.
    public static func map(
        x: Double, y: Double, table: [Double], centerX: Double, centerY: Double, width: Double, height: Double
    ) -> (x: Double, y: Double) {
        guard table.count >= 2 else { return (x, y) }
        let rMax = maximumRadius(centerX: centerX, centerY: centerY, width: width, height: height)
        let vx = x - centerX
        let vy = y - centerY
        let m = magnification(radius: (vx * vx + vy * vy).squareRoot(), table: table, maximumRadius: rMax)
        return (centerX + vx * (1 + m), centerY + vy * (1 + m))
    }

    /// Step 1 of the reference mapping (spec §10): the distance from the centre to the farthest
    /// corner of a `width × height` image.
    public static func maximumRadius(centerX: Double, centerY: Double, width: Double, height: Double) -> Double {
        let dx = max(centerX, width - centerX)
        let dy = max(centerY, height - centerY)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Step 3 of the reference mapping (spec §10): the table value at radius `r`, interpolated
    /// linearly between the entries around the fractional index r·(N−1)/r_max, or the last entry
    /// from r_max on. A table of fewer than two entries means no distortion.
    public static func magnification(radius r: Double, table: [Double], maximumRadius rMax: Double) -> Double {
        let n = table.count
        guard n >= 2 else { return 0 }
        guard r < rMax else { return table[n - 1] }
        let t = r * Double(n - 1) / rMax
        let i = Int(t)
        let f = t - Double(i)
        return (1 - f) * table[i] + f * table[i + 1]
    }
}
