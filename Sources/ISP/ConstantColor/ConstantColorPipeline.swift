import Devices
import Dispatch
import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// Constant Color: a flash/no-flash pair turned into the colours the surfaces would have under D65,
/// whatever the room light (How the physics works, “Constant Color”).
///
/// Steps: pre-flash metering (`ConstantColorCapturePlan`); an ambient frame, then a flash frame `interval` seconds
/// later (the scene may move in between); registration of the ambient frame to the flash frame (`FrameRegistration`);
/// exposure normalisation to electrons per second, where frames differing in time and gain become comparable; the
/// flash-only estimate f = flash − ambient; lens-shading correction of the blend (`LensShadingCorrection`; after the
/// confidence map, which must see the raw signal-to-noise ratio) and its division by the calibrated flash's irradiance
/// at each pixel (`FlashIrradiance`, from the depth the device measured); the map from camera RGB under the
/// *calibrated* flash to XYZ under D65 (`RootPolynomialCorrection` of degree 3, fitted over
/// `TrainingReflectances.constantColor`); a global exposure, a global tone curve and a 2.2 gamma into Display P3. Where
/// the flash-only estimate is mostly noise, or the scene moved between the frames, the flash frame fills in, turned
/// into "flash-equivalent" camera RGB by the ambient/flash ratio measured on the surrounding usable pixels (a von Kries
/// step in camera space, Petschnigg et al. 2004 use the same ratio for white balance). A channel too noisy to stand
/// alone (a coloured light's shot noise) takes the surface's flash-only colour from the tiles around at the level the
/// pixel's channels measure (`FlashOnlyChroma`), and where that level is measured well the estimate replaces the fill,
/// whose ratio blurs the edges of the room light's coloured patches. A channel the flash frame clipped is estimated
/// from the flash-only colour of the same surface nearby (`SurfaceColours`), feathered in as the channel nears the
/// white level; the ambient frame only where no such surface is found.
///
/// What is recoverable: the flash's irradiance falls with the square of the distance, with the
/// beam's angle and with the surface's obliquity; with the capture's depth and the flash's
/// calibrated geometry it is known at each pixel, and the flash-only signal divided by it is
/// proportional to reflectance, so a far surface comes out as light as a near one of the same paint
/// and a flat card as light in its corners as in its centre. One factor stays unknown (the
/// calibration's absolute scale, the exposure of the frames): the picture gets one global exposure
/// (its centre-weighted mean luminance is set to mid-grey). Where depth is missing, the irradiance
/// of the surfaces around is used; without any depth, one flash level for the whole picture, and
/// then only the *chromaticity*, the ratio of the channels, is constant across distances.
/// Shadows cast by the ambient light vanish (the flash sits next to the lens); in filled regions
/// they remain, because there the ambient frame is all there is. The flash's own shadows (a sliver
/// beside each depth edge, a patch on a wall behind a near object) take the flash-only value the
/// ambient frame predicts for their surface (`FlashShadow`) where the frames agree and the depth map
/// shows what blocks the flash (`FlashOcclusion`).
///
/// What the photo is: a colorimetric rendering. The exposure puts the centre-weighted mean at
/// mid-grey but never lets the brightest confident surface (an 8×8-tile mean, so noise does not
/// decide) pass the tone curve's knee; below the knee the curve is the identity, so every diffuse
/// surface keeps its D65 colorimetry, and only specular highlights and clipped pixels roll off.
///
/// What it is given: only what a phone has (`ConstantColorCapture`): the two frames' DN and exposures, the device's
/// nominal calibration, and the depth the device's own sensor measured (a LiDAR scanner's dots densified, where the
/// profile has one; else none). `capture` renders and measures; `process` never sees the render's ground truth.
///
/// Every pass over the pixels runs in row bands of fixed height on all cores; reductions are summed
/// band by band in band order, so the output is bit-identical for any number of cores.
public struct ConstantColorPipeline: Sendable {
    /// Choices of the pipeline.
    public struct Settings: Sendable, Hashable {
        /// Seconds between the ambient and the flash frame.
        public var interval: Double
        /// Longest flash-frame exposure, seconds.
        public var maximumFlashTime: Double
        /// Confidence tile side, pixels.
        public var tileSize: Int
        /// Whether to register the frames (off only to show what registration buys).
        public var registers: Bool
        /// Linear luminance the centre-weighted mean is mapped to.
        public var midGrey: Double
        /// The global tone curve on linear Display P3.
        public var toneCurve: ToneCurve
        /// Whether to develop the fallback (ordinary) photo.
        public var developsFallback: Bool
        /// Share of the room light's cast the ordinary photo keeps (as `obscura render` does).
        public var fallbackWarmth: Double
        /// Whether the flash-only signal is divided by the flash's irradiance at each pixel, from the
        /// capture's depth (`FlashIrradiance`), while the pipeline fills, borrows colours and fills the flash's
        /// shadows; off only to show what that buys.
        public var correctsIrradiance: Bool
        /// Whether the photo keeps the flash's fall-off and form shading, as a photo lit by the flash alone shows
        /// them (Apple's model: the predicted dark-room flash image; the "How the physics works" article). Off,
        /// the photo shows each surface at the irradiance of the picture's centre (an albedo picture, which no
        /// phone delivers), for studying the irradiance correction itself.
        public var rendersFlashFallOff: Bool
        /// Whether `capture` renders the pair with the light factors at half precision (`RenderOptions.halfFactors`),
        /// as the photo output does: each frame's mean signal within 0.05 % of its single-precision value, for
        /// 218 MB less memory at 12 MP while the pair renders.
        public var halfFactors: Bool

