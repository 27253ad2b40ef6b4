/// The rear LED flash of a device and the factory calibration of this unit.
///
/// `modules` is the truth the Sensor renders with; `calibration` is what the phone believes
/// about its own flash, measured at the factory, and is all the ISP may use (How the physics
/// works, “The flash, true and believed”).
public struct FlashHardware: Sendable, Hashable, Codable {
    /// The marketing kind of flash.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// One white LED.
        case single
        /// Two LEDs, cool and warm ("True Tone").
        case trueTone = "true-tone"
        /// Four LEDs, two cool and two warm ("Quad-LED True Tone").
        case quadTrueTone = "quad-true-tone"
        /// An LED array that shapes its beam to the zoom ("Adaptive True Tone", iPhone 14 Pro+).
        case adaptiveTrueTone = "adaptive-true-tone"
    }

    /// One LED module as it really is.
    public struct Module: Sendable, Hashable, Codable {
        /// Id inside the flash (e.g. `cool-1`).
        public var id: String
        /// Its true emission spectrum.
        public var spectrum: SpectrumSource
        /// On-axis luminous intensity in candela during the main flash.
        public var intensityCD: Double
        /// Full beam angle at half intensity, in degrees.
        public var beamAngleDeg: Double
        /// Position in millimetres in the frame of the back cameras' extrinsics reference camera.
        public var positionMM: [Double]

        /// A module from its values.
        public init(
            id: String, spectrum: SpectrumSource, intensityCD: Double, beamAngleDeg: Double,
            positionMM: [Double]
        ) {
            self.id = id
            self.spectrum = spectrum
            self.intensityCD = intensityCD
            self.beamAngleDeg = beamAngleDeg
            self.positionMM = positionMM
        }
    }

    /// The factory calibration of one module.
    public struct Calibration: Sendable, Hashable, Codable {
        /// The module's id.
        public var module: String
        /// The measured spectrum.
        public var spectrum: SpectrumSource
        /// The measured on-axis intensity in candela.
        public var intensityCD: Double

        /// A calibration entry from its values.
        public init(module: String, spectrum: SpectrumSource, intensityCD: Double) {
            self.module = module
            self.spectrum = spectrum
            self.intensityCD = intensityCD
        }
    }

    /// The kind of flash.
    public var kind: Kind
    /// The LED modules.
    public var modules: [Module]
    /// One calibration entry per module.
    public var calibration: [Calibration]
    /// Where the truth values come from.
    public var provenance: ProvenanceMap
    /// Where the calibration values come from.
    public var calibrationProvenance: ProvenanceMap

    /// A flash from its values.
    public init(
        kind: Kind, modules: [Module], calibration: [Calibration], provenance: ProvenanceMap,
        calibrationProvenance: ProvenanceMap
    ) {
        self.kind = kind
        self.modules = modules
        self.calibration = calibration
        self.provenance = provenance
        self.calibrationProvenance = calibrationProvenance
    }

    /// On-axis illuminance in lux at `distanceM` metres from a module (inverse-square law: E = I / d²).
    public static func illuminanceLux(intensityCD: Double, distanceM: Double) -> Double {
        intensityCD / (distanceM * distanceM)
    }
}
