import Imaging
import Spectra

/// The room's light: one illuminant arriving partly from a key direction (which casts shadows)
/// and partly from a uniform hemisphere around it (which does not), so shadows are soft-edged
/// and never black.
///
/// `illuminance` is what a surface facing `direction` receives in total. A surface with normal n
/// receives `(1 − f)·E·max(0, n·d)·visibility + f·E·(1 + n·d)/2`, where d points towards the light
/// and f is `diffuseFraction`; the second term is the irradiance from a uniform hemisphere
/// centred on d, of which a tilted plane sees the fraction (1 + cos θ)/2.
public struct AmbientLight: Sendable, Hashable {
    /// Relative spectral power distribution (any scale; `illuminance` fixes the scale).
    public var spectrum: Spectrum
    /// Total illuminance on a surface facing `direction`, lux.
    public var illuminance: Double
    /// Unit direction from the scene towards the key light.
    public var direction: Vector3
    /// Share of the illuminance that comes from the hemisphere, 0…1.
    public var diffuseFraction: Double
    /// Angular radius of the key source, degrees; more than 0 blurs shadow edges (penumbra).
    public var keyAngularRadiusDegrees: Double

    /// An ambient light.
    public init(
        spectrum: Spectrum, illuminance: Double, direction: Vector3 = Vector3(0, 1, 0),
        diffuseFraction: Double = 0.5, keyAngularRadiusDegrees: Double = 0
    ) {
        self.spectrum = spectrum
        self.illuminance = illuminance
        self.direction = direction.normalized
        self.diffuseFraction = min(max(diffuseFraction, 0), 1)
        self.keyAngularRadiusDegrees = keyAngularRadiusDegrees
    }
}
