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
/// f = flash − ambient; the map from camera RGB under the *calibrated* flash to XYZ under D65
/// (`RootPolynomialCorrection` of degree 3, fitted over `TrainingReflectances.constantColor`); a global
/// exposure, a global tone curve and a 2.2 gamma into Display P3. Where confidence is low the ambient frame fills in, turned
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
///
/// What the photo is: a colorimetric rendering. The exposure puts the centre-weighted mean at
/// mid-grey but never lets the brightest confident surface (an 8×8-tile mean, so noise does not
/// decide) pass the tone curve's knee; below the knee the curve is the identity, so every diffuse
/// surface keeps its D65 colorimetry, and only specular highlights and clipped pixels roll off.
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

        /// Settings; the defaults are our choices, documented on each property.
        public init(
            interval: Double = 0.05, maximumFlashTime: Double = 1.0 / 30, tileSize: Int = 8, registers: Bool = true,
            midGrey: Double = 0.18, toneCurve: ToneCurve = .shoulder(knee: 0.85, whiteInput: 2),
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
    public let correction: RootPolynomialCorrection
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
        correction = RootPolynomialCorrection(
            camera: camera, illuminant: calibration.spectrum, renderedUnder: Illuminants.d65,
            training: TrainingReflectances.constantColor, degree: 3)
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
        var clock = StageClock()
        let w = max(32, camera.width / 8)
        let h = max(1, Int((Double(w) * Double(camera.height) / Double(camera.width)).rounded()))
        let quick = RenderOptions(keepsComponents: false)
        let metering = Renderer(
            scene: scene, camera: camera.scaled(toWidth: w, height: h), flash: flash, options: quick)
        let plan = ConstantColorCapturePlan.meter(
            meteringRenderer: metering, seed: seed, maximumFlashTime: settings.maximumFlashTime,
            interval: settings.interval)
        clock.lap("metering")
        let first = Renderer(scene: scene, camera: camera, flash: flash, options: quick)
        let ambient = first.render(plan.ambient)
        clock.lap("render ambient")
        let later = scene.advanced(by: plan.interval)
        let second = later == scene ? first : Renderer(scene: later, camera: camera, flash: flash, options: quick)
        let flashFrame = second.render(plan.flash)
        clock.lap("render flash")
        var result = process(ambient: ambient, flash: flashFrame, plan: plan, scene: scene)
        result.diagnostics.stageSeconds = clock.laps + result.diagnostics.stageSeconds
        return result
    }

    /// Processes a captured pair. `scene` only tells the fallback photo the room light (as the
    /// ordinary pipeline of `obscura render` is told); the Constant Color photo never uses it.
    public func process(ambient: RawFrame, flash flashFrame: RawFrame, plan: ConstantColorCapturePlan, scene: Scene?)
        -> ConstantColorResult
    {
        var clock = StageClock()
        let width = camera.width, height = camera.height
        precondition(ambient.width == width && flashFrame.width == width, "frames must match the camera")
        let pixels = width * height
        let noise = camera.noise
        let (rateF, clipF, greenF) = ConstantColorPipeline.rates(flashFrame, noise: noise)
        var (rateA, clipA, greenA) = ConstantColorPipeline.rates(ambient, noise: noise)
        clock.lap("rates")

        // Registration on green rates; then the ambient frame is resampled onto the flash frame.
        var shift = SIMD2<Double>(0, 0)
        if settings.registers {
            shift = FrameRegistration.translation(reference: greenF, moving: greenA, width: width, height: height)
            if shift.x.isFinite, shift.y.isFinite, abs(shift.x) < Double(width) / 4, abs(shift.y) < Double(height) / 4 {
                rateA = FrameRegistration.shifted(rateA, channels: 3, width: width, height: height, by: shift)
                clipA = FrameRegistration.shifted(clipA, channels: 1, width: width, height: height, by: shift)
            } else {
                shift = .zero
            }
        }
        greenA = []
        clock.lap("registration")

        // Flash-only estimate and its noise, in flash-frame electrons (green).
        let tF = plan.flash.time, tA = plan.ambient.time
        let ratio = Float(tF / tA)
        let read2 = Float(noise.readNoiseElectrons * noise.readNoiseElectrons)
        let quantF = Float(1 / (12 * pow(noise.gain(iso: plan.flash.iso), 2)))
        let quantA = Float(1 / (12 * pow(noise.gain(iso: plan.ambient.iso), 2)))
        let timeF = Float(tF), timeA = Float(tA)
        // Every element is written below, each band its own rows.
        var flashOnly: [Float] = ParallelRows.uninitialized(3 * pixels)
        var signal: [Float] = ParallelRows.uninitialized(pixels)
        var variance: [Float] = ParallelRows.uninitialized(pixels)
        var clipped: [Bool] = ParallelRows.uninitialized(pixels)
        let clippedCount = withPointers(&flashOnly, &signal, &variance, &clipped) { fo, sig, vari, clip in
            rateF.withUnsafeBufferPointer { rf in
                rateA.withUnsafeBufferPointer { ra in
                    clipF.withUnsafeBufferPointer { cf in
                        clipA.withUnsafeBufferPointer { ca in
                            let rF = SharedReadPointer(rf), rA = SharedReadPointer(ra)
                            let cF = SharedReadPointer(cf), cA = SharedReadPointer(ca)
                            return ParallelRows.bands(height, initial: 0) { rows in
                                var count = 0
                                for p in (rows.lowerBound * width)..<(rows.upperBound * width) {
                                    for c in 0..<3 { fo.base[3 * p + c] = rF.base[3 * p + c] - rA.base[3 * p + c] }
                                    let eF = rF.base[3 * p + 1] * timeF
                                    let eA = rA.base[3 * p + 1] * timeA
                                    sig.base[p] = fo.base[3 * p + 1] * timeF
                                    vari.base[p] = max(eF, 0) + read2 + quantF
                                        + ratio * ratio * (max(eA, 0) + read2 + quantA)
                                    let isClipped = cF.base[p] > 0 || cA.base[p] > 0
                                    clip.base[p] = isClipped
                                    if isClipped { count += 1 }
                                }
                                return count
                            }.reduce(0, +)
                        }
                    }
                }
            }
        }
        clock.lap("flash-only")
        let map = ConfidenceMap(
            signal: signal, variance: variance, clipped: clipped, width: width, height: height,
            tileSize: settings.tileSize)
        signal = []
        variance = []
        clock.lap("confidence map")

        let (ambientToFlash, fromPair) = ConstantColorPipeline.ambientRatio(
            ambient: rateA, flashOnly: flashOnly, clipped: clipped, map: map, width: width, height: height,
            flashNeutral: flashNeutral)

        // Blend in camera space: w·f + (1 − w)·(ambient ⊘ ratio), w the interpolated confidence.
        let inverse = SIMD3<Float>(1 / Float(ambientToFlash.x), 1 / Float(ambientToFlash.y), 1 / Float(ambientToFlash.z))
        // `map.value` at pixel centres, with its column terms (which depend on x alone) computed once
        // per column and its row terms once per row: the same arithmetic, so the same weights.
        let mw = map.plane.width, mh = map.plane.height, tileSize = Double(map.tileSize)
        let columns = (0..<width).map { x -> (x0: Int, x1: Int, a: Double) in
            let u = min(max((Double(x) + 0.5) / tileSize - 0.5, 0), Double(mw - 1))
            let x0 = Int(u)
            return (x0, min(x0 + 1, mw - 1), u - Double(x0))
        }
        let blended = flashOnly.withUnsafeBufferPointer { fo in
            rateA.withUnsafeBufferPointer { ra in
                clipped.withUnsafeBufferPointer { cl in
                    let f = SharedReadPointer(fo), a = SharedReadPointer(ra)
                    let clip = SharedReadPointer(cl)
                    return ParallelRows.fill(count: 3 * pixels, rows: height, of: Float.self) { rows, out in
                        for y in rows {
                            let v = min(max((Double(y) + 0.5) / tileSize - 0.5, 0), Double(mh - 1))
                            let y0 = Int(v)
                            let row0 = y0 * mw, row1 = min(y0 + 1, mh - 1) * mw
                            let b = v - Double(y0)
                            for x in 0..<width {
                                let p = y * width + x
                                let col = columns[x]
                                let top = map.values[row0 + col.x0] * (1 - col.a) + map.values[row0 + col.x1] * col.a
                                let bottom = map.values[row1 + col.x0] * (1 - col.a) + map.values[row1 + col.x1] * col.a
                                let wgt = clip.base[p] ? 0 : Float(top * (1 - b) + bottom * b)
                                for c in 0..<3 {
                                    out[3 * p + c] = wgt * f.base[3 * p + c] + (1 - wgt) * a.base[3 * p + c] * inverse[c]
                                }
                            }
                        }
                    }
                }
            }
        }
        clock.lap("ambient ratio and blend")

        // Camera RGB → XYZ (D65) → one global exposure → linear Display P3.
        let (meanY, brightest) = ConstantColorPipeline.exposureStatistics(
            blended, clipped: clipped, map: map, width: width, height: height,
            toXYZ: CorrectionKernel(correction: correction, neutral: flashNeutral, output: .identity, scale: 1),
            toP3: CorrectionKernel(
                correction: correction, neutral: flashNeutral, output: RGBColorSpace.displayP3.fromXYZ, scale: 1))
        var k = meanY > 0 ? settings.midGrey / meanY : 1
        if brightest > 0, case let .shoulder(knee, _) = settings.toneCurve { k = min(k, knee / brightest) }
        let encoder = DisplayEncoder(toneCurve: settings.toneCurve)
        let kernel = CorrectionKernel(
            correction: correction, neutral: flashNeutral, output: RGBColorSpace.displayP3.fromXYZ, scale: k)
        clock.lap("exposure")
        let photo = encoder.encode(blended, kernel: kernel, width: width, height: height)
        let pure = encoder.encode(flashOnly, kernel: kernel, width: width, height: height)
        clock.lap("encode")

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
            clock.lap("fallback")
        }
        let diagnostics = ConstantColorResult.Diagnostics(
            plan: plan, registration: shift, ambientToFlash: ambientToFlash, ambientFromFlashPair: fromPair,
            exposureScale: k, clippedFraction: Double(clippedCount) / Double(pixels), ambientFrame: ambient,
            flashFrame: flashFrame, stageSeconds: clock.laps)
        return ConstantColorResult(
            photo: photo, confidenceMap: map, fallback: fallback, flashOnly: pure, diagnostics: diagnostics)
    }

    /// Electrons per second per pixel and channel, (DN − black) / gain / time, a clip mask (1 where
    /// any channel reached the white level) and the green rates alone (for registration).
    static func rates(_ frame: RawFrame, noise: NoiseParameters) -> ([Float], [Float], [Float]) {
        let scale = Float(1 / (noise.gain(iso: frame.exposure.iso) * frame.exposure.time))
        let black = Float(noise.blackLevel)
        let white = UInt16(min(noise.whiteLevel, 65535))
        let width = frame.width, pixels = frame.width * frame.height
        precondition(frame.dn.count >= 3 * pixels, "a raw frame holds three values per pixel")
        // Every element is written below, each band its own rows.
        var rates: [Float] = ParallelRows.uninitialized(3 * pixels)
        var clip: [Float] = ParallelRows.uninitialized(pixels)
        var green: [Float] = ParallelRows.uninitialized(pixels)
        frame.dn.withUnsafeBufferPointer { dnBuffer in
            guard let dnBase = dnBuffer.baseAddress else { return }
            let dn = SharedReadPointer(base: dnBase)
            withPointers(&rates, &clip, &green) { out, clipOut, greenOut in
                ParallelRows.forEach(frame.height) { rows in
                    for p in (rows.lowerBound * width)..<(rows.upperBound * width) {
                        let r = dn.base[3 * p], g = dn.base[3 * p + 1], b = dn.base[3 * p + 2]
                        out.base[3 * p] = (Float(r) - black) * scale
                        let gr = (Float(g) - black) * scale
                        out.base[3 * p + 1] = gr
                        greenOut.base[p] = gr
                        out.base[3 * p + 2] = (Float(b) - black) * scale
                        clipOut.base[p] = max(r, g, b) >= white ? 1 : 0
                    }
                }
            }
        }
        return (rates, clip, green)
    }

    /// The ambient light relative to the flash, per camera channel: Σ ambient / Σ flash-only over
    /// unclipped pixels of tiles with confidence ≥ 0.5. With fewer than 1 % such pixels, grey-world
    /// on the ambient frame gives the colour (its mean taken as neutral), scaled so the ambient
    /// mean matches the flash-only mean in green.
    static func ambientRatio(
        ambient: [Float], flashOnly: [Float], clipped: [Bool], map: ConfidenceMap, width: Int, height: Int,
        flashNeutral: SIMD3<Double>
    ) -> (SIMD3<Double>, Bool) {
        struct Sums: Sendable {
            var a = SIMD3<Double>(0, 0, 0), f = SIMD3<Double>(0, 0, 0), allA = SIMD3<Double>(0, 0, 0)
            var allF = 0.0
            var count = 0
        }
        let mw = map.plane.width, tile = map.tileSize
        let bands = ambient.withUnsafeBufferPointer { am in
            flashOnly.withUnsafeBufferPointer { fo in
                clipped.withUnsafeBufferPointer { cl in
                    let amb = SharedReadPointer(am), fl = SharedReadPointer(fo)
                    let clip = SharedReadPointer(cl)
                    return ParallelRows.bands(height, initial: Sums()) { rows in
                        var s = Sums()
                        for y in rows {
                            for x in 0..<width {
                                let p = y * width + x
                                guard !clip.base[p] else { continue }
                                let pa = SIMD3(
                                    Double(amb.base[3 * p]), Double(amb.base[3 * p + 1]), Double(amb.base[3 * p + 2]))
                                s.allA += pa
                                s.allF += Double(fl.base[3 * p + 1])
                                guard map.values[(y / tile) * mw + x / tile] >= 0.5 else { continue }
                                s.a += pa
                                s.f += SIMD3(
                                    Double(fl.base[3 * p]), Double(fl.base[3 * p + 1]), Double(fl.base[3 * p + 2]))
                                s.count += 1
                            }
                        }
                        return s
                    }
                }
            }
        }
        var t = Sums()
        for s in bands {
            t.a += s.a
            t.f += s.f
            t.allA += s.allA
            t.allF += s.allF
            t.count += s.count
        }
        let (a, f, allA, allF) = (t.a, t.f, t.allA, t.allF)
        if t.count * 100 >= width * height, f.x > 0, f.y > 0, f.z > 0, a.x > 0, a.y > 0, a.z > 0 {
            return (a / f, true)
        }
        guard allA.x > 0, allA.y > 0, allA.z > 0 else { return (SIMD3(1, 1, 1), false) }
        let neutral = allA / allA.y
        let level = allF > 0 ? allA.y / allF : 1
        return (neutral / flashNeutral * level, false)
    }

    /// The centre-weighted mean luminance (σ = 1/4 of the diagonal, unclipped pixels) and the
    /// brightest surface: the largest Display P3 channel of any confident (≥ 0.5), unclipped tile's
    /// mean colour.
    ///
    /// The exposure puts the mean at mid-grey unless that would push the brightest surface past the
    /// tone curve's knee: then that surface decides, so that no diffuse colour is compressed channel
    /// by channel (which would shift its hue and lightness). Tile means, not pixels, so noise does not
    /// set the exposure; specular highlights clip and so never count.
    static func exposureStatistics(
        _ rgb: [Float], clipped: [Bool], map: ConfidenceMap, width: Int, height: Int, toXYZ: CorrectionKernel,
        toP3: CorrectionKernel
    ) -> (Double, Double) {
        let tile = map.tileSize, mw = map.plane.width, mh = map.plane.height
        let sigma = (Double(width * width + height * height)).squareRoot() / 4
        // Per tile: Σ rgb and the number of clipped pixels; per band: the weighted luminance sums.
        var tileSums = [Double](repeating: 0, count: 4 * mw * mh)
        // The Gaussian is separable, exp(−(dx² + dy²)/2σ²) = g(dx)·g(dy): one exp per column and
        // one per row instead of one per pixel.
        let columnWeights = (0..<width).map { x in
            let dx = Double(x) + 0.5 - Double(width) / 2
            return exp(-dx * dx / (2 * sigma * sigma))
        }
        let partial = columnWeights.withUnsafeBufferPointer { cw in
            let gx = SharedReadPointer(cw)
            return rgb.withUnsafeBufferPointer { src in
                clipped.withUnsafeBufferPointer { cl in
                    toXYZ.m.withUnsafeBufferPointer { mx in
                        tileSums.withUnsafeMutableBufferPointer { ts in
                            let v = SharedReadPointer(src), clip = SharedReadPointer(cl)
                            let m = SharedReadPointer(mx), sums = SharedPointer(ts)
                            // Bands are whole tile rows, so each band owns its tiles' sums.
                            return ParallelRows.bands(mh, initial: SIMD2<Double>(0, 0)) { tileRows in
                                var acc = SIMD2<Double>(0, 0)
                                for y in (tileRows.lowerBound * tile)..<min(height, tileRows.upperBound * tile) {
                                    let dy = Double(y) + 0.5 - Double(height) / 2
                                    let gy = exp(-dy * dy / (2 * sigma * sigma))
                                    var row = SIMD2<Double>(0, 0)
                                    for x in 0..<width {
                                        let p = y * width + x
                                        let t = 4 * ((y / tile) * mw + x / tile)
                                        if clip.base[p] {
                                            sums.base[t + 3] += 1
                                            continue
                                        }
                                        let r = v.base[3 * p], g = v.base[3 * p + 1], b = v.base[3 * p + 2]
                                        sums.base[t] += Double(r)
                                        sums.base[t + 1] += Double(g)
                                        sums.base[t + 2] += Double(b)
                                        let weight = gx.base[x]
                                        row += SIMD2(weight * Double(CorrectionKernel.apply(m.base, r, g, b).y), weight)
                                    }
                                    acc += gy * row
                                }
                                return acc
                            }
                        }
                    }
                }
            }
        }
        var total = SIMD2<Double>(0, 0)
        for p in partial { total += p }
        var brightest = 0.0
        toP3.m.withUnsafeBufferPointer { mp in
            guard let m = mp.baseAddress else { return }
            for t in 0..<(mw * mh) where tileSums[4 * t + 3] == 0 && map.values[t] >= 0.5 {
                let n = Float(min(tile, width - (t % mw) * tile) * min(tile, height - (t / mw) * tile))
                let c = CorrectionKernel.apply(
                    m, Float(tileSums[4 * t]) / n, Float(tileSums[4 * t + 1]) / n, Float(tileSums[4 * t + 2]) / n)
                brightest = max(brightest, Double(c.max()))
            }
        }
        return (total.y > 0 ? total.x / total.y : 0, brightest)
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

/// Shared mutable pointers to arrays that parallel row bands fill, each band its own rows.
func withPointers<A, B, C, D, R>(
    _ a: inout [A], _ b: inout [B], _ c: inout [C], _ d: inout [D],
    _ body: (SharedPointer<A>, SharedPointer<B>, SharedPointer<C>, SharedPointer<D>) -> R
) -> R {
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { pc in
                d.withUnsafeMutableBufferPointer { pd in
                    body(
                        SharedPointer(pa), SharedPointer(pb),
                        SharedPointer(pc), SharedPointer(pd))
                }
            }
        }
    }
}

/// The three-array form of `withPointers`.
func withPointers<A, B, C, R>(
    _ a: inout [A], _ b: inout [B], _ c: inout [C], _ body: (SharedPointer<A>, SharedPointer<B>, SharedPointer<C>) -> R
) -> R {
    a.withUnsafeMutableBufferPointer { pa in
        b.withUnsafeMutableBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { pc in
                body(SharedPointer(pa), SharedPointer(pb), SharedPointer(pc))
            }
        }
    }
}
