/// The physical error sources of one phone against the nominal calibration its image processing uses, for the
/// Constant Color capture (the "How the physics works" article, Error sources). Each magnitude is read from the
/// profile's `capture_errors` section, where its provenance names the source it comes from.
///
/// The capture renders and measures with the drawn errors (the unit's flash and sensor, the flash's temperature,
/// the room light's flicker, the hand's motion); the pipeline keeps the factory calibration and the nominal
/// sensor curves, as a phone's image processor does. Where the profile says the unit's white balance is calibrated
/// at the factory (`sensitivityCalibrated`), that calibration has measured the sensor's red and blue gains against
/// green, and only its measurement error is left of their spread.
public struct CaptureErrors: Sendable, Hashable, Codable {
    /// Whether the errors apply; false renders the error-free capture (`validate constant-color --ideal`).
    public var enabled: Bool
    /// Half-width of each flash LED's luminous intensity about its factory calibration, percent: a unit's LED
    /// is drawn uniformly inside ± this bound.
    public var flashIntensityTolerancePercent: Double
    /// Electrical power of one flash LED during the main flash, watts (forward voltage × flash current).
    public var flashPowerWatts: Double
    /// Thermal resistance from an LED's junction to its board, kelvin per watt.
    public var flashThermalResistanceKPerW: Double
    /// Shift of a phosphor-converted LED's blue pump with junction temperature, nanometres per kelvin.
    public var ledPeakShiftNMPerK: Double
    /// Frequency of the mains that powers the room's lamps, hertz; their light flickers at twice it.
    public var mainsFrequencyHz: Double
    /// The room light's percent flicker, (max − min) / (max + min) × 100 of a sinusoidal modulation.
    public var percentFlicker: Double
    /// Time the rolling shutter takes to start every row of the full sensor, seconds.
    public var readoutTimeSeconds: Double
    /// Root-mean-square angular speed of a hand holding the phone, degrees per second, on each axis.
    public var handAngularSpeedDegreesPerSecond: Double
    /// Stabilisation of pitch and yaw, photographic stops: the residual image motion is 2^−stops of the hand's.
    public var stabilisationStops: Double
    /// Half-width of each colour channel's quantum-efficiency gain about the nominal curve, percent, per unit.
    public var sensitivityTolerancePercent: Double
    /// Whether each unit's white balance is calibrated at the factory: its red/green and blue/green responses to a
    /// grey field measured and stored with the module, as production lines typically do for camera modules. The
    /// calibration takes the red and blue gains' spread relative to green out of the colours, to the photon noise
    /// of its own measurement; the common gain, a sensitivity the exposure absorbs, stays.
    public var sensitivityCalibrated: Bool
    /// Where each value comes from, by profile key.
    public var provenance: ProvenanceMap

    /// Errors from their magnitudes.
    public init(
        enabled: Bool = true, flashIntensityTolerancePercent: Double, flashPowerWatts: Double,
        flashThermalResistanceKPerW: Double, ledPeakShiftNMPerK: Double, mainsFrequencyHz: Double,
        percentFlicker: Double, readoutTimeSeconds: Double, handAngularSpeedDegreesPerSecond: Double,
        stabilisationStops: Double, sensitivityTolerancePercent: Double, sensitivityCalibrated: Bool = false,
        provenance: ProvenanceMap = ProvenanceMap(Provenance(.modelled))
    ) {
        self.enabled = enabled
        self.flashIntensityTolerancePercent = flashIntensityTolerancePercent
        self.flashPowerWatts = flashPowerWatts
        self.flashThermalResistanceKPerW = flashThermalResistanceKPerW
        self.ledPeakShiftNMPerK = ledPeakShiftNMPerK
        self.mainsFrequencyHz = mainsFrequencyHz
        self.percentFlicker = percentFlicker
        self.readoutTimeSeconds = readoutTimeSeconds
        self.handAngularSpeedDegreesPerSecond = handAngularSpeedDegreesPerSecond
        self.stabilisationStops = stabilisationStops
        self.sensitivityTolerancePercent = sensitivityTolerancePercent
        self.sensitivityCalibrated = sensitivityCalibrated
        self.provenance = provenance
    }

    /// No errors: the ideal capture.
    public static let none = CaptureErrors(
        enabled: false, flashIntensityTolerancePercent: 0, flashPowerWatts: 0, flashThermalResistanceKPerW: 0,
        ledPeakShiftNMPerK: 0, mainsFrequencyHz: 60, percentFlicker: 0, readoutTimeSeconds: 0,
        handAngularSpeedDegreesPerSecond: 0, stabilisationStops: 0, sensitivityTolerancePercent: 0)

    /// One error source, for switching each off alone.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// Unit-to-unit flash intensity against the factory calibration.
        case flashCalibration = "flash_calibration"
        /// The LED's colour drift as its junction heats.
        case flashHeating = "flash_heating"
        /// Mains flicker of the room light under the rolling shutter.
        case flicker
        /// Hand motion between and during the two frames, after stabilisation.
        case handMotion = "hand_motion"
        /// Unit variation of the sensor's spectral sensitivity.
        case sensorSensitivity = "sensor_sensitivity"
    }

    /// These errors with one source switched off.
    public func without(_ source: Source) -> CaptureErrors {
        var out = self
        switch source {
        case .flashCalibration: out.flashIntensityTolerancePercent = 0
        case .flashHeating: out.ledPeakShiftNMPerK = 0
        case .flicker: out.percentFlicker = 0
        case .handMotion: out.handAngularSpeedDegreesPerSecond = 0
        case .sensorSensitivity: out.sensitivityTolerancePercent = 0
        }
        return out
    }
}
