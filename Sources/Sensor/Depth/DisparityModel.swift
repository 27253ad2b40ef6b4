import Devices
import Imaging
import Scenes

/// Disparity from a dual camera, derived from the scene's geometry and the stereo baseline
/// (DESIGN "Physics": depth ground truth; avfoundation-capture spec §9).
///
/// Normalised disparity is pixelShift / (f_px · B) = 1 / Z in 1/m (spec §9 [D]), so the model
/// starts from the ground-truth Z of every pixel and adds what a stereo matcher gets wrong:
/// - **holes** where the second camera cannot see the point: a ray from its optical centre to
///   the point meets another surface first, or the surface faces away from it;
/// - **holes on textureless surfaces** (when `minimumTextureSNR` is above zero): a block matcher
///   compares windows of the two images, and where the window's texture is weaker than the image's
///   noise the best match is decided by the noise, so matchers reject it (OpenCV's `StereoBM`
///   documents such a texture test and a uniqueness test; Delon and Sabater 2011 derive the matching
///   error as noise over the window's gradient energy). Matchers compare prefiltered windows
///   (`StereoBM` takes a horizontal Sobel response; census costs ignore a brightness offset), so the
///   texture is the variance, about its window mean, of the horizontal difference of neighbouring
///   pixels of the scene's noise-free image: a uniform brightness gradient (a lamp's fall-off, the
///   lens's shading) has a constant difference and gives nothing to match. The noise is the one the
///   matcher's image carries, the picture averaged down from the sensor to the map's size
///   (`matcherSensor`): each map pixel is the mean of n photosites, so by the photon transfer of that
///   readout (`NoiseParameters.readout`) its variance is S/n from shot noise plus read noise, PRNU and
///   DSNU each divided by n, far below one photosite's;
/// - **noise** of one matching precision σ_d in 1/m whatever the distance, so the depth error grows
///   as σ_Z = Z² · σ_d (the first-order error of Z = 1/d). The noise is **spatially correlated**
///   over the matching window: neighbouring pixels share most of their window, so their errors do
///   too. The model draws white noise and averages it over `matchingWindow` × `matchingWindow`
///   pixels, scaled back to σ_d per pixel;
/// - a **calibration error** per capture, a random scale and offset on every value, which is why
///   dual-camera maps are relative (spec §9 [D]: the dual camera is always relative);
/// - **holes where no match is accepted**: a matcher searches pixel shifts between those of its
///   far and near limits, and a phone's search covers the whole rated range, so the window reaches
///   four noise widths past `minimumDepth` and `maximumDepth` (a point at either rated limit is kept
///   with probability 0.99997). A measured disparity outside the window, or not above zero, is a
///   hole: a map never holds a negative disparity or depth, and inside the rated range the window
///   neither cuts the noise's tail (which would bias the mean) nor makes holes.
public struct DisparityModel: Sendable, Hashable {
    /// The second camera's optical centre in the reference camera's frame, metres
    /// (x right, y down, z forward).
    public var baseline: Vector3
    /// Standard deviation of the matcher's disparity, pixels at the map's scale.
    public var matchingPrecisionPixels: Double
    /// Standard deviation of the per-capture scale error (0.03 = 3 %).
    public var calibrationScaleError: Double
    /// Standard deviation of the per-capture offset, 1/m.
    public var calibrationOffsetError: Double
    /// Nearest distance the pair can match, metres: measured disparities above 1 / this are holes.
    public var minimumDepth: Double
    /// Farthest distance the pair can match, metres: measured disparities below 1 / this (and
    /// every disparity at or below zero) are holes.
    public var maximumDepth: Double
    /// The matcher's precision in normalised disparity, 1/m, when it is fixed for the device rather
    /// than in pixels of the map: a phone matches at one working resolution and scales the map to the
    /// size asked for, so a profile's rated accuracy holds at every map size. Nil: from
    /// `matchingPrecisionPixels` at the map's focal length.
    public var disparityPrecision: Double?
    /// The side of the square window the matcher compares, pixels at the map's scale (1: white noise).
    public var matchingWindow: Int
    /// The smallest texture-to-noise ratio over the window that gives a match (0: every pixel matches).
    public var minimumTextureSNR: Double
    /// The sensor whose picture the matcher compares, from which the noise of that picture at the map's size
    /// follows; nil: no texture test.
    public var matcherSensor: MatcherSensor?

