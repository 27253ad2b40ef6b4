import Devices
import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// The physical errors of one phone applied to a Constant Color capture: what is rendered and measured differs from
/// the nominal calibration the pipeline processes with (the "How the physics works" article, Error sources).
///
/// Two kinds of draws, each reproducible from its key alone:
/// - per **unit** (`unit`): each flash LED's intensity against its factory calibration, and each colour channel's
///   quantum-efficiency gain against the nominal curves (after the factory's white-balance calibration, where the
///   profile has one). One phone keeps them for every capture.
/// - per **capture** (the capture's seed): the flash LEDs' junction temperature, the room light's flicker phase, and
///   the hand's angular velocity.
///
/// With `magnitudes.enabled` false every draw is the identity, and the capture is the error-free one bit for bit.
public struct ConstantColorCaptureErrors: Sendable, Hashable {
    /// The magnitudes, from the profile's `capture_errors` section.
    public var magnitudes: CaptureErrors
    /// Which unit of the model: its LEDs and sensor curves are drawn from this key.
    public var unit: UInt64
    /// Readout time per row times the focal length in pixels, s·px: a camera's row period is this over its
    /// `fy`, so a centre crop keeps the sensor's row period and a scaled readout gets a longer one.
    public var rowPeriodFocal: Double

    /// Errors of a unit; `rowPeriodFocal` as `init(magnitudes:unit:camera:)` computes it.
    public init(magnitudes: CaptureErrors, unit: UInt64 = 0, rowPeriodFocal: Double = 0) {
        self.magnitudes = magnitudes
        self.unit = unit
        self.rowPeriodFocal = rowPeriodFocal
    }

    /// Errors of a unit whose rolling shutter reads `camera`'s rows (the camera spanning the sensor's height)
    /// in the profile's readout time.
    public init(magnitudes: CaptureErrors, unit: UInt64 = 0, camera: CameraModel) {
        self.init(
            magnitudes: magnitudes, unit: unit,
            rowPeriodFocal: magnitudes.readoutTimeSeconds * camera.fy / Double(max(1, camera.height)))
    }

    /// No errors: the ideal capture.
    public static let none = ConstantColorCaptureErrors(magnitudes: .none)

    /// Whether any error applies.
    public var isActive: Bool { magnitudes.enabled }

    /// Streams of the draws, so that no two share random numbers.
    enum Stream: UInt64 {
        case flashIntensity = 0x4345_0001, sensitivity, junction, flickerPhase, hand, calibration
    }

    /// What one capture renders with: the unit's sensor and flash, the flash as hot as this firing made it, the
    /// scene with the hand's motion, and the room light's flicker for the pair's exposures.
    package struct Draw {
        /// The unit's camera (the nominal one with its sensitivity errors, as its calibration leaves them).
        package var camera: CameraModel
        /// The unit's flash at its calibration temperature: the pre-flash the metering sees.
        var preFlash: FlashModel
        /// The unit's flash at the main firing's junction temperature.
        var mainFlash: FlashModel
        /// The scene with the device moving as the hand moves it.
        package var scene: Scene
        /// The flicker: modulation, angular frequency, phase at the ambient frame's first row, row period.
        var flicker: (depth: Double, omega: Double, phase: Double, rowPeriod: Double)?

        /// The pair's exposures, each row weighted by the room light's mean over its integration window.
        func exposures(_ plan: ConstantColorCapturePlan, height: Int) -> (ambient: Exposure, flash: Exposure) {
            guard let flicker else { return (plan.ambient, plan.flash) }
            var ambient = plan.ambient, flash = plan.flash
            ambient.ambientRowGains = Self.rowGains(flicker, start: 0, time: ambient.time, height: height)
            flash.ambientRowGains = Self.rowGains(flicker, start: plan.interval, time: flash.time, height: height)
            return (ambient, flash)
        }

        /// Mean of 1 + m·sin(ωt + φ) over each row's window [t_r, t_r + T], t_r = start + r·(row period):
        /// 1 + m·(cos(ωt_r + φ) − cos(ω(t_r + T) + φ)) / (ωT).
        static func rowGains(
            _ f: (depth: Double, omega: Double, phase: Double, rowPeriod: Double), start: Double, time: Double,
            height: Int
        ) -> [Float] {
            (0..<height).map { r in
                let t = start + Double(r) * f.rowPeriod
                let window = f.omega * max(time, 1e-9)
                return Float(1 + f.depth * (cos(f.omega * t + f.phase) - cos(f.omega * t + window + f.phase)) / window)
            }
        }
    }

