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
    /// Computed in Double; Apple's reference uses Float, which differs below 1e-3 px here.
    public static func map(
        x: Double, y: Double, table: [Double], centerX: Double, centerY: Double, width: Double, height: Double
    ) -> (x: Double, y: Double) {
        guard table.count >= 2 else { return (x, y) }
        let dx = max(centerX, width - centerX)
        let dy = max(centerY, height - centerY)
        let rMax = (dx * dx + dy * dy).squareRoot()
        let vx = x - centerX
        let vy = y - centerY
        let r = (vx * vx + vy * vy).squareRoot()
        let n = table.count
        let m: Double
        if r < rMax {
            let t = r * Double(n - 1) / rMax
            let i = Int(t)
            let f = t - Double(i)
            m = (1 - f) * table[i] + f * table[i + 1]
        } else {
            m = table[n - 1]
        }
        return (centerX + vx * (1 + m), centerY + vy * (1 + m))
    }
}
