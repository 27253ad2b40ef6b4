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
/// - **noise** of one matching precision σ_px in pixels at the map's scale, which is
///   σ_d = σ_px / (f_px · B) in 1/m whatever the distance, so the depth error grows as
///   σ_Z = Z² · σ_d (the first-order error of Z = 1/d);
/// - a **calibration error** per capture, a random scale and offset on every value, which is why
///   dual-camera maps are relative (spec §9 [D]: the dual camera is always relative);
/// - **holes where no match is accepted**: a matcher searches pixel shifts between those of its
///   far and near limits, so a measured disparity below 1/`maximumDepth` (which includes every
///   zero or negative one) or above 1/`minimumDepth` is rejected, as a stereo matcher marks values
///   outside its search window invalid. A map therefore never holds a negative disparity or a
///   negative depth, and the noise at the far limit turns into holes rather than wrong values.
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
        maximumDepth: Double = .infinity
    ) {
        self.baseline = baseline
        self.matchingPrecisionPixels = matchingPrecisionPixels
        self.calibrationScaleError = calibrationScaleError
        self.calibrationOffsetError = calibrationOffsetError
        self.minimumDepth = minimumDepth
        self.maximumDepth = maximumDepth
    }

    /// The model of a profile's dual (or other multi-camera) device.
    ///
    /// The baseline is the difference of the first two constituents' extrinsic translations
    /// (spec §10: millimetres relative to the reference camera), falling back to the profile's
    /// `baseline_mm` along +x. The scale error is the profile's relative error at 1 m; the
    /// matchable depths its minimum and maximum range; the matching precision
    /// `typicalMatchingPrecisionPixels`.
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
        self.init(
            baseline: b, calibrationScaleError: capability.relativeErrorAt1m, calibrationOffsetError: 0,
            minimumDepth: capability.minRangeM, maximumDepth: capability.maxRangeM)
    }

    /// The standard deviation of the disparity noise for a focal length in pixels (at the map's
    /// scale), 1/m: a shift of one pixel is 1 / (f_px · B) in normalised disparity.
    public func noiseSigma(focalLengthPixels f: Double) -> Double {
        matchingPrecisionPixels / (f * lateralBaseline)
    }

    /// The standard deviation of the depth noise at distance `z`, metres: σ_Z = Z² · σ_d, the
    /// first-order error of Z = 1/d, valid while σ_d · Z is small.
    public func depthNoiseSigma(depth z: Double, focalLengthPixels f: Double) -> Double {
        z * z * noiseSigma(focalLengthPixels: f)
    }

    /// The smallest and largest disparity the matcher accepts, 1/m.
    public var acceptedDisparities: ClosedRange<Double> {
        let low = maximumDepth.isFinite && maximumDepth > 0 ? 1 / maximumDepth : 0
        let high = minimumDepth > 0 ? 1 / minimumDepth : .infinity
        return low...max(low, high)
    }

    /// The baseline's length across the optical axis, the part that shifts pixels.
    public var lateralBaseline: Double { (baseline.x * baseline.x + baseline.y * baseline.y).squareRoot() }

    /// A disparity map of what `renderer` sees, the renderer's camera sized like the map.
    ///
    /// The values follow the renderer's pixels, so the map carries the image's lens distortion.
    /// `seed` fixes the noise and this capture's calibration error. Measured disparities outside
    /// `acceptedDisparities`, or not above zero, are holes.
    public func disparity(
        _ renderer: Renderer, seed: UInt64, format: DepthPixelFormat = .disparityFloat32,
        calibration: CameraCalibration? = nil
    ) -> DepthMap {
        let geometry = DepthGeometry(renderer: renderer)
        let second = geometry.world(cameraOffset: baseline)
        let sigma = lateralBaseline > 0 ? noiseSigma(focalLengthPixels: renderer.camera.fx) : 0
        let capture = CounterRandom(seed: seed, stream: 0xD15A, pixel: -1)
        let scale = 1 + calibrationScaleError * capture.normal(0)
        let offset = calibrationOffsetError * capture.normal(1)
        let accepted = acceptedDisparities
        var values = [Float](repeating: .nan, count: geometry.depth.count)
        var holes = 0
        for i in values.indices {
            let z = Double(geometry.depth[i])
            guard z.isFinite, z > 0, !geometry.isHidden(pixel: i, from: second) else {
                holes += 1
                continue
            }
            let noise = sigma > 0 ? sigma * CounterRandom(seed: seed, stream: 0xD15B, pixel: i).normal(0) : 0
            let measured = Float(scale / z + offset + noise)
            // The matcher's search window: no match is accepted outside it (see the type's notes).
            guard measured > 0, accepted.contains(Double(measured)) else {
                holes += 1
                continue
            }
            values[i] = measured
        }
        let map = DepthMap(
            width: geometry.width, height: geometry.height, format: .disparityFloat32, values: values,
            accuracy: .relative, quality: DepthQuality(holeFraction: Double(holes) / Double(values.count)),
            calibration: calibration)
        return map.converting(to: format)
    }
}