    /// The sensor behind the image a stereo matcher compares: one photosite's noise and the focal length in
    /// photosites. A map pixel of focal length f holds (`focalLengthPhotosites` / f)² photosites.
    public struct MatcherSensor: Sendable, Hashable {
        /// One photosite's noise figures.
        public var photositeNoise: NoiseParameters
        /// The focal length in photosites of the full sensor readout.
        public var focalLengthPhotosites: Double

        public init(photositeNoise: NoiseParameters, focalLengthPhotosites: Double) {
            self.photositeNoise = photositeNoise
            self.focalLengthPhotosites = focalLengthPhotosites
        }

        /// The noise of a pixel of the picture scaled to focal length `f` pixels: the mean of the photosites it
        /// covers, each read once (a scaled readout; at least one photosite a pixel). Our choice [I]: a binned
        /// readout would sum four photosites per read first and carry less read noise, which matters only in the
        /// dimmest light, where shot noise is also smallest.
        public func noise(focalLengthPixels f: Double) -> NoiseParameters {
            let across = f > 0 ? focalLengthPhotosites / f : 1
            return photositeNoise.readout(summed: 1, averaged: max(1, across * across))
        }
    }

    /// The matching window of a phone's depth map, pixels at the map's scale: our model constant [I].
    /// Block matchers compare windows of about 5 to 21 pixels at their working resolution (OpenCV's
    /// `StereoBM` takes 5 to 255, odd; Hirschmüller's semi-global matching uses a 9 × 7 census), and a
    /// phone's map is no finer than its matching grid, so we take 5 map pixels.
    public static let typicalMatchingWindow = 5

    /// The texture a match needs: the window's texture variance at least its photon-noise variance
    /// (signal-to-noise 1), below which the matching cost's minimum is set by noise. Our model constant [I].
    public static let typicalMinimumTextureSNR = 1.0

    /// The sub-pixel matching precision of a phone's stereo matcher, pixels at the map's scale:
    /// our model constant [I], 0.1 px.
    ///
    /// Delon and Sabater ("How accurate can block matches be in stereo vision?", SIAM Journal on
    /// Imaging Sciences 4(4), 2011) prove and measure that block matching on well-sampled,
    /// textured patches with good signal-to-noise ratio reaches about 1/20 px. Intel's D400
    /// white papers (Grunnet-Jepsen et al., "Subpixel linearity improvement for Intel RealSense
    /// depth cameras") use the same law, depth error = Z² · subpixel / (f · B), with sub-pixel
    /// steps of a small fraction of a pixel on textured targets. A phone matches natural scenes
    /// with small pixels in dim light, so we take twice the best case.
    public static let typicalMatchingPrecisionPixels = 0.1

    /// A model from its values.
    public init(
        baseline: Vector3, matchingPrecisionPixels: Double = DisparityModel.typicalMatchingPrecisionPixels,
        calibrationScaleError: Double = 0.03, calibrationOffsetError: Double = 0.01, minimumDepth: Double = 0,
        maximumDepth: Double = .infinity, disparityPrecision: Double? = nil, matchingWindow: Int = 1,
        minimumTextureSNR: Double = 0, matcherSensor: MatcherSensor? = nil
    ) {
        precondition(matchingWindow > 0, "a matching window has at least one pixel")
        self.baseline = baseline
        self.matchingPrecisionPixels = matchingPrecisionPixels
        self.calibrationScaleError = calibrationScaleError
        self.calibrationOffsetError = calibrationOffsetError
        self.minimumDepth = minimumDepth
        self.maximumDepth = maximumDepth
        self.disparityPrecision = disparityPrecision
        self.matchingWindow = matchingWindow
        self.minimumTextureSNR = minimumTextureSNR
        self.matcherSensor = matcherSensor
    }

