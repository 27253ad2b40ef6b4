import Devices
import Dispatch
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
/// f = flash − ambient; lens-shading correction of the blend (`LensShadingCorrection`; after the
/// confidence map, which must see the raw signal-to-noise ratio) and its division by the calibrated
/// flash's irradiance at each pixel (`FlashIrradiance`, from the depth the device measured); the map from
/// camera RGB under the *calibrated* flash to XYZ under D65 (`RootPolynomialCorrection` of degree 3,
/// fitted over `TrainingReflectances.constantColor`); a global exposure, a global tone curve and a
/// 2.2 gamma into Display P3. Where the flash-only estimate is mostly noise, or the
/// scene moved between the frames, the flash frame fills in, turned into "flash-equivalent" camera RGB
/// by the ambient/flash ratio measured on the surrounding usable pixels (a von Kries step in camera
/// space, Petschnigg et al. 2004 use the same ratio for white balance). A channel too noisy to stand
/// alone (a coloured light's shot noise) takes the surface's flash-only colour from the tiles around at
/// the level the pixel's channels measure (`FlashOnlyChroma`), and where that level is measured well the
/// estimate replaces the fill, whose ratio blurs the edges of the room light's spots. A channel the flash frame
/// clipped is estimated from the flash-only colour of the same surface nearby (`SurfaceColours`),
/// feathered in as the channel nears the white level; the ambient frame only where no such surface is
/// found.
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

        /// Settings; the defaults are our choices, documented on each property.
        public init(
            interval: Double = 0.05, maximumFlashTime: Double = 1.0 / 30, tileSize: Int = 8, registers: Bool = true,
            midGrey: Double = 0.18, toneCurve: ToneCurve = .shoulder(knee: 0.85, whiteInput: 2),
            developsFallback: Bool = true, fallbackWarmth: Double = PhotoPipeline.warmth,
            correctsIrradiance: Bool = true, rendersFlashFallOff: Bool = true
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
    public func capture(scene nominal: Scene, seed: UInt64 = 0) -> ConstantColorResult {
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
            interval: settings.interval)
        clock.lap("metering")
        // The pair is read as DN only: no electrons plane.
        let sensorOnly = RenderOptions(keepsComponents: false, keepsElectrons: false)
        let first = Renderer(scene: scene, camera: real.camera, flash: real.mainFlash, options: sensorOnly)
        let exposures = real.exposures(plan, height: camera.height)
        let ambient: RawFrame, flashFrame: RawFrame
        let later = scene.advanced(by: plan.interval)
        let still = later == scene
        if still {
            // A static scene: both exposures in one pass over the shared geometry.
            clock.lap("geometry pass")
            let frames = first.render([exposures.ambient, exposures.flash])
            (ambient, flashFrame) = (frames[0], frames[1])
            clock.lap("render ambient + flash")
        } else {
            ambient = first.render(exposures.ambient)
            clock.lap("render ambient")
            let second = Renderer(scene: later, camera: real.camera, flash: real.mainFlash, options: sensorOnly)
            flashFrame = second.render(exposures.flash)
            clock.lap("render flash")
        }
        // The device's depth sensor looks at the scene as the flash fires.
        let depthView =
            still ? metering : Renderer(scene: later, camera: metering.camera, flash: real.mainFlash, options: quick)
        let depth = depthSensor.measure(renderer: depthView, flashFrame: flashFrame, seed: seed)
        clock.lap("depth")
        let pair = ConstantColorCapture(
            ambient: SensorReadout(ambient), flash: SensorReadout(flashFrame), depth: depth)
        // The ordinary photo's white balance is chosen as the ordinary pipeline of `obscura render` chooses it.
        let balance = scene.ambient.map { WhiteBalance(illuminant: $0.spectrum, camera: camera) }
        var result = process(pair, plan: plan, fallbackBalance: balance)
        result.diagnostics.ambientFrame = ambient
        result.diagnostics.flashFrame = flashFrame
        result.diagnostics.stageSeconds = clock.laps + result.diagnostics.stageSeconds
        return result
    }

    /// Processes a captured pair from what the phone read out and measured (`ConstantColorCapture`): the frames'
    /// DN and exposures and the device's depth map, nothing of the render. `fallbackBalance` is the ordinary
    /// photo's white balance (grey world when nil); the Constant Color photo never uses it. The result's
    /// diagnostics hold the readouts as frames without ground truth.
    public func process(_ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, fallbackBalance: WhiteBalance?)
        -> ConstantColorResult
    {
        var clock = StageClock()
        let ambient = capture.ambient, flashFrame = capture.flash
        let depth = capture.depthPlane()
        let width = camera.width, height = camera.height
        precondition(
            ambient.width == width && flashFrame.width == width && ambient.height == height
                && flashFrame.height == height, "frames must match the camera")
        let pixels = width * height
        let noise = camera.noise

        // Registration on green rates averaged straight down to the finest pyramid level refined (no
        // full-resolution plane is needed); every pass then samples the ambient frame at x + d.
        var shift = SIMD2<Double>(0, 0)
        if settings.registers {
            let s = FrameRegistration.reduction(width: width, height: height)
            shift = FrameRegistration.translation(
                reducedReference: FramePair.greenBlocks(flashFrame, noise: noise, reduction: s),
                reducedMoving: FramePair.greenBlocks(ambient, noise: noise, reduction: s),
                width: width >> s, height: height >> s, reduction: s)
            if !(shift.x.isFinite && shift.y.isFinite && abs(shift.x) < Double(width) / 4
                && abs(shift.y) < Double(height) / 4)
            {
                shift = .zero
            }
        }
        clock.lap("registration")

        // Pass 1, the flash-only estimate f = flash − ambient and its noise in flash-frame electrons
        // (green), summed per confidence tile; the ambient and flash-only sums per tile give the
        // ambient ratio once the map says which tiles are confident.
        let tile = max(1, settings.tileSize)
        let mw = (width + tile - 1) / tile, mh = (height + tile - 1) / tile
        var sums = tileSums(flashFrame, ambient, shift: shift, plan: plan, tile: tile)
        // The flash only adds light, so where the frames are aligned f = flash − ambient is nowhere
        // impossibly negative. The registration sees the flash's shading and shadows, which the
        // ambient frame lacks, and on a still scene may settle pixels away from zero: then the
        // unshifted pair has fewer impossible pixels, and it is kept.
        if shift != .zero {
            let still = tileSums(flashFrame, ambient, shift: .zero, plan: plan, tile: tile)
            if Self.impossiblePixels(still) < Self.impossiblePixels(sums) {
                shift = .zero
                sums = still
            }
        }
        let map = ConfidenceMap(
            channelSums: sums, stride: Self.sumsPerTile, width: width, height: height, tileSize: tile,
            neutral: flashNeutral, flashTime: plan.flash.time)
        let (ambientToFlash, fromPair) = ConstantColorPipeline.ambientRatio(
            tileSums: sums, map: map, pixels: pixels, flashNeutral: flashNeutral)
        // The flash's irradiance at each pixel from the depth the device measured as the flash fired (along the
        // optical axis; the blend is in the flash frame's geometry), relative to the picture's centre.
        let irradianceMap =
            settings.correctsIrradiance ? irradiance.map(camera: camera, depth: depth, cell: tile) : nil
        let irradianceGains = irradianceMap.map(Self.IrradianceGains.init)
        var clippedCount = 0.0
        for t in 0..<(mw * mh) { clippedCount += sums[Self.sumsPerTile * t + 2] }
        clock.lap("flash-only, confidence map, ambient ratio")

        // Pass 2: the blend, the colour mapping to linear Display P3 and the exposure statistics.
        let toP3 = CorrectionKernel(
            correction: correction, neutral: flashNeutral, output: RGBColorSpace.displayP3.fromXYZ, scale: 1)
        let ratios = Self.localRatios(
            tileSums: sums, consistency: map.consistency, tile: tile, width: width, height: height,
            flashTime: plan.flash.time, global: ambientToFlash, gains: irradianceGains?.tiles)
        // Where the flash frame clipped, the surface's colour from the unclipped tiles around it.
        var surfaces: SurfaceColours?
        if clippedCount > 0 {
            let limits = ClipLimits(flash: flashFrame, ambient: ambient, noise: noise)
            let hot = SurfaceColours.sums(
                flashFrame, ambient, depth: depth, shift: shift, limits: limits, tile: tile, noise: noise)
            surfaces = SurfaceColours(
                sums: hot, tileSums: sums, map: map, limits: limits, flashTime: plan.flash.time, width: width,
                height: height)
        }
        // The flash's own shadows: the ambient irradiance relative to the flash's, from the lit pixels, and
        // where the depth map has something between a surface and the flash.
        let shadowLimits = ClipLimits(flash: flashFrame, ambient: ambient, noise: noise)
        let blocked: [UInt8]? =
            depth.count == pixels ? FlashOcclusion(camera: camera, irradiance: irradiance)?.mask(depth: depth) : nil
        let shadows = FlashShadow(
            sums: FlashShadow.sums(
                flashFrame, ambient, depth: depth, shift: shift, limits: shadowLimits, irradiance: irradianceGains,
                tile: tile, noise: noise, blocked: blocked),
            width: width, height: height, tile: tile)
        let (linear, meanY, brightest) = blendAndMap(
            flashFrame, ambient, depth: depth, shift: shift, map: map, tileSums: sums, ratios: ratios, kernel: toP3,
            irradiance: irradianceGains, surfaces: surfaces, shadows: shadows, blocked: blocked,
            chroma: FlashOnlyChroma(
                tileSums: sums, consistency: map.consistency, tile: tile, width: width, height: height,
                flashTime: plan.flash.time))
        var k = meanY > 0 ? settings.midGrey / meanY : 1
        if brightest > 0, case let .shoulder(knee, _) = settings.toneCurve { k = min(k, knee / brightest) }
        clock.lap("blend, colour mapping, exposure")

        // Pass 3: exposure, tone curve and gamma.
        let encoder = DisplayEncoder(toneCurve: settings.toneCurve)
        let photo = encoder.encode(linear: linear, scale: Float(k), width: width, height: height)
        clock.lap("encode")

        let kernel = CorrectionKernel(
            correction: correction, neutral: flashNeutral, output: RGBColorSpace.displayP3.fromXYZ, scale: k)
        let shading = LensShadingCorrection(camera: camera, completely: true)
        let makeFlashOnly: @Sendable () -> PixelPlane<UInt8> = { [shift] in
            let rgb = FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
                BandParallel.fill(count: 3 * pixels, rows: height, of: Float.self) { rows, out in
                    LensShadingCorrection.withRow(width: width) { gains in
                        for y in rows {
                            let row = pair.row(y)
                            shading.gains(row: y, into: gains)
                            for x in 0..<width {
                                let s = pair.sample(x, row)
                                let f = (s.flash - s.ambient) * gains[x]
                                for c in 0..<3 { out[3 * (y * width + x) + c] = f[c] }
                            }
                        }
                    }
                }
            }
            return encoder.encode(rgb, kernel: kernel, width: width, height: height)
        }

        var fallback = PixelPlane<UInt8>(width: 1, height: 1, channels: 3)
        let ambientRaw = RawFrame(readout: ambient), flashRaw = RawFrame(readout: flashFrame)
        if settings.developsFallback {
            let balance = fallbackBalance ?? WhiteBalance.greyWorld(ambientRaw, camera: camera)
            fallback = PhotoPipeline.develop(
                ambientRaw, camera: camera, whiteBalance: balance, outputSpace: .displayP3,
                warmth: settings.fallbackWarmth, gain: plan.fallbackGain)
            clock.lap("fallback")
        }
        let diagnostics = ConstantColorResult.Diagnostics(
            plan: plan, registration: shift, ambientToFlash: ambientToFlash, ambientFromFlashPair: fromPair,
            exposureScale: k, clippedFraction: clippedCount / Double(pixels), ambientFrame: ambientRaw,
            flashFrame: flashRaw, measuredDepth: capture.depth, stageSeconds: clock.laps)
        return ConstantColorResult(
            photo: photo, confidenceMap: surfaces?.raise(map, tileSums: sums) ?? map, fallback: fallback,
            makeFlashOnly: makeFlashOnly, diagnostics: diagnostics)
    }

    /// How much wider than at 640 pixels a neighbourhood reaches at `width` pixels (at least 1): what the
    /// neighbourhoods measured in pixels or tiles must cover (a flash shadow, a clipped highlight) grows with
    /// the focal length in pixels, that is with the picture's width, while the tiles stay 8 pixels.
    static func neighbourhoodScale(width: Int) -> Double { max(1, Double(width) / 640) }

    /// The impossibly negative pixels counted in tile sums.
    static func impossiblePixels(_ sums: [Double]) -> Double {
        stride(from: 12, to: sums.count, by: sumsPerTile).reduce(0) { $0 + sums[$1] }
    }

    /// Values per tile in `tileSums`: Σ green signal and Σ green variance over unclipped pixels, clipped
    /// pixels, pixels (the `ConfidenceMap` layout), then Σ ambient RGB and Σ flash-only RGB (rates) and
    /// Σ red and blue variance, and the count of impossibly negative pixels, over unclipped pixels, and
    /// one spare value (the vector path adds pairs).
    static let sumsPerTile = 14

    /// Pass 1 over the pair: per confidence tile, the sums of `sumsPerTile`. Bands of whole tile rows
    /// own their tiles, and each tile is summed in pixel order, so the sums never depend on the
    /// number of cores.
    ///
    /// The flash-only signal of a channel is f·t_f; its variance var = S_f + r²(S_a + σ_r² + q_a) + σ_r² + q_f
    /// in flash-frame electrons (shot noise of both frames, read noise, and the ADC's quantisation
    /// step² / 12), r = t_f / t_a scaling the ambient frame's noise to the flash frame's time. Every
    /// channel's variance is summed: an ambient light strong in one channel buries that channel only.
    func tileSums(_ flashFrame: SensorReadout, _ ambient: SensorReadout, shift: SIMD2<Double>, plan: ConstantColorCapturePlan,
        tile: Int) -> [Double]
    {
        let noise = camera.noise
        let width = camera.width, height = camera.height
        let mw = (width + tile - 1) / tile, mh = (height + tile - 1) / tile
        let tF = plan.flash.time, tA = plan.ambient.time
        let ratio = Float(tF / tA)
        let read2 = Float(noise.readNoiseElectrons * noise.readNoiseElectrons)
        // The pixel is the mean of n photosites (its format's readout): shot variance S / n.
        let shotScale = Float(1 / noise.photositesPerPixel)
        let quantF = Float(1 / (12 * pow(noise.gain(iso: plan.flash.iso), 2)))
        let quantA = Float(1 / (12 * pow(noise.gain(iso: plan.ambient.iso), 2)))
        let timeF = Float(tF), timeA = Float(tA)
        let stride = Self.sumsPerTile
        #if arch(x86_64) && !OBSCURA_PORTABLE
        let terms = TileNoiseTerms(
            times: SIMD4(timeF, timeA, 0, 0), shotScale: shotScale, read2: read2, quantisation: SIMD4(quantF, quantA, 0, 0),
            ratio2: ratio * ratio)
        #endif
        var sums = [Double](repeating: 0, count: stride * mw * mh)
        FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
            sums.withUnsafeMutableBufferPointer { buffer in
                let out = SharedPointer(buffer)
                BandParallel.forEachBand(height: mh) { tileRows in
                    let rows = FramePair.Rows(pair, keepsLowestAmbient: true)
                    let fl = rows.flash, am = rows.ambient, clip = rows.clipped
                    guard let low = rows.lowestAmbient else { preconditionFailure("rows keep the lowest ambient") }
                    for y in (tileRows.lowerBound * tile)..<min(height, tileRows.upperBound * tile) {
                        rows.load(y)
                        #if arch(x86_64) && !OBSCURA_PORTABLE
                        Self.addRowSums(
                            width: width, tile: tile, flash: fl, ambient: am, lowestAmbient: low, clipped: clip,
                            terms: terms, to: out.base + stride * ((y / tile) * mw))
                        #else
                        for tx in 0..<mw {
                            let x0 = tx * tile, x1 = min(width, tx * tile + tile)
                            let t = out.base + stride * ((y / tile) * mw + tx)
                            // This row's part of the tile, summed apart and then added to the tile.
                            var signal = 0.0, variance = 0.0, clipped = 0.0, count = 0.0
                            var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0)
                            var varianceR = 0.0, varianceB = 0.0, negative = 0.0
                            for x in x0..<x1 {
                                count += 1
                                if clip[x] {
                                    clipped += 1
                                    continue
                                }
                                let p = 3 &* x
                                let fr = fl[p], fg = fl[p &+ 1], fb = fl[p &+ 2]
                                let ar = am[p], ag = am[p &+ 1], ab = am[p &+ 2]
                                // Each channel's variance, the same operations in the same order as the
                                // vector path's lanes.
                                @inline(__always) func channelVariance(_ rf: Float, _ ra: Float) -> Float {
                                    let fromAmbient = ratio * ratio * (max(ra * timeA, 0) * shotScale + read2 + quantA)
                                    return max(rf * timeF, 0) * shotScale + read2 + quantF + fromAmbient
                                }
                                let vr = channelVariance(fr, ar), vg = channelVariance(fg, ag)
                                let vb = channelVariance(fb, ab)
                                signal += Double((fg - ag) * timeF)
                                variance += Double(vg)
                                varianceR += Double(vr)
                                varianceB += Double(vb)
                                // Impossibly negative (see `ConfidenceMap.consistency`): below −4σ against the
                                // lowest ambient pixel within reach of x + d (`FramePair.Rows.lowestAmbient`).
                                @inline(__always) func below(_ rf: Float, _ ra: Float, _ v: Float) -> Bool {
                                    let e = (rf - ra) * timeF
                                    return e < 0 && e * e > 16 * v
                                }
                                if below(fr, low[p], vr) || below(fg, low[p &+ 1], vg) || below(fb, low[p &+ 2], vb) {
                                    negative += 1
                                }
                                a += SIMD3(Double(ar), Double(ag), Double(ab))
                                f += SIMD3(Double(fr - ar), Double(fg - ag), Double(fb - ab))
                            }
                            t[0] += signal
                            t[1] += variance
                            t[2] += clipped
                            t[3] += count
                            for c in 0..<3 {
                                t[4 + c] += a[c]
                                t[7 + c] += f[c]
                            }
                            t[10] += varianceR
                            t[11] += varianceB
                            t[12] += negative
                        }
                        #endif
                    }
                }
            }
        }
        return sums
    }

    /// The ambient light relative to the flash, per camera channel: Σ ambient / Σ flash-only over
    /// unclipped pixels of tiles with confidence ≥ 0.5. With fewer than 1 % such pixels, grey-world
    /// on the ambient frame gives the colour (its mean taken as neutral), scaled so the ambient
    /// mean matches the flash-only mean in green.
    static func ambientRatio(tileSums sums: [Double], map: ConfidenceMap, pixels: Int, flashNeutral: SIMD3<Double>)
        -> (SIMD3<Double>, Bool)
    {
        var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0), allA = SIMD3<Double>(0, 0, 0)
        var allF = 0.0, count = 0.0
        for t in 0..<map.values.count {
            let b = sumsPerTile * t
            let tileA = SIMD3(sums[b + 4], sums[b + 5], sums[b + 6])
            allA += tileA
            allF += sums[b + 8]
            guard map.values[t] >= 0.5 else { continue }
            a += tileA
            f += SIMD3(sums[b + 7], sums[b + 8], sums[b + 9])
            count += sums[b + 3] - sums[b + 2]
        }
        if count * 100 >= Double(pixels), f.x > 0, f.y > 0, f.z > 0, a.x > 0, a.y > 0, a.z > 0 {
            return (a / f, true)
        }
        guard allA.x > 0, allA.y > 0, allA.z > 0 else { return (SIMD3(1, 1, 1), false) }
        let neutral = allA / allA.y
        let level = allF > 0 ? allA.y / allF : 1
        return (neutral / flashNeutral * level, false)
    }

    /// The ambient light relative to the flash tile by tile, per camera channel: the fill's exposure.
    ///
    /// A tile whose frames agree and which is at least half unclipped is a candidate. Its ratio is
    /// Σ ambient / Σ flash-only over it and its candidate neighbours (3 × 3 tiles, so noise averages
    /// out), kept when that flash-only sum stands 5σ above zero in every channel (σ from the summed
    /// variances in flash-frame electrons). The other tiles take the mean of their measured or already
    /// filled 4-neighbours, ring by ring outwards (`TileFill`), so a clipped highlight gets the ratio of the
    /// surface around it, not that of the whole picture; what no ring reaches keeps `global`. The ratio
    /// changes with distance (the flash falls off with its square) and with the ambient's shadows and
    /// coloured spots, so a single global ratio would fill a shaded, clipped patch too dark.
    ///
    /// With `gains` (the irradiance gain of each tile, `IrradianceGains.tiles`), lane w of each result
    /// is the gain of the tiles its ratio comes from, weighted by their green flash-only sums (the
    /// ratio's own weights), and filled alongside the ratio: the fill F ⊘ (1 + ρ) is at the flash level
    /// where ρ was measured, so it takes that place's gain, not its own pixel's (a far wall filled with
    /// the ratio of a near object must not be raised by the square of its distance, nor a wall tile
    /// whose ratio is mostly the flower in front of it). Without gains, and where no ring reaches, 1.
    static func localRatios(
        tileSums sums: [Double], consistency: [Double], tile: Int, width: Int, height: Int, flashTime: Double,
        global: SIMD3<Double>, gains: [Double]? = nil
    ) -> [SIMD4<Double>] {
        let mw = (width + tile - 1) / tile, mh = (height + tile - 1) / tile
        var candidate = [Bool](repeating: false, count: mw * mh)
        for t in 0..<(mw * mh) {
            let b = sumsPerTile * t
            let unclipped = sums[b + 3] - sums[b + 2]
            candidate[t] = consistency[t] >= 0.9 && unclipped > 0 && 2 * unclipped >= sums[b + 3]
        }
        var ratio = [SIMD4<Double>](repeating: SIMD4(global, 1), count: mw * mh)
        var known = [Bool](repeating: false, count: mw * mh)
        for ty in 0..<mh {
            for tx in 0..<mw where candidate[ty * mw + tx] {
                var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0), v = SIMD3<Double>(0, 0, 0)
                var litGreen = 0.0
                for ny in max(0, ty - 1)...min(mh - 1, ty + 1) {
                    for nx in max(0, tx - 1)...min(mw - 1, tx + 1) where candidate[ny * mw + nx] {
                        let b = sumsPerTile * (ny * mw + nx)
                        a += SIMD3(sums[b + 4], sums[b + 5], sums[b + 6])
                        f += SIMD3(sums[b + 7], sums[b + 8], sums[b + 9])
                        v += SIMD3(sums[b + 10], sums[b + 1], sums[b + 11])
                        litGreen += sums[b + 8] * (gains?[ny * mw + nx] ?? 1)
                    }
                }
                let electrons = f * flashTime
                let significant = (0..<3).allSatisfy { electrons[$0] > 5 * v[$0].squareRoot() && a[$0] > 0 }
                guard significant else { continue }
                ratio[ty * mw + tx] = SIMD4(a / f, litGreen / f.y)
                known[ty * mw + tx] = true
            }
        }
        TileFill.fillInward(&ratio, known: &known, width: mw, height: mh)
        return ratio
    }

    /// Pass 2 over the pair: the blend w·f + (1 − w)·fill in camera space, w the flash weight
    /// (`ConfidenceMap.flashWeight` times the frames' consistency) interpolated between tile centres
    /// (0 where clipped). The fill is the flash frame itself, F ⊘ (1 + ρ), ρ the local ambient/flash
    /// ratio (`localRatios`) interpolated the same way: it sits where the flash frame does, so motion
    /// between the frames leaves no ghost, and it has the flash-only picture's exposure. Where the
    /// flash frame clipped, the clipped channel comes from the surface's colour (`surfaces`,
    /// `ClipLimits.feathered`), or without one from the ambient frame (`clippedFill`). Elsewhere the measured
    /// value is `FlashOnlyChroma`'s estimate, which also replaces the fill where its level stands out of the
    /// noise (from 3σ, fully at 6σ) and the frames agree. In the flash's own shadow,
    /// where the frames agree, the result leans to the ambient frame's estimate (`shadows`, `FlashShadow`).
    /// Mapped by `kernel` to linear
    /// Display P3 (before the exposure); with the centre-weighted mean luminance (σ = 1/4 of the
    /// diagonal, unclipped pixels) and the brightest surface: the largest Display P3 channel of any
    /// confident (≥ 0.5), unclipped tile's mean colour.
    ///
    /// The exposure puts the mean at mid-grey unless that would push the brightest surface past the
    /// tone curve's knee: then that surface decides, so that no diffuse colour is compressed channel
    /// by channel (which would shift its hue and lightness). Tile means, not pixels, so noise does not
    /// set the exposure; specular highlights clip and so never count. The kernel runs once per pixel:
    /// its output serves both the statistics and, scaled, the encoding.
    func blendAndMap(
        _ flashFrame: SensorReadout, _ ambient: SensorReadout, depth: [Float], shift: SIMD2<Double>, map: ConfidenceMap,
        tileSums sums: [Double],
        ratios: [SIMD4<Double>], kernel: CorrectionKernel, irradiance: IrradianceGains? = nil,
        surfaces: SurfaceColours? = nil, shadows: FlashShadow? = nil, blocked: [UInt8]? = nil,
        chroma: FlashOnlyChroma? = nil
    ) -> (linear: [Float], meanY: Double, brightest: Double) {
        let width = camera.width, height = camera.height
        let tile = map.tileSize, mw = map.plane.width, mh = map.plane.height
        let limits = ClipLimits(flash: flashFrame, ambient: ambient, noise: camera.noise)
        // A ratio is positive; the floor keeps a degenerate grey-world estimate from dividing by zero. Lane 3
        // carries the fill's irradiance gain (positive, so its division by 1 + gain stays finite).
        let tileRatios = ratios.map {
            SIMD4<Float>(Float(max($0.x, 1e-3)), Float(max($0.y, 1e-3)), Float(max($0.z, 1e-3)), Float($0.w))
        }
        // `map.value` at pixel centres, with its column terms (which depend on x alone) computed once
        // per column and its row terms once per row.
        let tileSize = Double(tile)
        let columns = (0..<width).map { x -> (x0: Int, x1: Int, a: Double) in
            let u = min(max((Double(x) + 0.5) / tileSize - 0.5, 0), Double(mw - 1))
            let x0 = Int(u)
            return (x0, min(x0 + 1, mw - 1), u - Double(x0))
        }
        // The Gaussian is separable, exp(−(dx² + dy²)/2σ²) = g(dx)·g(dy): one exp per column and
        // one per row instead of one per pixel.
        let sigma = (Double(width * width + height * height)).squareRoot() / 4
        let columnWeights = (0..<width).map { x in
            let dx = Double(x) + 0.5 - Double(width) / 2
            return exp(-dx * dx / (2 * sigma * sigma))
        }
        // Luminance of linear Display P3 (its Y row, CIE 15 Y with Y_white = 1).
        let p3Y = RGBColorSpace.displayP3.toXYZ
        let yRow = SIMD3<Float>(Float(p3Y[1, 0]), Float(p3Y[1, 1]), Float(p3Y[1, 2]))
        var tileRGB = [Double](repeating: 0, count: 3 * mw * mh)
        var linear: [Float] = BandParallel.uninitialized(3 * width * height)
        let values = map.values
        let weights = zip(map.snr, map.consistency).map { ConfidenceMap.flashWeight(snr: $0) * $1 }
        let consistency = map.consistency.map { Float($0) }
        let shading = LensShadingCorrection(camera: camera, completely: true)
        // The flash frame's depth, for the lit pixels of a flash shadow's own surface (`FlashShadow`); `blocked`
        // says whether anything stands between a surface and the flash (`FlashOcclusion`).
        let fallOff = settings.rendersFlashFallOff
        let partial = FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: camera.noise) { pair in
            withReadPointers(kernel.lanes, weights, columns, columnWeights) { m, vals, cols, gx in
                withPointers(&linear, &tileRGB) { out, rgbSums in
                    // Bands are whole tile rows, so each band owns its tiles' sums.
                    return BandParallel.bands(mh, initial: SIMD2<Double>(0, 0)) { tileRows in
                        let rows = FramePair.Rows(pair)
                        let fl = rows.flash, am = rows.ambient, clip = rows.clipped
                        // The flash weights interpolated to this row, at every tile column.
                        let between = UnsafeMutablePointer<Double>.allocate(capacity: mw)
                        // The local ratio interpolated to this row, at every tile column.
                        let ratioRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: mw)
                        // The frames' consistency interpolated to this row, at every tile column.
                        let agreeRow = UnsafeMutablePointer<Float>.allocate(capacity: mw)
                        // κ of the flash's shadows (`FlashShadow`) interpolated to this row, at every tile column.
                        let kappaRow = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: mw)
                        // The row's lens-shading gains (`LensShadingCorrection`), 1 without shading.
                        let gains = UnsafeMutablePointer<Float>.allocate(capacity: width)
                        // The row's flash-irradiance gains (`IrradianceGains`), 1 without a map.
                        let lit = UnsafeMutablePointer<Float>.allocate(capacity: width)
                        let irradianceRows = irradiance.map { FlashIrradiance.Map.Rows($0.map) }
                        lit.initialize(repeating: 1, count: width)
                        // The row's blend, four lanes per pixel (r, g, b and an unused lane), and its mapped
                        // colour, one plane per channel (structure of arrays, so the kernel stores four pixels
                        // at once), padded to a multiple of four with copies of the last pixel.
                        let padded = (width + 3) / 4 * 4
                        let soa = UnsafeMutablePointer<Float>.allocate(capacity: 7 * padded)
                        defer {
                            between.deallocate()
                            ratioRow.deallocate()
                            agreeRow.deallocate()
                            kappaRow.deallocate()
                            gains.deallocate()
                            lit.deallocate()
                            soa.deallocate()
                        }
                        var acc = SIMD2<Double>(0, 0)
                        for y in (tileRows.lowerBound * tile)..<min(height, tileRows.upperBound * tile) {
                            rows.load(y)
                            let v = min(max((Double(y) + 0.5) / tileSize - 0.5, 0), Double(mh - 1))
                            let y0 = Int(v)
                            let row0 = y0 * mw, row1 = min(y0 + 1, mh - 1) * mw
                            let b = v - Double(y0)
                            let dy = Double(y) + 0.5 - Double(height) / 2
                            let gy = exp(-dy * dy / (2 * sigma * sigma))
                            for tx in 0..<mw {
                                between[tx] = vals.base[row0 + tx] * (1 - b) + vals.base[row1 + tx] * b
                                ratioRow[tx] = tileRatios[row0 + tx] * Float(1 - b) + tileRatios[row1 + tx] * Float(b)
                                agreeRow[tx] = consistency[row0 + tx] * Float(1 - b) + consistency[row1 + tx] * Float(b)
                            }
                            shadows?.row(y, into: kappaRow)
                            let chromaRow = chroma?.row(y) ?? (0, 0, 0)
                            shading.gains(row: y, into: gains)
                            if let irradiance, let irradianceRows {
                                irradiance.row(y, rows: irradianceRows, into: lit)
                            }
                            let tileRow = 3 * (y / tile) * mw
                            var rowSum = SIMD2<Double>(0, 0)
                            // Four lanes per pixel, one per channel; the rows' buffers have a value to spare
                            // for the fourth lane.
                            let blend = UnsafeMutableRawPointer(soa)
                            for x in 0..<padded {
                                let i = x < width ? x : width &- 1
                                let col = cols.base[i]
                                let clipped = clip[i]
                                let w = clipped ? 0 : Float(between[col.x0] * (1 - col.a) + between[col.x1] * col.a)
                                let a = Float(col.a)
                                let rho = ratioRow[col.x0] * (1 - a) + ratioRow[col.x1] * a
                                let f4 = UnsafeRawPointer(fl + 3 &* i).loadUnaligned(as: SIMD4<Float>.self)
                                let a4 = UnsafeRawPointer(am + 3 &* i).loadUnaligned(as: SIMD4<Float>.self)
                                var measured = f4 - a4
                                var fill = clipped
                                    ? Self.clippedFill(flash: f4, ambient: a4, ratio: rho, limits: limits)
                                    : f4 / (1 + rho)
                                // A channel near or at the white level: its flash-only value feathered into
                                // the estimate from the surface's colour (`SurfaceColours`), so there is no
                                // seam where the clipping begins.
                                // The fill (where the flash-only estimate is mostly noise) goes the same way,
                                // from F ⊘ (1 + ρ) to the estimate, by the largest channel's ramp.
                                var ramp: Float = 0
                                if let surfaces, max(f4[0], f4[1], f4[2]) >= limits.featherStart,
                                    let (estimate, s) = limits.feathered(
                                        flash: f4, ambient: a4, colour: surfaces.colour(x: i, y: y))
                                {
                                    if clipped { fill = estimate } else { measured = estimate }
                                    ramp = s
                                }
                                // A flash-only value impossibly negative (below −3σ in a channel) is an
                                // ambient sample that does not belong to this pixel: the registration's
                                // interpolation across a depth edge, or motion. The fill has no such sample.
                                let impossible = limits.isImpossible(flash: f4, ambient: a4)
                                var used = impossible ? 0 : w
                                let agree = agreeRow[col.x0] * (1 - a) + agreeRow[col.x1] * a
                                // A channel too noisy to stand alone (a red spot's shot noise) takes its
                                // surface's flash-only colour at the pixel's level (`FlashOnlyChroma`); where
                                // that level is measured well and the frames agree, the estimate replaces the
                                // fill, whose ratio ρ blurs the edges of the room light's spots and shadows.
                                if let chroma, !clipped, !impossible, ramp == 0,
                                    let (estimate, snr) = chroma.estimate(
                                        measured, variance: limits.flashOnlyVariance(flash: f4, ambient: a4), x: i,
                                        row: chromaRow)
                                {
                                    measured = estimate
                                    if agree > 0.9 { used = max(used, min(max((snr - 3) / 3, 0), 1)) }
                                }
                                // The flash-only value at this pixel's irradiance; the fill at that of the
                                // tiles its ratio comes from, or the pixel's own where it is clipped (the
                                // clipped fill is brought to the pixel's own flash-only level).
                                let own = lit[i]
                                let fillGain = clipped ? own : rho[3]
                                let filled = clipped || ramp == 0
                                    ? fill * fillGain : (1 - ramp) * fill * fillGain + ramp * measured * own
                                var value = used * measured * own + (1 - used) * filled
                                // In the flash's own shadow, the surface's flash-only value from the ambient
                                // frame (`FlashShadow`), where the frames agree, so that motion leaves no ghost.
                                // A pixel the depth map hides from the flash, whose flash-only value is noise
                                // around zero, may fall below −3σ by chance: it is no misregistered sample.
                                let hidden = blocked.map { $0[y &* width &+ i] > 0 } ?? false
                                if let shadows, !clipped, !impossible || hidden, ramp == 0, agree > 0.9 {
                                    let k = kappaRow[col.x0] * (1 - a) + kappaRow[col.x1] * a
                                    let (share, estimate) = FlashShadow.estimate(
                                        kappa: k, flash: f4, ambient: a4, own: own, limits: limits)
                                    // A pixel the flash measurably lit counts only where the depth map has an
                                    // occluder between its surface and the flash (`FlashOcclusion`): a side the
                                    // flash grazes under a strong coloured light looks shadowed too. Where the
                                    // depth map shows what blocks the flash, the pixel's own flash-only value
                                    // against its surface's says how deep in the shadow it lies, even where the
                                    // ambient frame is too dark to tell (the table in a leaf's shadow of both
                                    // lights).
                                    var shadowed = share
                                    var surface = estimate
                                    if blocked != nil, !hidden, limits.isLit(flash: f4, ambient: a4) {
                                        shadowed = 0
                                    }
                                    if shadowed > 0 || hidden, depth.count == width * height {
                                        depth.withUnsafeBufferPointer { z in
                                            guard let base = z.baseAddress else { return }
                                            surface = shadows.surfaceEstimate(
                                                estimate, at: i, width: width, flash: fl, ambient: am,
                                                clipped: clip, gains: lit, depth: base, blocked: blocked,
                                                y: y, height: height, limits: limits)
                                        }
                                        // Hidden from the flash: the shadow's depth is its measured share of
                                        // what its surface would have, all of it from half down (however faint
                                        // the ambient frame's evidence, or noise lifting one pixel).
                                        if hidden {
                                            let expected = surface[0] + surface[1] + surface[2]
                                            let m = (f4 - a4) * own
                                            let v = expected > 0 ? (m[0] + m[1] + m[2]) / expected : 0
                                            shadowed = max(shadowed, min(max((1 - v) / 0.5, 0), 1))
                                        }
                                    }
                                    if shadowed > 0 { value = (1 - shadowed) * value + shadowed * surface }
                                }
                                // Apple's model: the flash's irradiance put back (E / E_c = 1 / own), so the photo
                                // is the flash-lit picture; the estimates above were made at the centre's irradiance.
                                let shown = fallOff ? gains[i] / own : gains[i]
                                blend.storeBytes(of: value * shown, toByteOffset: 16 &* x, as: SIMD4<Float>.self)
                            }
                            let mr = soa + 4 * padded, mg = soa + 5 * padded, mb = soa + 6 * padded
                            for x in stride(from: 0, to: padded, by: 4) {
                                let (r, g, bl) = Self.channels(UnsafeRawPointer(blend + 16 &* x))
                                let (cr, cg, cb) = CorrectionKernel.apply4(m.base, r, g, bl)
                                UnsafeMutableRawPointer(mr + x).storeBytes(of: cr, as: SIMD4<Float>.self)
                                UnsafeMutableRawPointer(mg + x).storeBytes(of: cg, as: SIMD4<Float>.self)
                                UnsafeMutableRawPointer(mb + x).storeBytes(of: cb, as: SIMD4<Float>.self)
                            }
                            let o = out.base + 3 * y * width
                            let sr = soa, sg = soa + 1, sb = soa + 2
                            // Tile by tile, its sums held in locals: the same additions in the same
                            // order as adding each pixel to the stored sum.
                            for tx in 0..<mw {
                                let t = rgbSums.base + tileRow + 3 * tx
                                var s0 = t[0], s1 = t[1], s2 = t[2]
                                for x in (tx &* tile)..<min(width, tx &* tile &+ tile) {
                                    let cr = mr[x], cg = mg[x], cb = mb[x]
                                    let p = o + 3 &* x
                                    p[0] = cr
                                    p[1] = cg
                                    p[2] = cb
                                    guard !clip[x] else { continue }
                                    s0 += Double(sr[4 &* x])
                                    s1 += Double(sg[4 &* x])
                                    s2 += Double(sb[4 &* x])
                                    let weight = gx.base[x]
                                    rowSum += SIMD2(weight * Double(yRow.x * cr + yRow.y * cg + yRow.z * cb), weight)
                                }
                                t[0] = s0
                                t[1] = s1
                                t[2] = s2
                            }
                            acc += gy * rowSum
                        }
                        return acc
                    }
                }
            }
        }
        var total = SIMD2<Double>(0, 0)
        for p in partial { total += p }
        var brightest = 0.0
        kernel.m.withUnsafeBufferPointer { mp in
            guard let m = mp.baseAddress else { return }
            for t in 0..<(mw * mh) where sums[Self.sumsPerTile * t + 2] == 0 && values[t] >= 0.5 {
                let n = Float(min(tile, width - (t % mw) * tile) * min(tile, height - (t / mw) * tile))
                let c = CorrectionKernel.apply(
                    m, Float(tileRGB[3 * t]) / n, Float(tileRGB[3 * t + 1]) / n, Float(tileRGB[3 * t + 2]) / n)
                brightest = max(brightest, Double(c.max()))
            }
        }
        return (linear, total.y > 0 ? total.x / total.y : 0, brightest)
    }
}

