import Foundation
import Imaging
import Scenes
import Spectra

/// The device's flash: one or more LED modules fired together.
public struct FlashModel: Sendable, Hashable {
    /// One LED module.
    public struct Module: Sendable, Hashable {
        /// The unit's true relative spectral power distribution.
        public var spectrum: Spectrum
        /// Luminous intensity on the beam axis, candela.
        public var intensityCandela: Double
        /// Angle off axis at which the intensity halves, degrees.
        public var beamHalfAngleDegrees: Double
        /// Position relative to the camera's optical centre, metres, camera frame
        /// (+X right, +Y down, +Z along the optical axis).
        public var positionInCamera: Vector3
        /// Beam axis in the camera frame; the optical axis by default.
        public var axisInCamera: Vector3

        /// A module.
        public init(
            spectrum: Spectrum, intensityCandela: Double, beamHalfAngleDegrees: Double = 31.5,
            positionInCamera: Vector3 = .zero, axisInCamera: Vector3 = Vector3(0, 0, 1)
        ) {
            self.spectrum = spectrum
            self.intensityCandela = intensityCandela
            self.beamHalfAngleDegrees = beamHalfAngleDegrees
            self.positionInCamera = positionInCamera
            self.axisInCamera = axisInCamera.normalized
        }

        /// The exponent m of the cos^m α beam, m = ln 0.5 / ln cos α½ (color-science spec §3.4).
        public var beamExponent: Double { BeamPattern.exponent(halfAngleDegrees: beamHalfAngleDegrees) }
    }

    /// The modules.
    public var modules: [Module]

    /// A flash.
    public init(modules: [Module]) { self.modules = modules }
}

/// The cos^m α beam model shared by flash modules and spot lights.
public enum BeamPattern {
    /// m such that cos^m α½ = 0.5; 0 (isotropic) when the half angle is 90° or more.
    public static func exponent(halfAngleDegrees: Double) -> Double {
        let c = cos(halfAngleDegrees * Double.pi / 180)
        guard c > 0, c < 1 else { return 0 }
        return log(0.5) / log(c)
    }
}