        /// Settings; the defaults are our choices, documented on each property.
        public init(
            interval: Double = 0.05, maximumFlashTime: Double = 1.0 / 30, tileSize: Int = 8, registers: Bool = true,
            midGrey: Double = 0.18, toneCurve: ToneCurve = .shoulder(knee: 0.85, whiteInput: 2),
            developsFallback: Bool = true, fallbackWarmth: Double = PhotoPipeline.warmth,
            correctsIrradiance: Bool = true, rendersFlashFallOff: Bool = true, halfFactors: Bool = false
        ) {
            self.interval = interval
            self.maximumFlashTime = maximumFlashTime
            self.tileSize = tileSize
            self.registers = registers
            self.midGrey = midGrey
            self.toneCurve = toneCurve
            self.developsFallback = developsFallback
            self.fallbackWarmth = fallbackWarmth
            self.correctsIrradiance = correctsIrradiance
            self.rendersFlashFallOff = rendersFlashFallOff
            self.halfFactors = halfFactors
        }
    }

    /// The camera (its size is the photo's).
    public let camera: CameraModel
    /// The flash as it really is: what the renderer fires.
    public let flash: FlashModel
    /// The flash as the phone believes it is.
    public let calibration: FlashCalibration
    /// The flash's geometry, beams and calibrated intensities, for its irradiance at each pixel.
    public let irradiance: FlashIrradiance
    /// Neutral-normalised camera RGB under the calibrated flash → XYZ under D65 (Y_white = 1).
    public let correction: RootPolynomialCorrection
    /// The camera's response to a white under the calibrated flash, green = 1.
    public let flashNeutral: SIMD3<Double>
    /// How far `correction` can be trusted at each camera colour: the cap it puts on the confidence map.
    public let colourTrust: ColourMappingUncertainty
    /// How the device measures depth while the flash fires (`capture` measures; `process` sees the map only).
    public let depthSensor: ConstantColorDepthSensor
    /// The settings.
    public let settings: Settings
    /// The device's error sources, which `capture` renders with and `process` never sees (`.none`: the ideal capture).
    public var captureErrors: ConstantColorCaptureErrors = .none

    /// The pipeline for a camera, its real flash and the flash's calibration; `irradiance` defaults to
    /// the real flash's geometry at the calibration's intensity (`FlashIrradiance.init(flash:calibration:)`).
    public init(
        camera: CameraModel, flash: FlashModel, calibration: FlashCalibration, irradiance: FlashIrradiance? = nil,
        depthSensor: ConstantColorDepthSensor = .none, settings: Settings = Settings()
    ) {
        self.camera = camera
        self.flash = flash
        self.calibration = calibration
        self.depthSensor = depthSensor
        self.irradiance = irradiance ?? FlashIrradiance(flash: flash, calibration: calibration)
        self.settings = settings
        correction = RootPolynomialCorrection(
            camera: camera, illuminant: calibration.spectrum, renderedUnder: Illuminants.d65,
            training: TrainingReflectances.constantColor, degree: 3)
        let n = CameraResponse.neutral(illuminant: calibration.spectrum, camera: camera)
        flashNeutral = n / n.y
        colourTrust = ColourMappingUncertainty(correction: correction, camera: camera, illuminant: calibration.spectrum)
    }

    /// The pipeline for a profile camera at `width × height`, read out as `readout` says (a full
    /// readout when nil), with the profile's flash and its factory calibration, and the device's LiDAR
    /// scanner where the profile lists one (else no depth), or `depthSensor` where given. The confidence
    /// map weighs each pixel by that readout's noise.
    public init(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int, readout: FormatReadout? = nil,
        depthSensor: ConstantColorDepthSensor? = nil, settings: Settings = Settings()
    ) throws {
        let model: CameraModel
        do {
            model = try CameraModel(device: device, camera: camera, width: width, height: height, readout: readout)
        } catch {
            throw ConstantColorError(description: "\(error)")
        }
        guard let flash = FlashModel(device: device, camera: camera) else {
            throw ConstantColorError(
                description: "\(device.sourceFile): \(device.id) has no flash for camera \(camera.id); "
                    + "Constant Color needs one")
        }
        guard let hardware = device.flash, let calibration = FlashCalibration(hardware: hardware) else {
            throw ConstantColorError(
                description: "\(device.sourceFile): \(device.id) has no flash calibration; Constant Color needs one")
        }
        self.init(
            camera: model, flash: flash, calibration: calibration,
            irradiance: FlashIrradiance(device: device, camera: camera),
            depthSensor: depthSensor ?? ConstantColorDepthSensor(device: device, camera: camera), settings: settings)
        captureErrors = ConstantColorCaptureErrors(magnitudes: device.captureErrors, camera: model)
    }