    /// The unit's channel `gains` as the pipeline meets them after the factory's white-balance calibration: the
    /// calibration measured the unit's red/green and blue/green responses to a grey field and corrects them to the
    /// nominal module's, so what is left of each ratio's spread is the measurement's own error, here its photon
    /// noise. The common gain (green's) stays: a sensitivity, which the exposure absorbs, not a colour.
    ///
    /// The measurement (our choice of field): a 64 × 64-pixel grey field exposed to half the well. A ratio of two
    /// channels' means over n pixels of s electrons each has a relative standard deviation of √(2 / (n·s)).
    ///
    /// A phone applies the stored ratios to its raw values; here the frames are rendered with the gains the
    /// correction leaves, the pipeline still reading only the nominal curves. The two differ in the red and blue
    /// channels' electron counts by the unit's spread (at most about 4 %), so in their shot noise by under 2 %.
    func calibrated(_ gains: [Double], camera: CameraModel) -> [Double] {
        let pixels = 64.0 * 64.0, electrons = camera.noise.fullWellElectrons / 2
        let sigma = (2 / (pixels * electrons)).squareRoot()
        let residual = { (index: Int) in
            1 + sigma * SeededDraw.normal(seed: self.unit, stream: Stream.calibration.rawValue, index: index)
        }
        return [gains[1] * residual(0), gains[1], gains[1] * residual(1)]
    }

    /// The draw of one capture with `seed`, for a pipeline's nominal camera and flash.
    package func draw(camera: CameraModel, flash: FlashModel, scene: Scene, seed: UInt64) -> Draw {
        guard isActive else { return Draw(camera: camera, preFlash: flash, mainFlash: flash, scene: scene, flicker: nil) }
        let m = magnitudes
        // Unit: each LED's intensity uniformly within the calibration's tolerance (the LED maker's tester bound).
        var unitFlash = flash
        for i in unitFlash.modules.indices where m.flashIntensityTolerancePercent > 0 {
            let u = SeededDraw.uniform(seed: unit, stream: Stream.flashIntensity.rawValue, index: i)
            unitFlash.modules[i].intensityCandela *= 1 + m.flashIntensityTolerancePercent / 100 * (2 * u - 1)
        }
        // Unit: each channel's quantum efficiency scaled within the unit spread of the sensor type.
        var unitCamera = camera
        if m.sensitivityTolerancePercent > 0 {
            var gains = (0..<3).map { c in
                1 + m.sensitivityTolerancePercent / 100
                    * (2 * SeededDraw.uniform(seed: self.unit, stream: Stream.sensitivity.rawValue, index: c) - 1)
            }
            if m.sensitivityCalibrated { gains = calibrated(gains, camera: camera) }
            let qe = camera.quantumEfficiency
            unitCamera.quantumEfficiency = (qe.red * gains[0], qe.green * gains[1], qe.blue * gains[2])
        }
        // Capture: the main flash heats each junction above the calibration's temperature by a share of the
        // steady-state rise P·R_th; the firing is about as long as the package's thermal time constant, so the
        // junction lies anywhere between its start and that bound (our choice: uniform). The blue pump, and
        // with it the phosphor's excitation, red-shifts by the coefficient per kelvin.
        var mainFlash = unitFlash
        let rise = m.flashPowerWatts * m.flashThermalResistanceKPerW
            * SeededDraw.uniform(seed: seed, stream: Stream.junction.rawValue)
        let shift = rise * m.ledPeakShiftNMPerK
        if shift != 0 {
            for i in mainFlash.modules.indices {
                let s = mainFlash.modules[i].spectrum
                mainFlash.modules[i].spectrum = Spectrum { s.value(at: $0 - shift) }
            }
        }
        // Capture: the hand turns the phone; stabilisation removes all but 2^−stops of pitch and yaw (a sensor-shift
        // stabiliser does not turn the sensor about the optical axis, so roll stays whole).
        var moved = scene
        let sigma = m.handAngularSpeedDegreesPerSecond * .pi / 180
        if sigma > 0 {
            let residual = pow(2, -m.stabilisationStops)
            let w = (0..<3).map { SeededDraw.normal(seed: seed, stream: Stream.hand.rawValue, index: $0) * sigma }
            let r = scene.device.rotation
            let right = r.apply(Vector3(1, 0, 0)), down = r.apply(Vector3(0, 1, 0)), forward = r.apply(Vector3(0, 0, 1))
            moved.device.motion.angularVelocity = moved.device.motion.angularVelocity
                + right * (w[0] * residual) + down * (w[1] * residual) + forward * w[2]
        }
        // Capture: the room's lamps flicker at twice the mains frequency with the cited depth, at a phase the
        // shutter does not know.
        var flicker: (Double, Double, Double, Double)?
        if m.percentFlicker > 0 {
            let phase = 2 * Double.pi * SeededDraw.uniform(seed: seed, stream: Stream.flickerPhase.rawValue)
            flicker = (m.percentFlicker / 100, 2 * .pi * 2 * m.mainsFrequencyHz, phase, rowPeriodFocal / camera.fy)
        }
        return Draw(camera: unitCamera, preFlash: unitFlash, mainFlash: mainFlash, scene: moved, flicker: flicker)
    }
}
