import Imaging
import Spectra

/// An extra light: directional, point or spot, possibly strongly coloured.
///
/// Point and spot intensities are luminous intensities on the beam axis (candela); a spot's beam
/// falls off as cos^m α, with m chosen so the intensity halves at `beamHalfAngleDegrees`
/// (m = ln 0.5 / ln cos α½, the usual LED beam model) and is zero beyond 90°.
public struct Light: Sendable, Hashable {
    /// The geometry of the emitter.
    public enum Kind: Sendable, Hashable {
        /// Parallel light travelling along `-towardsLight`; `illuminance` in lux on a surface facing it.
        case directional(towardsLight: Vector3, illuminance: Double)
        /// An isotropic point source of `intensity` candela.
        case point(position: Vector3, intensity: Double)
        /// A spot at `position` aimed along `axis`, `intensity` candela on axis.
        case spot(position: Vector3, axis: Vector3, intensity: Double, beamHalfAngleDegrees: Double)
    }

    /// A name for reports ("red gel").
    public var name: String
    /// Relative spectral power distribution (scale fixed by the photometric quantity).
    public var spectrum: Spectrum
    /// Geometry and photometric strength.
    public var kind: Kind

    /// A light.
    public init(name: String, spectrum: Spectrum, kind: Kind) {
        self.name = name
        self.spectrum = spectrum
        self.kind = kind
    }
}
