import Spectra

/// Builders for the textured cards scenes use: reflectance charts and patch grids.
public enum Cards {
    /// A chart of patches in reading order on a matte dark border, as a plane `Surface`.
    public static func chart(
        columns: Int, rows: Int, patches: [ReflectancePatch], borderReflectance: Double = 0.03, gap: Double = 0.15
    ) -> Surface {
        precondition(patches.count == columns * rows, "a \(columns)×\(rows) chart needs \(columns * rows) patches")
        return .grid(
            columns: columns, rows: rows,
            patches: patches.map { Material(name: $0.name, reflectance: $0.reflectance) },
            border: .neutral("chart border", reflectance: borderReflectance), gap: gap)
    }

    /// The 24-patch ColorChecker, 6 columns × 4 rows, patch 1 (dark skin) at the top left.
    /// Its plane should be 0.2794 m × 0.1905 m (the chart's 11 × 7.5 in).
    public static func colorChecker() -> Surface {
        chart(columns: 6, rows: 4, patches: ColorChecker.patches)
    }

    /// The skin reflectance set as a grid with `columns` patches per row (the last row is padded
    /// with the border material).
    public static func skinPatches(columns: Int) -> Surface {
        var patches = SkinTones.patches
        let rows = (patches.count + columns - 1) / columns
        while patches.count < rows * columns {
            patches.append(ReflectancePatch(name: "chart border", number: patches.count + 1, reflectance: .constant(0.03)))
        }
        return chart(columns: columns, rows: rows, patches: patches)
    }
}
