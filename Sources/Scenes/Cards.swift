import Spectra

/// Builders for the textured cards scenes use: reflectance charts and patch grids.
public enum Cards {
    /// A chart of patches in reading order on a matte black border, as a plane `Surface`
    /// (for example the 24 ColorChecker patches as 6 columns × 4 rows).
    public static func chart(
        columns: Int, rows: Int, patches: [(name: String, reflectance: Spectrum)],
        borderReflectance: Double = 0.03, gap: Double = 0.15
    ) -> Surface {
        precondition(patches.count == columns * rows, "a \(columns)×\(rows) chart needs \(columns * rows) patches")
        return .grid(
            columns: columns, rows: rows,
            patches: patches.map { Material(name: $0.name, reflectance: $0.reflectance) },
            border: .neutral("chart border", reflectance: borderReflectance), gap: gap)
    }
}