/// What `ConstantColorPipeline.clippedFill` needs to know of the frames' levels, in electron rates.
struct ClipLimits {
    /// A flash-frame channel below this rate did not clip (95 % of the white level).
    let flashWhite: Float
    /// The flash frame's white level as a rate.
    let flashClip: Float
    /// An ambient channel below this rate (50 e⁻ in the frame, shot noise 14 %) is too dark to set a ratio.
    let ambientFloor: Float
    /// From this flash-frame rate on (85 % of the white level, our choice) a channel's flash-only value is
    /// feathered into the estimate from its surface's colour, all of it at `flashWhite`.
    let featherStart: Float

    /// Exposure times of the flash and the ambient frame, s, in every lane.
    let timeF: SIMD4<Float>, timeA: SIMD4<Float>
    /// Read noise² plus quantisation step² / 12 of each frame, and (t_f / t_a)², in every lane.
    let floorF: SIMD4<Float>, floorA: SIMD4<Float>, ratio2: SIMD4<Float>
    /// 1/n, for a pixel that is the mean of n photosites (shot variance S / n), in every lane.
    let shotScale: SIMD4<Float>

    init(flash: SensorReadout, ambient: SensorReadout, noise: NoiseParameters) {
        let span = noise.whiteLevel - noise.blackLevel
        flashClip = Float(span / (noise.gain(iso: flash.exposure.iso) * flash.exposure.time))
        flashWhite = 0.95 * flashClip
        featherStart = 0.85 * flashClip
        ambientFloor = Float(50 / ambient.exposure.time)
        timeF = SIMD4(repeating: Float(flash.exposure.time))
        timeA = SIMD4(repeating: Float(ambient.exposure.time))
        let read2 = noise.readNoiseElectrons * noise.readNoiseElectrons
        floorF = SIMD4(repeating: Float(read2 + 1 / (12 * pow(noise.gain(iso: flash.exposure.iso), 2))))
        floorA = SIMD4(repeating: Float(read2 + 1 / (12 * pow(noise.gain(iso: ambient.exposure.iso), 2))))
        ratio2 = SIMD4(repeating: Float(pow(flash.exposure.time / ambient.exposure.time, 2)))
        shotScale = SIMD4(repeating: Float(1 / noise.photositesPerPixel))
    }