    /// The model of a profile's dual (or other multi-camera) device.
    ///
    /// The baseline is the difference of the first two constituents' extrinsic translations
    /// (spec §10: millimetres relative to the reference camera), falling back to the profile's
    /// `baseline_mm` along +x. The profile's relative error at 1 m is the rated accuracy: the depth
    /// error σ_Z at 1 m, so the matcher's precision is that many 1/m in disparity (σ_Z = Z² · σ_d), and
    /// the per-capture scale error, which makes the map relative, has the same size. The rated range
    /// is the profile's minimum and maximum range; the window `typicalMatchingWindow`; textureless
    /// surfaces are holes when the profile's holes say so.
    public init(device: DeviceProfile, camera: CameraProfile) throws {
        guard let capability = camera.depth, capability.technology == .dualCameraDisparity else {
            throw DeviceCameraError(
                description: "\(device.sourceFile): camera \(camera.id) of \(device.id) measures no stereo disparity")
        }
        let poses = camera.constituents.prefix(2).compactMap { device.camera($0)?.extrinsics?.translationMM }
        var b: Vector3
        if poses.count == 2, poses[0].count == 3, poses[1].count == 3 {
            b = Vector3(poses[1][0] - poses[0][0], poses[1][1] - poses[0][1], poses[1][2] - poses[0][2]) / 1000
        } else {
            b = .zero
        }
        if b.length == 0, let mm = capability.baselineMM { b = Vector3(mm / 1000, 0, 0) }
        guard b.length > 0 else {
            throw DeviceCameraError(
                description: "\(device.sourceFile): camera \(camera.id) of \(device.id) has no baseline")
        }
        // The matcher compares the picture of the camera that renders the device's video (its wide
        // constituent): its sensor's photosite noise, and its focal length in photosites (the intrinsics'
        // reference scaled to the full readout).
        var sensor: MatcherSensor?
        if let physical = try? device.renderingCamera(for: camera), let noise = physical.noise,
            let intrinsics = physical.intrinsics, let optics = physical.optics, intrinsics.reference.width > 0
        {
            let sensorWidth = Double(optics.sensor.width > 0 ? optics.sensor.width : intrinsics.reference.width)
            sensor = MatcherSensor(
                photositeNoise: NoiseParameters(profile: noise, unit: device.id + "/" + physical.id),
                focalLengthPhotosites: intrinsics.fx * sensorWidth / Double(intrinsics.reference.width))
        }
        self.init(
            baseline: b, calibrationScaleError: capability.relativeErrorAt1m, calibrationOffsetError: 0,
            minimumDepth: capability.minRangeM, maximumDepth: capability.maxRangeM,
            disparityPrecision: capability.relativeErrorAt1m, matchingWindow: Self.typicalMatchingWindow,
            minimumTextureSNR: capability.holes == .occlusionAndTextureless ? Self.typicalMinimumTextureSNR : 0,
            matcherSensor: sensor)
    }

    /// The standard deviation of the disparity noise for a focal length in pixels (at the map's
    /// scale), 1/m: a shift of one pixel is 1 / (f_px · B) in normalised disparity.
    /// `disparityPrecision`, when set, is the answer at every focal length.
    public func noiseSigma(focalLengthPixels f: Double) -> Double {
        if let disparityPrecision { return disparityPrecision }
        return lateralBaseline > 0 ? matchingPrecisionPixels / (f * lateralBaseline) : 0
    }

    /// The standard deviation of the depth noise at distance `z`, metres: σ_Z = Z² · σ_d, the
    /// first-order error of Z = 1/d, valid while σ_d · Z is small.
    public func depthNoiseSigma(depth z: Double, focalLengthPixels f: Double) -> Double {
        z * z * noiseSigma(focalLengthPixels: f)
    }

