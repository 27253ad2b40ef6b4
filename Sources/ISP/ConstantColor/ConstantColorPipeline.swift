import Devices
import Foundation
import Imaging
import Scenes
import Sensor
import Spectra

/// Constant Color: a flash/no-flash pair turned into the colours the surfaces would have under D65,
/// whatever the room light (DESIGN.md, Pipelines; color-science spec §0).
///
/// Steps: pre-flash metering (`ConstantColorCapturePlan`); an ambient frame, then a flash frame
/// `interval` seconds later (the scene may move in between); registration of the ambient frame to
/// the flash frame (`FrameRegistration`); exposure normalisation to electrons per second, where
/// frames differing in time and gain become comparable; the flash-only estimate
/// f = flash − ambient; the map from camera RGB under the *calibrated* flash to XYZ under D65
/// (`ColorCorrectionMatrix(camera:illuminant:renderedUnder:)`); a global exposure, a global tone
/// curve and a 2.2 gamma into Display P3. Where confidence is low the ambient frame fills in, turned
/// into "flash-equivalent" camera RGB by the ambient/flash ratio measured on the confident pixels
/// (a von Kries step in camera space, Petschnigg et al. 2004 use the same ratio for white balance).
///
/// What is and is not recoverable: the flash's irradiance falls with the square of the distance
/// and the phone does not know the distance, so a surface's *absolute* lightness is not known; the
/// picture gets one global exposure (its centre-weighted mean luminance is set to mid-grey), and a
/// far surface stays darker than a near one of the same paint. Its *chromaticity*, the ratio of the
/// channels, does not depend on the distance and is what stays constant across ambient lights.
/// Shadows cast by the ambient light vanish (the flash sits next to the lens); in filled regions
/// they remain, because there the ambient frame is all there is.
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

        /// Settings; the defaults are our choices, documented on each property.
        public init(
            interval: Double = 0.05, maximumFlashTime: Double = 1.0 / 30, tileSize: Int = 8, registers: Bool = true,
            midGrey: Double = 0.18, toneCurve: ToneCurve = .shoulder(knee: 0.75, whiteInput: 2),
            developsFallback: Bool = true, fallbackWarmth: Double = 0.2
        ) {
            self.interval = interval
            self.maximumFlashTime = maximumFlashTime
            self.tileSize = tileSize
            self.registers = registers
            self.midGrey = midGrey
            self.toneCurve = toneCurve
            self.developsFallback = developsFallback
            self.fallbackWarmth = fallbackWarmth
        }
    }

    /// The camera (its size is the photo's).
    public let camera: CameraModel
    /// The flash as it really is: what the renderer fires.
    public let flash: FlashModel
    /// The flash as the phone believes it is.
    public let calibration: FlashCalibration
    /// Neutral-normalised camera RGB under the calibrated flash → XYZ under D65 (Y_white = 1).
    public let matrix: ColorCorrectionMatrix
    /// The camera's response to a white under the calibrated flash, green = 1.
    public let flashNeutral: SIMD3<Double>
    /// The settings.
    public let settings: Settings

    /// The pipeline for a camera, its real flash and the flash's calibration.
    public init(camera: CameraModel, flash: FlashModel, calibration: FlashCalibration, settings: Settings = Settings()) {
        self.camera = camera
        self.flash = flash
        self.calibration = calibration
        self.settings = settings
        matrix = ColorCorrectionMatrix(camera: camera, illuminant: calibration.spectrum, renderedUnder: Illuminants.d65)
        let n = CameraResponse.neutral(illuminant: calibration.spectrum, camera: camera)
        flashNeutral = n / n.y
    }

    /// The pipeline for a profile camera at `width × height`, with the profile's flash and its
    /// factory calibration.
    public init(
        device: DeviceProfile, camera: CameraProfile, width: Int, height: Int, settings: Settings = Settings()
    ) throws {
        let model: CameraModel
        do {
            model = try CameraModel(device: device, camera: camera, width: width, height: height)
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
        self.init(camera: model, flash: flash, calibration: calibration, settings: settings)
    }

    /// Photographs a scene: metering, both frames, processing.
    public func capture(scene: Scene, seed: UInt64 = 0) -> ConstantColorResult {
        let w = max(32, camera.width / 8)
        let h = max(1, Int((Double(w) * Double(camera.height) / Double(camera.width)).rounded()))
        let quick = RenderOptions(keepsComponents: false)
        let metering = Renderer(
            scene: scene, camera: camera.scaled(toWidth: w, height: h), flash: flash, options: quick)
        let plan = ConstantColorCapturePlan.meter(
            meteringRenderer: metering, seed: seed, maximumFlashTime: settings.maximumFlashTime,
            interval: settings.interval)
        let first = Renderer(scene: scene, camera: camera, flash: flash, options: quick)
        let ambient = first.render(plan.ambient)
        let later = scene.advanced(by: plan.interval)
        let second = later == scene ? first : Renderer(scene: later, camera: camera, flash: flash, options: quick)
        let flashFrame = second.render(plan.flash)
        return process(ambient: ambient, flash: flashFrame, plan: plan, scene: scene)
    }

    /// Processes a captured pair. `scene` only tells the fallback photo the room light (as the
    /// ordinary pipeline of `obscura render` is told); the Constant Color photo never uses it.
    public func process(ambient: RawFrame, flash flashFrame: RawFrame, plan: ConstantColorCapturePlan, scene: Scene?)
        -> ConstantColorResult
    {
        let width = camera.width, height = camera.height
        precondition(ambient.width == width && flashFrame.width == width, "frames must match the camera")
        let pixels = width * height
        let noise = camera.noise
        let (rateF, clipF) = ConstantColorPipeline.rates(flashFrame, noise: noise)
        var (rateA, clipA) = ConstantColorPipeline.rates(ambient, noise: noise)

        // Registration on green rates; then the ambient frame is resampled onto the flash frame.
        var shift = SIMD2<Double>(0, 0)
        if settings.registers {
            let greenF = (0..<pixels).map { rateF[3 * $0 + 1] }
            let greenA = (0..<pixels).map { rateA[3 * $0 + 1] }
            shift = FrameRegistration.translation(reference: greenF, moving: greenA, width: width, height: height)
            if shift.x.isFinite, shift.y.isFinite, abs(shift.x) < Double(width) / 4, abs(shift.y) < Double(height) / 4 {
                rateA = FrameRegistration.shifted(rateA, channels: 3, width: width, height: height, by: shift)
                clipA = FrameRegistration.shifted(clipA, channels: 1, width: width, height: height, by: shift)
            } else {
                shift = .zero
            }
        }

        // Flash-only estimate and its noise, in flash-frame electrons (green).
        let tF = plan.flash.time, tA = plan.ambient.time
        let ratio = Float(tF / tA)
        let read2 = Float(noise.readNoiseElectrons * noise.readNoiseElectrons)
        let quantF = Float(1 / (12 * pow(noise.gain(iso: plan.flash.iso), 2)))
        let quantA = Float(1 / (12 * pow(noise.gain(iso: plan.ambient.iso), 2)))
        var flashOnly = [Float](repeating: 0, count: 3 * pixels)
        var signal = [Float](repeating: 0, count: pixels)
        var variance = [Float](repeating: 0, count: pixels)
        var clipped = [Bool](repeating: false, count: pixels)
        var clippedCount = 0
        for p in 0..<pixels {
            for c in 0..<3 { flashOnly[3 * p + c] = rateF[3 * p + c] - rateA[3 * p + c] }
            let eF = rateF[3 * p + 1] * Float(tF)
            let eA = rateA[3 * p + 1] * Float(tA)
            signal[p] = flashOnly[3 * p + 1] * Float(tF)
            variance[p] = max(eF, 0) + read2 + quantF + ratio * ratio * (max(eA, 0) + read2 + quantA)
            clipped[p] = clipF[p] > 0 || clipA[p] > 0
            if clipped[p] { clippedCount += 1 }
        }
        let map = ConfidenceMap(
            signal: signal, variance: variance, clipped: clipped, width: width, height: height,
            tileSize: settings.tileSize)

        let (ambientToFlash, fromPair) = ConstantColorPipeline.ambientRatio(
            ambient: rateA, flashOnly: flashOnly, clipped: clipped, map: map, width: width, height: height,
            flashNeutral: flashNeutral)

        // Blend in camera space: w·f + (1 − w)·(ambient ⊘ ratio), w the interpolated confidence.
        var blended = [Float](repeating: 0, count: 3 * pixels)
        let inverse = SIMD3<Float>(1 / Float(ambientToFlash.x), 1 / Float(ambientToFlash.y), 1 / Float(ambientToFlash.z))
        for y in 0..<height {
            for x in 0..<width {
                let p = y * width + x
                let wgt = clipped[p] ? 0 : Float(map.value(x: Double(x) + 0.5, y: Double(y) + 0.5))
                for c in 0..<3 {
                    blended[3 * p + c] = wgt * flashOnly[3 * p + c] + (1 - wgt) * rateA[3 * p + c] * inverse[c]
                }
            }
        }

        // Camera RGB → XYZ (D65) → one global exposure → linear Display P3.
        let toP3 = RGBColorSpace.displayP3.fromXYZ * matrix.matrix * Matrix3.diagonal(1 / flashNeutral)
        let (meanY, brightest) = ConstantColorPipeline.exposureStatistics(
            blended, clipped: clipped, width: width, height: height,
            toXYZ: matrix.matrix * Matrix3.diagonal(1 / flashNeutral), toP3: toP3)
        var k = meanY > 0 ? settings.midGrey / meanY : 1
        if brightest > 0, case let .shoulder(knee, _) = settings.toneCurve { k = min(k, knee / brightest) }
        let encoder = DisplayEncoder(toneCurve: settings.toneCurve)
        let photo = encoder.encode(blended, matrix: toP3, scale: k, width: width, height: height)
        let pure = encoder.encode(flashOnly, matrix: toP3, scale: k, width: width, height: height)

        var fallback = PixelPlane<UInt8>(width: 1, height: 1, channels: 3)
        if settings.developsFallback {
            let balance: WhiteBalance
            if let light = scene?.ambient {
                balance = WhiteBalance(illuminant: light.spectrum, camera: camera)
            } else {
                balance = WhiteBalance.greyWorld(ambient, camera: camera)
            }
            fallback = BasicDevelop(
                camera: camera, whiteBalance: balance,
                settings: .init(
                    outputSpace: .displayP3, warmthRetention: settings.fallbackWarmth,
                    exposureScale: 0.18 / AutoExposure.midGreyFraction * plan.fallbackGain)
            ).develop(ambient, as: UInt8.self)
        }
        let diagnostics = ConstantColorResult.Diagnostics(
            plan: plan, registration: shift, ambientToFlash: ambientToFlash, ambientFromFlashPair: fromPair,
            exposureScale: k, clippedFraction: Double(clippedCount) / Double(pixels), ambientFrame: ambient,
            flashFrame: flashFrame)
        return ConstantColorResult(
            photo: photo, confidenceMap: map, fallback: fallback, flashOnly: pure, diagnostics: diagnostics)
    }

    /// Electrons per second per pixel and channel, (DN − black) / gain / time, and a clip mask
    /// (1 where any channel reached the white level).
    static func rates(_ frame: RawFrame, noise: NoiseParameters) -> ([Float], [Float]) {
        let scale = Float(1 / (noise.gain(iso: frame.exposure.iso) * frame.exposure.time))
        let black = Float(noise.blackLevel)
        let white = UInt16(min(noise.whiteLevel, 65535))
        var rates = [Float](repeating: 0, count: frame.dn.count)
        var clip = [Float](repeating: 0, count: frame.width * frame.height)
        frame.dn.withUnsafeBufferPointer { dn in
            for p in 0..<(frame.width * frame.height) {
                let r = dn[3 * p], g = dn[3 * p + 1], b = dn[3 * p + 2]
                rates[3 * p] = (Float(r) - black) * scale
                rates[3 * p + 1] = (Float(g) - black) * scale
                rates[3 * p + 2] = (Float(b) - black) * scale
                if max(r, g, b) >= white { clip[p] = 1 }
            }
        }
        return (rates, clip)
    }

    /// The ambient light relative to the flash, per camera channel: Σ ambient / Σ flash-only over
    /// unclipped pixels of tiles with confidence ≥ 0.5. With fewer than 1 % such pixels, grey-world
    /// on the ambient frame gives the colour (its mean taken as neutral), scaled so the ambient
    /// mean matches the flash-only mean in green.
    static func ambientRatio(
        ambient: [Float], flashOnly: [Float], clipped: [Bool], map: ConfidenceMap, width: Int, height: Int,
        flashNeutral: SIMD3<Double>
    ) -> (SIMD3<Double>, Bool) {
        var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0)
        var allA = SIMD3<Double>(0, 0, 0), allF = 0.0
        var count = 0
        let mw = map.plane.width
        for y in 0..<height {
            for x in 0..<width {
                let p = y * width + x
                guard !clipped[p] else { continue }
                let pa = SIMD3(Double(ambient[3 * p]), Double(ambient[3 * p + 1]), Double(ambient[3 * p + 2]))
                allA += pa
                allF += Double(flashOnly[3 * p + 1])
                guard map.values[(y / map.tileSize) * mw + x / map.tileSize] >= 0.5 else { continue }
                a += pa
                f += SIMD3(Double(flashOnly[3 * p]), Double(flashOnly[3 * p + 1]), Double(flashOnly[3 * p + 2]))
                count += 1
            }
        }
        if count * 100 >= width * height, f.x > 0, f.y > 0, f.z > 0, a.x > 0, a.y > 0, a.z > 0 {
            return (a / f, true)
        }
        guard allA.x > 0, allA.y > 0, allA.z > 0 else { return (SIMD3(1, 1, 1), false) }
        let neutral = allA / allA.y
        let level = allF > 0 ? allA.y / allF : 1
        return (neutral / flashNeutral * level, false)
    }

    /// The centre-weighted mean luminance (σ = 1/4 of the diagonal) and the 99.5th percentile of the
    /// largest Display P3 channel, over unclipped pixels, every 2nd pixel in each direction.
    ///
    /// The exposure puts the mean at mid-grey unless that would push the 99.5th percentile past the
    /// tone curve's knee: then the bright surfaces decide, so that saturated colours are not
    /// compressed channel by channel (which would shift their hue).
    static func exposureStatistics(
        _ rgb: [Float], clipped: [Bool], width: Int, height: Int, toXYZ m: Matrix3, toP3: Matrix3
    ) -> (Double, Double) {
        let row = SIMD3(m[1, 0], m[1, 1], m[1, 2])
        var peaks: [Double] = []
        let sigma = (Double(width * width + height * height)).squareRoot() / 4
        var sum = 0.0, weights = 0.0
        for y in stride(from: 0, to: height, by: 2) {
            let dy = Double(y) + 0.5 - Double(height) / 2
            for x in stride(from: 0, to: width, by: 2) {
                let p = y * width + x
                guard !clipped[p] else { continue }
                let dx = Double(x) + 0.5 - Double(width) / 2
                let weight = exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
                let v = SIMD3(Double(rgb[3 * p]), Double(rgb[3 * p + 1]), Double(rgb[3 * p + 2]))
                sum += weight * (row * v).sum()
                weights += weight
                peaks.append((toP3 * v).max())
            }
        }
        peaks.sort()
        let p99 = peaks.isEmpty ? 0 : peaks[min(peaks.count - 1, Int(Double(peaks.count) * 0.995))]
        return (weights > 0 ? sum / weights : 0, p99)
    }
}
