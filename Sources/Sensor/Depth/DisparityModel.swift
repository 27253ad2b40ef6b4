import Devices
import Scenes

/// Disparity from a dual camera, derived from the scene's geometry and the stereo baseline
/// (DESIGN "Physics": depth ground truth; avfoundation-capture spec §9).
///
/// Normalised disparity is pixelShift / (f_px · B) = 1 / Z in 1/m (spec §9 [D]), so the model
/// starts from the ground-truth Z of every pixel and adds what a stereo matcher gets wrong:
/// - **holes** where the second camera cannot see the point: a ray from its optical centre to
///   the point meets another surface first, or the surface faces away from it;
/// - **noise** of one matching precision in pixels at the map's scale, which is
///   σ = precision / (f_px · B) in 1/m, whatever the distance;
/// - a **calibration error** per capture, a random scale and offset on every value, which is why
///   dual-camera maps are relative (spec §9 [D]: the dual camera is always relative).
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
    /// Nearest distance the pair can match, metres; nearer points are holes.
    public var minimumDepth: Double

    /// A model from its values.
    public init(
        baseline: Vector3, matchingPrecisionPixels: Double = 1, calibrationScaleError: Double = 0.03,
        calibrationOffsetError: Double = 0.01, minimumDepth: Double = 0
    ) {
        self.baseline = baseline
        self.matchingPrecisionPixels = matchingPrecisionPixels
        self.calibrationScaleError = calibrationScaleError
        self.calibrationOffsetError = calibrationOffsetError
        self.minimumDepth = minimumDepth
    }

    /// The model of a profile's dual (or other multi-camera) device.
    ///
    /// The baseline is the difference of the first two constituents' extrinsic translations
    /// (spec §10: millimetres relative to the reference camera), falling back to the profile's
    /// `baseline_mm` along +x. The scale error is the profile's relative error at 1 m; the
    /// nearest depth its minimum range.
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
            minimumDepth: capability.minRangeM)
    }

    /// The standard deviation of the disparity noise for a focal length in pixels (at the map's
    /// scale): one matching step is 1 / (f_px · B) in 1/m.
    public func noiseSigma(focalLengthPixels f: Double) -> Double {
        matchingPrecisionPixels / (f * lateralBaseline)
    }

    /// The baseline's length across the optical axis, the part that shifts pixels.
    public var lateralBaseline: Double { (baseline.x * baseline.x + baseline.y * baseline.y).squareRoot() }

    /// A disparity map of what `renderer` sees, the renderer's camera sized like the map.
    ///
    /// The values follow the renderer's pixels, so the map carries the image's lens distortion.
    /// `seed` fixes the noise and this capture's calibration error.
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
        var values = [Float](repeating: .nan, count: geometry.depth.count)
        var holes = 0
        for i in values.indices {
            let z = Double(geometry.depth[i])
            guard z.isFinite, z > minimumDepth, !geometry.isHidden(pixel: i, from: second) else {
                holes += 1
                continue
            }
            let noise = sigma > 0 ? sigma * CounterRandom(seed: seed, stream: 0xD15B, pixel: i).normal(0) : 0
            values[i] = Float(scale / z + offset + noise)
        }
        let map = DepthMap(
            width: geometry.width, height: geometry.height, format: .disparityFloat32, values: values,
            accuracy: .relative, quality: DepthQuality(holeFraction: Double(holes) / Double(values.count)),
            calibration: calibration)
        return map.converting(to: format)
    }
}
