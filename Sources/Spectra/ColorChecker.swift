/// The 24-patch ColorChecker (Calibrite/X-Rite ColorChecker Classic), with the spectral
/// reflectances measured by Ohta (1997) and standardised in ISO 17321-1.
public enum ColorChecker {
    /// Patches 1 (dark skin) … 24 (black 2), in chart order.
    public static let patches: [ReflectancePatch] = ReflectancePatch.table(
        names: ColorCheckerData.names, values: ColorCheckerData.reflectances)

    /// The patch with a chart number 1…24, or nil.
    public static func patch(_ number: Int) -> ReflectancePatch? {
        patches.indices.contains(number - 1) ? patches[number - 1] : nil
    }

    /// The patch with a name such as "blue" or "white 9.5 (.05 D)" (case-insensitive), or nil.
    public static func patch(named name: String) -> ReflectancePatch? {
        patches.first { $0.name.lowercased() == name.lowercased() }
    }
}