    /// The flash-only value of a pixel whose flash channels reach `featherStart`, from its surface's flash-only
    /// colour `colour` (`SurfaceColours`; trust in lane 3): each channel below `featherStart` as measured, and
    /// each channel c at or above it blended from the measured f_c − a_c into colour_c × (the measured channels'
    /// sum ⊘ their colours' sum), linearly from `featherStart` to `flashWhite`, where the estimate is all there
    /// is; there it is held between the white level and twice it, less the ambient (`clippedFill`'s bounds).
    /// Nil without a colour or without a channel below `featherStart`; with the value, the largest channel's
    /// blend weight (0 at `featherStart`, 1 from `flashWhite` on).
    @inline(__always)
    func feathered(flash f: SIMD4<Float>, ambient a: SIMD4<Float>, colour k: SIMD4<Float>)
        -> (SIMD4<Float>, Float)?
    {
        guard k[3] > 0 else { return nil }
        var level: Float = 0, share: Float = 0
        for c in 0..<3 where f[c] < featherStart {
            level += f[c] - a[c]
            share += k[c]
        }
        guard share > 0 else { return nil }
        let scale = max(level, 0) / share
        var out = f - a, largest: Float = 0
        for c in 0..<3 where f[c] >= featherStart {
            var estimate = k[c] * scale
            if f[c] >= flashWhite { estimate = min(max(estimate, flashClip - a[c]), 2 * flashClip - a[c]) }
            let s = min((f[c] - featherStart) / (flashWhite - featherStart), 1)
            out[c] = (1 - s) * (f[c] - a[c]) + s * estimate
            largest = max(largest, s)
        }
        return (out, largest)
    }

