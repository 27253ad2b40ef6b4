/// A named reflecting surface with its spectral reflectance factor (0…1).
public struct ReflectancePatch: Sendable, Hashable {
    public let name: String
    /// The patch's position in its chart, from 1.
    public let number: Int
    public let reflectance: Spectrum

    /// A patch from its name, number and reflectance.
    public init(name: String, number: Int, reflectance: Spectrum) {
        self.name = name
        self.number = number
        self.reflectance = reflectance
    }
}

extension ReflectancePatch {
    /// Patches cut from a flat, patch-major table of reflectances on the grid.
    static func table(names: [String], values: [Double]) -> [ReflectancePatch] {
        precondition(values.count == names.count * Spectrum.count, "reflectance table size mismatch")
        return names.enumerated().map { i, name in
            ReflectancePatch(
                name: name, number: i + 1,
                reflectance: Spectrum(values: Array(values[i * Spectrum.count..<(i + 1) * Spectrum.count])))
        }
    }
}
