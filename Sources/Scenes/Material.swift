import Spectra

/// How a surface reflects light: a diffuse spectral reflectance plus a specular gloss lobe.
///
/// The specular lobe reflects the light's own colour (a dielectric's interface reflection), so a
/// glossy surface can clip under a flash while its diffuse colour stays that of the reflectance.
public struct Material: Sendable, Hashable {
    /// A name for reports and region queries ("terracotta").
    public var name: String
    /// Diffuse (Lambertian) reflectance factor, 0…1 per wavelength.
    public var reflectance: Spectrum
    /// Specular albedo at normal incidence, 0…1 (0 = matte). About 0.04 for glass or lacquer.
    public var specularStrength: Double
    /// Perceptual roughness, 0 (mirror-like) … 1 (very broad lobe).
    public var roughness: Double
    /// The spectral radiance the surface emits on its own (a lit screen), W·sr⁻¹·m⁻²·nm⁻¹, the same in
    /// every direction; nil for a surface that only reflects. The renderer adds it to what the camera
    /// sees of the surface; it lights no other object (`Screen`).
    public var emission: Spectrum?

    /// A material; matte unless gloss is given.
    public init(
        name: String, reflectance: Spectrum, specularStrength: Double = 0, roughness: Double = 0.5,
        emission: Spectrum? = nil
    ) {
        self.name = name
        self.reflectance = reflectance
        self.specularStrength = specularStrength
        self.roughness = roughness
        self.emission = emission
    }

    /// A spectrally flat (neutral) matte material.
    public static func neutral(_ name: String, reflectance: Double) -> Material {
        Material(name: name, reflectance: .constant(reflectance))
    }
}