    /// Photographs a scene: metering, both frames, processing.
    ///
    /// - Parameter keepsTruth: whether the diagnostics' frames keep the render's truth planes (depth, object and
    ///   material ids), for evaluation. A capture that only delivers the photos leaves them out: the processing
    ///   never reads them, and at 12 MP they hold 97 MB per frame through the processing.
    /// - Parameter maximumExposureTime: the longest exposure auto-exposure may choose, seconds; nil for
    ///   auto-exposure's default. It bounds the pair's exposure as well as the flash's own limit
    ///   (`Settings.maximumFlashTime`), and the ordinary exposure the fallback photo is brought to
    ///   (`ConstantColorCapturePlan.meter`).
    public func capture(
        scene nominal: Scene, seed: UInt64 = 0, keepsTruth: Bool = true, maximumExposureTime: Double? = nil
    ) -> ConstantColorResult {
        // What is rendered carries the device's errors; what is processed keeps the nominal calibration.
        let real = captureErrors.draw(camera: camera, flash: flash, scene: nominal, seed: seed)
        let scene = real.scene
        var clock = StageClock()
        let w = max(32, camera.width / 8)
        let h = max(1, Int((Double(w) * Double(camera.height) / Double(camera.width)).rounded()))
        let quick = RenderOptions(keepsComponents: false)
        let metering = Renderer(
            scene: scene, camera: real.camera.scaled(toWidth: w, height: h), flash: real.preFlash, options: quick)
        let plan = ConstantColorCapturePlan.meter(
            meteringRenderer: metering, seed: seed, maximumFlashTime: settings.maximumFlashTime,
            interval: settings.interval, maximumExposureTime: maximumExposureTime)
        clock.lap("metering")
        // The pair is read as DN only: no electrons plane, and the truth planes only where asked for or where the
        // ideal depth sensor reads the flash frame's.
        let sensorOnly = RenderOptions(
            keepsComponents: false, keepsElectrons: false, keepsTruth: keepsTruth || depthSensor == .ideal,
            halfFactors: settings.halfFactors)
        let exposures = real.exposures(plan, height: camera.height)
        let ambient: RawFrame, flashFrame: RawFrame
        let later = scene.advanced(by: plan.interval)
        let still = later == scene
        if still {
            // A static scene: both exposures in one pass over the shared geometry.
            let first = Renderer(scene: scene, camera: real.camera, flash: real.mainFlash, options: sensorOnly)
            clock.lap("geometry pass")
            let frames = first.render([exposures.ambient, exposures.flash])
            (ambient, flashFrame) = (frames[0], frames[1])
            clock.lap("render ambient + flash")
        } else {
            let first = Renderer(scene: scene, camera: real.camera, flash: real.mainFlash, options: sensorOnly)
            clock.lap("geometry pass")
            if let pair = first.render(exposures.ambient, exposures.flash, turnedTo: later) {
                // Only the hand turned the phone between the frames: the flash frame is the same geometry seen
                // along the turned rays.
                (ambient, flashFrame) = pair
                clock.lap("render ambient + turned flash")
            } else {
                // The scene itself moves: each frame's renderer, and the geometry it holds, ends with its frame,
                // so the two never occupy memory together.
                ambient = first.render(exposures.ambient)
                clock.lap("render ambient")
                let second = Renderer(scene: later, camera: real.camera, flash: real.mainFlash, options: sensorOnly)
                flashFrame = second.render(exposures.flash)
                clock.lap("render flash")
            }
        }
        // The device's depth sensor looks at the scene as the flash fires.
        let depthView =
            still ? metering : Renderer(scene: later, camera: metering.camera, flash: real.mainFlash, options: quick)
        let depth = depthSensor.measure(renderer: depthView, flashFrame: flashFrame, seed: seed)
        clock.lap("depth")
        let pair = ConstantColorCapture(
            ambient: SensorReadout(ambient), flash: SensorReadout(flashFrame), depth: depth)
        // The ordinary photo's white balance is the phone's own estimate from the ambient frame (`process`), as the
        // ordinary pipeline of `obscura render` chooses it; the scene's light is not the phone's to know.
        var result = process(pair, plan: plan, fallbackBalance: nil)
        result.diagnostics.ambientFrame = ambient
        result.diagnostics.flashFrame = flashFrame
        result.diagnostics.stageSeconds = clock.laps + result.diagnostics.stageSeconds
        return result
    }

}