    /// The smallest and largest disparity the matcher accepts at a noise σ_d (1/m): the rated range
    /// widened by four σ_d on either side (see the type's notes), never below zero.
    public func acceptedDisparities(noiseSigma sigma: Double) -> ClosedRange<Double> {
        let margin = 4 * max(sigma, 0)
        let low = maximumDepth.isFinite && maximumDepth > 0 ? max(1 / maximumDepth - margin, 0) : 0
        let high = minimumDepth > 0 ? 1 / minimumDepth + margin : .infinity
        return low...max(low, high)
    }

    /// The baseline's length across the optical axis, the part that shifts pixels.
    public var lateralBaseline: Double { (baseline.x * baseline.x + baseline.y * baseline.y).squareRoot() }

    /// A disparity map of what `renderer` sees, the renderer's camera sized like the map; `image`
    /// is the frame the matcher compares (needed for textureless holes, see the type's notes).
    ///
    /// The values follow the renderer's pixels, so the map carries the image's lens distortion.
    /// `seed` fixes the noise and this capture's calibration error. Measured disparities outside
    /// `acceptedDisparities(noiseSigma:)`, or not above zero, are holes.
    public func disparity(
        _ renderer: Renderer, seed: UInt64, format: DepthPixelFormat = .disparityFloat32,
        calibration: CameraCalibration? = nil, image: RawFrame? = nil
    ) -> DepthMap {
        disparity(
            DepthObservation(renderer, image: image), focalLengthPixels: renderer.camera.fx, seed: seed,
            format: format, calibration: calibration)
    }

    /// A disparity map of a prepared observation: the holes from occlusion and texture come from the
    /// observation, the noise and calibration error from `seed` (a stream passes a new seed per frame).
    public func disparity(
        _ observation: DepthObservation, focalLengthPixels: Double, seed: UInt64,
        format: DepthPixelFormat = .disparityFloat32, calibration: CameraCalibration? = nil
    ) -> DepthMap {
        let geometry = observation.geometry
        let (w, h) = (geometry.width, geometry.height)
        let hidden = observation.hiddenMask(cameraOffset: baseline)
        let textureless = observation.mask(TexturelessKey(model: self, focalLengthPixels: focalLengthPixels)) {
            texturelessMask(observation, focalLengthPixels: focalLengthPixels)
        }
        let sigma = noiseSigma(focalLengthPixels: focalLengthPixels)
        let capture = CounterRandom(seed: seed, stream: 0xD15A, pixel: -1)
        let scale = 1 + calibrationScaleError * capture.normal(0)
        let offset = calibrationOffsetError * capture.normal(1)
        let accepted = acceptedDisparities(noiseSigma: sigma)
        let noise = sigma > 0 ? correlatedNoise(width: w, height: h, seed: seed) : []
        var values = [Float](repeating: .nan, count: w * h)
        var holes = 0
        for i in values.indices {
            let z = Double(geometry.depth[i])
            guard z.isFinite, z > 0, !hidden[i], !textureless[i] else {
                holes += 1
                continue
            }
            let measured = Float(scale / z + offset + (sigma > 0 ? sigma * noise[i] : 0))
            // The matcher's search window: no match is accepted outside it (see the type's notes).
            guard measured > 0, accepted.contains(Double(measured)) else {
                holes += 1
                continue
            }
            values[i] = measured
        }
        let map = DepthMap(
            width: w, height: h, format: .disparityFloat32, values: values,
            accuracy: .relative, quality: DepthQuality(holeFraction: Double(holes) / Double(values.count)),
            calibration: calibration)
        return map.converting(to: format)
    }