    /// The variance of the flash-only rates f − a of a pixel (rates `flash` and `ambient`, e⁻/s), in (e⁻/s)²:
    /// the shot noise of both frames, their read noise and quantisation (`ConstantColorPipeline.tileSums`).
    @inline(__always)
    func flashOnlyVariance(flash f: SIMD4<Float>, ambient a: SIMD4<Float>) -> SIMD4<Float> {
        let zero = SIMD4<Float>(repeating: 0)
        let electrons =
            pointwiseMax(f * timeF, zero) * shotScale + floorF
            + ratio2 * (pointwiseMax(a * timeA, zero) * shotScale + floorA)
        return electrons / (timeF * timeF)
    }

    /// Whether the flash lit a pixel (rates `flash` and `ambient`, e⁻/s) measurably: its flash-only sum over the
    /// three channels stands 3σ above zero.
    @inline(__always)
    func isLit(flash f: SIMD4<Float>, ambient a: SIMD4<Float>) -> Bool {
        let variance = flashOnlyVariance(flash: f, ambient: a)
        let e = f - a
        let signal = e[0] + e[1] + e[2]
        return signal > 0 && signal * signal > 9 * (variance[0] + variance[1] + variance[2])
    }

    /// The variance of an ambient rate `a` (e⁻/s), in (e⁻/s)².
    @inline(__always)
    func ambientVariance(_ a: SIMD4<Float>) -> SIMD4<Float> {
        (pointwiseMax(a * timeA, SIMD4<Float>(repeating: 0)) * shotScale + floorA) / (timeA * timeA)
    }

