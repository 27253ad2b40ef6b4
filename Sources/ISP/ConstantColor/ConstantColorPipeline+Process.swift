import Foundation
import Imaging
import Sensor
import Spectra

/// What the estimators make of a pair before the blend: the first pass's statistics and the typed parameters
/// derived from them.
struct Estimates {
    /// The registration shift the passes sample the ambient frame at.
    let shift: SIMD2<Double>
    let statistics: PairStatistics
    /// The confidence map before any clipped tile is raised (`SurfaceColours.raise`).
    let map: ConfidenceMap
    let ambient: AmbientRatio
    let ratios: FillRatios
    let irradiance: IrradianceGains?
    let parameters: BlendParameters
}

/// What `ConstantColorPipeline.develop` returns: the blend's output and what decided it, for the photo and for the
/// differential tests.
package struct ConstantColorDevelopment {
    let estimates: Estimates
    let output: BlendOutput
    /// The exposure scale: the centre-weighted mean to mid-grey, the brightest surface kept below the knee.
    package let exposure: Double
    /// Linear Display P3 before the exposure, three values per pixel.
    package var linear: [Float] { output.linear }
    package var meanLuminance: Double { output.meanY }
    package var brightestSurface: Double { output.brightest }
    /// The first pass's statistics per tile.
    package var tileStatistics: [TileStatistics] { estimates.statistics.tiles }
    /// The confidence map as the photo delivers it.
    package let confidence: ConfidenceMap
}

extension ConstantColorPipeline {
    /// Processes a captured pair from what the phone read out and measured (`ConstantColorCapture`): the frames'
    /// DN and exposures and the device's depth map, nothing of the render. `fallbackBalance` is the ordinary
    /// photo's white balance (when nil, the auto white balance every photo and stream uses, `AutoWhiteBalance`, on
    /// the ambient frame); the Constant Color photo never uses it. The result's
    /// diagnostics hold the readouts as frames without ground truth.
    public func process(_ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, fallbackBalance: WhiteBalance?)
        -> ConstantColorResult
    {
        var clock = StageClock()
        let (photo, summary) = developedPhoto(capture, plan: plan, clock: &clock)
        let k = summary.exposure, shift = summary.shift
        let makeFlashOnly = flashOnlyPicture(
            capture, shift: shift, encoder: DisplayEncoder(toneCurve: settings.toneCurve), exposure: k)
        var fallback = PixelPlane<UInt8>(width: 1, height: 1, channels: 3)
        let ambientRaw = RawFrame(readout: capture.ambient), flashRaw = RawFrame(readout: capture.flash)
        if settings.developsFallback {
            let balance = fallbackBalance ?? WhiteBalance.auto(ambientRaw, camera: camera)
            fallback = PhotoPipeline.develop(
                ambientRaw, camera: camera, whiteBalance: balance, outputSpace: .displayP3,
                warmth: settings.fallbackWarmth, gain: plan.fallbackGain)
            clock.lap("fallback")
        }
        let diagnostics = ConstantColorResult.Diagnostics(
            plan: plan, registration: shift, ambientToFlash: summary.ambient.ratio,
            ambientFromFlashPair: summary.ambient.fromPair, exposureScale: k,
            clippedFraction: summary.clippedPixels / Double(camera.width * camera.height),
            ambientFrame: ambientRaw, flashFrame: flashRaw, measuredDepth: capture.depth, stageSeconds: clock.laps)
        return ConstantColorResult(
            photo: photo, confidenceMap: summary.confidence, fallback: fallback, makeFlashOnly: makeFlashOnly,
            diagnostics: diagnostics)
    }

    /// What the photo's diagnostics and the flash-only picture keep of a development.
    struct DevelopmentSummary {
        let exposure: Double, shift: SIMD2<Double>, ambient: AmbientRatio, clippedPixels: Double
        let confidence: ConfidenceMap
    }

    /// The Constant Color photo (pass 3: exposure, tone curve and gamma) and a summary of its development. The
    /// linear picture and the estimators' planes end here, before the fallback is developed, so that the two never
    /// occupy memory together.
    func developedPhoto(_ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, clock: inout StageClock)
        -> (PixelPlane<UInt8>, DevelopmentSummary)
    {
        let developed = develop(capture, plan: plan, path: .fast, clock: &clock)
        let encoder = DisplayEncoder(toneCurve: settings.toneCurve)
        let photo = encoder.encode(
            linear: developed.output.linear, scale: Float(developed.exposure), width: camera.width,
            height: camera.height)
        clock.lap("encode")
        let estimates = developed.estimates
        return (
            photo,
            DevelopmentSummary(
                exposure: developed.exposure, shift: estimates.shift, ambient: estimates.ambient,
                clippedPixels: estimates.statistics.clippedPixels, confidence: developed.confidence)
        )
    }

    /// Everything `process` does before the encoding: registration, the statistics pass, the estimators, the blend
    /// and the exposure, by the fast kernels or by their references (`path`).
    package func develop(_ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, path: KernelPath)
        -> ConstantColorDevelopment
    {
        var clock = StageClock()
        return develop(capture, plan: plan, path: path, clock: &clock)
    }