    /// Unit-variance noise per pixel, averaged over the matching window: white draws summed over the
    /// window (clipped at the map's edges) and divided by the square root of their count, so every
    /// pixel keeps variance 1 and neighbours share the draws of their common window. A window of one
    /// pixel gives the white draws themselves.
    func correlatedNoise(width w: Int, height h: Int, seed: UInt64) -> [Double] {
        let white = (0..<(w * h)).map { CounterRandom(seed: seed, stream: 0xD15B, pixel: $0).normal(0) }
        let r = (matchingWindow - 1) / 2
        guard r > 0 else { return white }
        // Separable box sums: rows, then columns.
        var rows = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var s = 0.0
                for dx in max(0, x - r)...min(w - 1, x + r) { s += white[y * w + dx] }
                rows[y * w + x] = s
            }
        }
        var out = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            let ny = Double(min(h - 1, y + r) - max(0, y - r) + 1)
            for x in 0..<w {
                let nx = Double(min(w - 1, x + r) - max(0, x - r) + 1)
                var s = 0.0
                for dy in max(0, y - r)...min(h - 1, y + r) { s += rows[dy * w + x] }
                out[y * w + x] = s / (nx * ny).squareRoot()
            }
        }
        return out
    }

    /// For every map pixel, whether its matching window is too weakly textured to match (see the
    /// type's notes); all false without a texture test, without `matcherSensor`, or without an image that
    /// keeps its noise-free light (`RawFrame.ambientElectrons`).
    /// What a textureless mask depends on besides the observation.
    private struct TexturelessKey: Hashable {
        var model: DisparityModel
        var focalLengthPixels: Double
    }

    func texturelessMask(_ observation: DepthObservation, focalLengthPixels: Double) -> [Bool] {
        let (w, h) = (observation.width, observation.height)
        guard minimumTextureSNR > 0, let sensor = matcherSensor, let frame = observation.image,
            let ambient = frame.ambientElectrons
        else { return [Bool](repeating: false, count: w * h) }
        let flash = frame.flashElectrons
        let dark = sensor.photositeNoise.darkCurrentElectronsPerSecond * frame.exposure.time
        let noise = sensor.noise(focalLengthPixels: focalLengthPixels)
        // The matcher's luminance at the map's size, noise-free: the mean of R, G and B mean electrons per
        // photosite (nearest frame pixel), and the variance photon transfer gives it: each channel's variance
        // at a mean S is S/n (shot noise of n photosites, dark signal included) + read² + (PRNU·S)² + DSNU²
        // with the readout's figures, and the mean of three independent channels has a ninth of their sum.
        var lum = [Double](repeating: 0, count: w * h)
        var variance = [Double](repeating: 0, count: w * h)
        let read2 = noise.readNoiseElectrons * noise.readNoiseElectrons + noise.dsnuElectrons * noise.dsnuElectrons
        for y in 0..<h {
            let fy = min(frame.height - 1, (2 * y + 1) * frame.height / (2 * h))
            for x in 0..<w {
                let fx = min(frame.width - 1, (2 * x + 1) * frame.width / (2 * w))
                let j = (fy * frame.width + fx) * 3
                var sum = 0.0, v = 0.0
                for c in 0..<3 {
                    let signal = max(0, Double(ambient[j + c]) + Double(flash?[j + c] ?? 0)) + dark
                    sum += signal
                    v += signal / noise.photositesPerPixel + read2 + (noise.prnu * signal) * (noise.prnu * signal)
                }
                lum[y * w + x] = sum / 3
                variance[y * w + x] = v / 9
            }
        }
        let r = max(1, (matchingWindow - 1) / 2)
        var mask = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum = 0.0, squares = 0.0, noiseSum = 0.0, n = 0.0
                for yy in max(0, y - r)...min(h - 1, y + r) {
                    for xx in max(0, x - r)..<min(w - 1, x + r) {
                        let d = lum[yy * w + xx + 1] - lum[yy * w + xx]
                        sum += d
                        squares += d * d
                        // A difference of two pixels carries the sum of their variances.
                        noiseSum += variance[yy * w + xx + 1] + variance[yy * w + xx]
                        n += 1
                    }
                }
                guard n > 1 else { continue }
                let mean = sum / n
                let texture = squares / n - mean * mean
                mask[y * w + x] = texture < minimumTextureSNR * max(noiseSum / n, 1e-12)
            }
        }
        return mask
    }
}