    /// Whether the flash-only value f·t_f of a pixel (rates `flash` and `ambient`, e⁻/s) lies below
    /// −3σ in any of the three channels, σ² the variance of `ConstantColorPipeline.tileSums`.
    @inline(__always)
    func isImpossible(flash f: SIMD4<Float>, ambient a: SIMD4<Float>) -> Bool {
        let zero = SIMD4<Float>(repeating: 0)
        let variance =
            pointwiseMax(f * timeF, zero) * shotScale + floorF
            + ratio2 * (pointwiseMax(a * timeA, zero) * shotScale + floorA)
        let e = (f - a) * timeF
        let below = (e .< zero) .& (e * e .> 9 * variance)
        return below[0] || below[1] || below[2]
    }
}

extension ConstantColorPipeline {
    /// The fill of a pixel clipped in the flash frame where no surface colour is known (`SurfaceColours`):
    /// the flash-only value of every channel that did not clip, and for a clipped channel the ambient
    /// frame's ambient ⊘ ρ brought to the flash-only level of the pixel's best-exposed unclipped channel.
    ///
    /// A flash highlight usually clips in one channel (red on a terracotta pot): the other two still
    /// measure the flash-only signal. Only the clipped channel needs the ambient frame, and only for
    /// its ratio to the unclipped one, so the ambient light's shading (a leaf's shadow on the pot)
    /// stays out of the fill, where it would show as a dark band where the clipping begins. Without an
    /// unclipped channel bright enough in both frames, ambient ⊘ ρ is all there is.
    ///
    /// A clipped channel's flash frame value is at least the white level, and (our choice) at most twice
    /// it: the plan exposes the 98th percentile at 85 % of the well, so only specular highlights go
    /// further. Its estimate is held between those bounds less the ambient, so that a ratio ρ borrowed
    /// from tiles outside a coloured spot cannot turn a clipped patch into a blotch of another hue.
    @inline(__always)
    static func clippedFill(flash f: SIMD4<Float>, ambient a: SIMD4<Float>, ratio rho: SIMD4<Float>, limits: ClipLimits)
        -> SIMD4<Float>
    {
        let fill = a / rho
        var best = -1
        for c in 0..<3 where f[c] < limits.flashWhite && a[c] > limits.ambientFloor && fill[c] > 0 {
            if best < 0 || f[c] > f[best] { best = c }
        }
        var out = fill
        if best >= 0 {
            out *= min(max((f[best] - a[best]) / fill[best], 0.125), 8)
        }
        for c in 0..<3 {
            if f[c] < limits.flashWhite {
                out[c] = f[c] - a[c]
            } else {
                out[c] = min(max(out[c], limits.flashClip - a[c]), 2 * limits.flashClip - a[c])
            }
        }
        return out
    }