    func develop(
        _ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, path: KernelPath, clock: inout StageClock
    ) -> ConstantColorDevelopment {
        let width = camera.width, height = camera.height
        precondition(
            capture.ambient.width == width && capture.flash.width == width && capture.ambient.height == height
                && capture.flash.height == height, "frames must match the camera")
        let shift = registration(capture)
        clock.lap("registration")
        let estimates = estimate(capture, plan: plan, shift: shift, path: path)
        clock.lap("flash-only, confidence map, ambient ratio")
        let toP3 = CorrectionKernel(
            correction: correction, neutral: flashNeutral, output: RGBColorSpace.displayP3.fromXYZ, scale: 1)
        let inputs = BlendInputs(flash: capture.flash, ambient: capture.ambient, estimates: estimates, kernel: toP3)
        let output = blendAndMap(inputs, path: path)
        var k = output.meanY > 0 ? settings.midGrey / output.meanY : 1
        if output.brightest > 0, case let .shoulder(knee, _) = settings.toneCurve {
            k = min(k, knee / output.brightest)
        }
        clock.lap("blend, colour mapping, exposure")
        // Tiles whose colour the mapping cannot pin down (metamers of the camera with far-apart hues) are capped,
        // however strong their flash signal.
        let confidence = colourTrust.capped(
            estimates.parameters.surfaces?.raise(estimates.map, statistics: estimates.statistics) ?? estimates.map,
            statistics: estimates.statistics, flashNeutral: flashNeutral)
        return ConstantColorDevelopment(estimates: estimates, output: output, exposure: k, confidence: confidence)
    }

    /// The translation of the ambient frame onto the flash frame: registration on green rates averaged straight down
    /// to the finest pyramid level refined (no full-resolution plane is needed); every pass then samples the
    /// ambient frame at x + d. Zero when the settings skip it or it fails.
    package func registration(_ capture: ConstantColorCapture) -> SIMD2<Double> {
        guard settings.registers else { return .zero }
        let width = camera.width, height = camera.height, noise = camera.noise
        let s = FrameRegistration.reduction(width: width, height: height)
        let shift = FrameRegistration.translation(
            reducedReference: FramePair.greenBlocks(capture.flash, noise: noise, reduction: s),
            reducedMoving: FramePair.greenBlocks(capture.ambient, noise: noise, reduction: s),
            width: width >> s, height: height >> s, reduction: s)
        guard shift.x.isFinite, shift.y.isFinite, abs(shift.x) < Double(width) / 4, abs(shift.y) < Double(height) / 4
        else { return .zero }
        return shift
    }

    /// Pass 1, the statistics of the flash-only estimate f = flash − ambient per confidence tile (`PairStatistics`),
    /// at the registration's shift or at none.
    ///
    /// The flash only adds light, so where the frames are aligned f is nowhere impossibly negative. The registration
    /// sees the flash's shading and shadows, which the ambient frame lacks, and may settle a pixel or more away from
    /// the true motion. The count of impossible pixels can judge only shifts beyond the reach (`FramePair.Reach`): a
    /// pixel is impossible only when it is darker than all nine ambient pixels around its registered position, so
    /// positions less than a pixel apart share most of their nine and differ in the count by noise alone. So:
    /// - a shift within a pixel each way stands: the registration measured the frames' structure, the count could
    ///   not tell it from none;
    /// - a larger shift is kept only where the unshifted pair has more impossible pixels. Where the two counts tie,
    ///   the pair is consistent without the shift, and the unshifted one is kept (our choice): the hand moves the
    ///   picture's centre by less than a pixel between the frames, and a larger shift the frames do not demand is
    ///   more likely the flash's shadows pulling the fit.
    func measure(
        _ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, shift: SIMD2<Double>, path: KernelPath
    ) -> (PairStatistics, SIMD2<Double>) {
        let grid = TileGrid(width: camera.width, height: camera.height, tileSize: settings.tileSize)
        let terms = PairStatistics.NoiseTerms(noise: camera.noise, plan: plan)
        let kernel: PairStatistics.Path = path == .fast ? .fast : .reference
        func statistics(_ shift: SIMD2<Double>) -> PairStatistics {
            PairStatistics(
                capture.flash, capture.ambient, shift: shift, terms: terms, noise: camera.noise, grid: grid,
                path: kernel)
        }
        guard max(abs(shift.x), abs(shift.y)) > 1 else { return (statistics(shift), shift) }
        // Both counts first, then the full statistics of the pair kept: a count costs a fraction of them.
        func count(_ shift: SIMD2<Double>) -> Double {
            PairStatistics.impossiblePixels(
                capture.flash, capture.ambient, shift: shift, terms: terms, noise: camera.noise, grid: grid)
        }
        return count(.zero) <= count(shift) ? (statistics(.zero), .zero) : (statistics(shift), shift)
    }

