/// Synthetic human-skin reflectances spanning light to dark.
///
/// Public spectral skin charts are few (the Pantone SkinTone Guide is not published), so these
/// come from a two-layer Kubelka–Munk model: a melanin-bearing epidermis (Jacques 1998,
/// μa ∝ λ^−3.33) over a dermis with oxy-/deoxy-haemoglobin (Prahl's extinction table) and
/// Jacques's baseline absorption and scattering. The generator and its check against measured
/// skin patches are described in Data/PROVENANCE.md.
public enum SkinTones {
    /// The model inputs of one synthetic patch.
    public struct Parameters: Sendable, Hashable {
        /// Volume fraction of melanosomes in the epidermis.
        public let melaninFraction: Double
        /// Volume fraction of blood in the dermis.
        public let bloodFraction: Double
        /// Oxygen saturation of that blood.
        public let oxygenSaturation: Double
    }

    /// The patches "skin-001" … ordered light → dark by L* under D65.
    public static let patches: [ReflectancePatch] = ReflectancePatch.table(
        names: SkinToneData.parameters.map(\.name), values: SkinToneData.reflectances)

    /// The model inputs of each patch, in the order of `patches`.
    public static let parameters: [Parameters] = SkinToneData.parameters.map {
        Parameters(melaninFraction: $0.melanin, bloodFraction: $0.blood, oxygenSaturation: SkinToneData.oxygenSaturation)
    }
}