    /// The red, green and blue of four pixels stored as four lanes each (r, g, b, unused) from `p` on, one
    /// vector per channel (a 4 × 4 transposition without its last row).
    @inline(__always)
    static func channels(_ p: UnsafeRawPointer) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let p0 = p.loadUnaligned(as: SIMD4<Float>.self)
        let p1 = p.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        let p2 = p.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self)
        let p3 = p.loadUnaligned(fromByteOffset: 48, as: SIMD4<Float>.self)
        return Lanes.transposed3(p0, p1, p2, p3)
    }
}

/// Wall-clock time of each stage of a capture (for the benchmark's breakdown).
struct StageClock {
    private var last = DispatchTime.now().uptimeNanoseconds
    private(set) var laps: [ConstantColorResult.Stage] = []

    mutating func lap(_ name: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        laps.append(ConstantColorResult.Stage(name: name, seconds: Double(now - last) / 1e9))
        last = now
    }
}

/// Shared read-only pointers to four arrays that parallel row bands read.
func withReadPointers<A, B, C, D, R>(
    _ a: [A], _ b: [B], _ c: [C], _ d: [D],
    _ body: (SharedReadPointer<A>, SharedReadPointer<B>, SharedReadPointer<C>, SharedReadPointer<D>) -> R
) -> R {
    a.withUnsafeBufferPointer { pa in
        b.withUnsafeBufferPointer { pb in
            c.withUnsafeBufferPointer { pc in
                d.withUnsafeBufferPointer { pd in
                    body(SharedReadPointer(pa), SharedReadPointer(pb), SharedReadPointer(pc), SharedReadPointer(pd))
                }
            }
        }
    }
}