    /// The estimators: the confidence map, the global and local ambient/flash ratios, the flash's irradiance, the
    /// surface colours under clipped pixels, the flash's own shadows and the flash-only colour around each pixel.
    func estimate(
        _ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, shift registered: SIMD2<Double>,
        path: KernelPath
    ) -> Estimates {
        let (statistics, shift) = measure(capture, plan: plan, shift: registered, path: path)
        let flashTime = plan.flash.time, depth = capture.depthPlane()
        let grid = statistics.grid, noise = camera.noise
        let map = ConfidenceMap(statistics: statistics, neutral: flashNeutral, flashTime: flashTime)
        let ambient = AmbientRatio(statistics: statistics, map: map, flashNeutral: flashNeutral)
        // The flash's irradiance at each pixel from the depth the device measured as the flash fired (along the
        // optical axis; the blend is in the flash frame's geometry), relative to the picture's centre.
        let gains = settings.correctsIrradiance
            ? irradiance.map(camera: camera, depth: depth, cell: grid.tileSize, measuredWidth: capture.depth?.width)
                .map(IrradianceGains.init) : nil
        let ratios = FillRatios(
            statistics: statistics, consistency: map.consistency, flashTime: flashTime, global: ambient.ratio,
            gains: gains?.tiles)
        let limits = ClipLimits(flash: capture.flash, ambient: capture.ambient, noise: noise)
        // Where the flash frame clipped, the surface's colour from the unclipped tiles around it.
        let surfaces: SurfaceColours? =
            statistics.clippedPixels > 0
            ? SurfaceColours(
                hot: HotTileStatistics.gather(
                    capture.flash, capture.ambient, depth: depth, shift: shift, limits: limits, grid: grid,
                    noise: noise),
                statistics: statistics, map: map, limits: limits, flashTime: flashTime) : nil
        // The flash's own shadows: the ambient irradiance relative to the flash's, from the lit pixels, and where the
        // depth map has something between a surface and the flash.
        let pixels = camera.width * camera.height
        let blocked: [UInt8]? =
            depth.count == pixels ? FlashOcclusion(camera: camera, irradiance: irradiance)?.mask(depth: depth) : nil
        let shadows = FlashShadow(
            sums: FlashShadow.sums(
                capture.flash, capture.ambient, depth: depth, shift: shift, limits: limits, irradiance: gains,
                grid: grid, noise: noise, blocked: blocked),
            grid: grid)
        let parameters = BlendParameters(
            limits: limits, surfaces: surfaces, shadows: shadows,
            chroma: FlashOnlyChroma(statistics: statistics, consistency: map.consistency, flashTime: flashTime),
            blocked: blocked, depth: depth, rendersFallOff: settings.rendersFlashFallOff, width: camera.width,
            height: camera.height)
        return Estimates(
            shift: shift, statistics: statistics, map: map, ambient: ambient, ratios: ratios, irradiance: gains,
            parameters: parameters)
    }

    /// The flash-only picture (a diagnostic), made on demand: f = flash − ambient with the lens shading corrected,
    /// mapped and encoded at the photo's exposure.
    func flashOnlyPicture(
        _ capture: ConstantColorCapture, shift: SIMD2<Double>, encoder: DisplayEncoder, exposure k: Double
    ) -> @Sendable () -> PixelPlane<UInt8> {
        let kernel = CorrectionKernel(
            correction: correction, neutral: flashNeutral, output: RGBColorSpace.displayP3.fromXYZ, scale: k)
        let shading = LensShadingCorrection(camera: camera, completely: true)
        let width = camera.width, height = camera.height, noise = camera.noise
        let flashFrame = capture.flash, ambient = capture.ambient
        return {
            let rgb = FramePair.with(flash: flashFrame, ambient: ambient, shift: shift, noise: noise) { pair in
                BandParallel.fill(count: 3 * width * height, rows: height, of: Float.self) { rows, out in
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
    }

    /// How much wider than at 640 pixels a neighbourhood reaches at `width` pixels (at least 1): what the
    /// neighbourhoods measured in pixels or tiles must cover (a flash shadow, a clipped highlight) grows with
    /// the focal length in pixels, that is with the picture's width, while the tiles stay 8 pixels.
    static func neighbourhoodScale(width: Int) -> Double { max(1, Double(width) / 640) }
}

extension ConstantColorPipeline {
    /// The impossibly negative pixels of a captured pair sampled at `shift`, counted alone
    /// (`PairStatistics.impossiblePixels`) and summed from the full statistics pass: `measure` chooses between the
    /// shifted and the still pair by the count, so the two must agree (`ConstantColorDifferentialTests`).
    package func impossiblePixels(_ capture: ConstantColorCapture, plan: ConstantColorCapturePlan, shift: SIMD2<Double>)
        -> (counted: Double, summed: Double)
    {
        let grid = TileGrid(width: camera.width, height: camera.height, tileSize: settings.tileSize)
        let terms = PairStatistics.NoiseTerms(noise: camera.noise, plan: plan)
        let counted = PairStatistics.impossiblePixels(
            capture.flash, capture.ambient, shift: shift, terms: terms, noise: camera.noise, grid: grid)
        let full = PairStatistics(
            capture.flash, capture.ambient, shift: shift, terms: terms, noise: camera.noise, grid: grid)
        return (counted, full.impossiblePixels)
    }
}
