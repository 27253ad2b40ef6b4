/// A camera's lens shading: how the light reaching the sensor falls off from the centre of the image
/// to its corners (relative illumination), as a lens data sheet gives it.
///
/// Two parts, multiplied, at least one present:
/// - `naturalCosineFourth`: the natural fall-off of an ideal lens, cos⁴θ, θ the field angle of the
///   pixel (tan θ = image height / focal length);
/// - a table of relative illumination against normalised image height h: 0 at the principal point,
///   1 at the farthest corner of the reference image, linear between samples and the last value
///   beyond the last sample. With the natural term it holds what the lens adds (mechanical
///   vignetting by the barrel and stops); alone it is the whole curve.
///
/// The values are relative to the centre, so the table starts at h = 0 with 1. A profile without a
/// `shading` section has no fall-off at all, and its pictures get no correction.
///
/// `correction` is the share of the lost light the ISP puts back (1 corrects to flat; phones leave
/// some fall-off, so their corners' noise is not amplified as much), with its own provenance.
public struct LensShadingProfile: Sendable, Hashable, Codable {
    /// Whether the natural cos⁴ law applies.
    public var naturalCosineFourth: Bool
    /// Normalised image heights of the table, increasing from 0; empty for no table.
    public var imageHeights: [Double]
    /// Relative illumination at each height, 0…1, the first 1.
    public var relativeIllumination: [Double]
    /// The share of the lost light the ISP's correction puts back, in [0, 1].
    public var correction: Double
    /// Where the values come from.
    public var provenance: ProvenanceMap

    /// A shading from its values.
    public init(
        naturalCosineFourth: Bool, imageHeights: [Double], relativeIllumination: [Double], correction: Double = 1,
        provenance: ProvenanceMap
    ) {
        self.correction = correction
        self.naturalCosineFourth = naturalCosineFourth
        self.imageHeights = imageHeights
        self.relativeIllumination = relativeIllumination
        self.provenance = provenance
    }
}