/// Shared mutable pointers to two arrays that parallel row bands fill, each band its own rows or tiles.
func withPointers<A, B, R>(_ a: inout [A], _ b: inout [B], _ body: (SharedPointer<A>, SharedPointer<B>) -> R) -> R {
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in body(SharedPointer(pa), SharedPointer(pb)) }
    }
}

extension ConstantColorPipeline {
    /// The gains that bring the flash-only signal to the irradiance at the picture's centre: E_c / E(x),
    /// E from a `FlashIrradiance.Map`, E_c its value at the centre cell. The photo's exposure is set
    /// afterwards from the result, so the reference only keeps the values near the uncorrected ones
    /// (the flash-only diagnostic shares the exposure). Gains are held within 1/64 … 64 (our choice:
    /// eight times nearer or farther than the centre), where a beam's edge or a grazing surface would
    /// otherwise raise noise without bound.
    struct IrradianceGains: Sendable {
        let map: FlashIrradiance.Map
        let reference: Float
        /// Per confidence tile (the map's cells), the gain at its centre.
        let tiles: [Double]

        static let limit: Float = 64

        init(_ map: FlashIrradiance.Map) {
            self.map = map
            let cells = map.cells
            let centre = min(map.height / 2 / map.cell, (map.height - 1) / map.cell) * ((map.width + map.cell - 1)
                / map.cell) + min(map.width / 2 / map.cell, (map.width - 1) / map.cell)
            let r = cells[centre] > 0 ? cells[centre] : (cells.max() ?? 1)
            reference = Float(r)
            tiles = cells.map { Double(Self.gain(reference: Float(r), $0 > 0 ? Float($0) : 0)) }
        }

        @inline(__always)
        static func gain(reference: Float, _ e: Float) -> Float {
            e > 0 ? min(max(reference / e, 1 / limit), limit) : limit
        }

        /// The gains of row `y` into `out` (`map.width` values), read through a band's `rows`.
        @inline(__always)
        func row(_ y: Int, rows: FlashIrradiance.Map.Rows, into out: UnsafeMutablePointer<Float>) {
            rows.irradiance(row: y, into: out)
            for x in 0..<map.width { out[x] = Self.gain(reference: reference, out[x]) }
        }
    }
}
