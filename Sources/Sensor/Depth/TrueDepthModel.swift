import Devices
import Foundation
import Imaging
import Scenes

/// Depth from a structured-light camera (TrueDepth): an infrared dot projector beside an
/// infrared camera, absolute accuracy (spec §9 [D]: TrueDepth maps are absolute).
///
/// Holes follow the physics of a projected pattern:
/// - **projector shadow**: points the projector cannot reach, a band beside every near edge,
///   offset by the projector–camera baseline (the same occlusion test as a stereo pair);
/// - **range**: nearer than the minimum or farther than the maximum distance;
/// - **grazing angles**: the dots smear once the surface turns more than `maximumIncidence`
///   from the projector;
/// - **weak return**: the infrared albedo (the material's reflectance at 700–780 nm, the nearest
///   band our spectra hold) times cos θ over the squared distance falls below `minimumSignal`;
/// - **specular surfaces**: a glossy material mirrors the pattern away.
///
/// Valid pixels carry Gaussian depth noise σ_Z = relativeErrorAt1m · Z² (metres, Z in metres):
/// triangulation error grows with the square of distance (σ_Z = Z² σ_d / (f·B)).
public struct TrueDepthModel: Sendable, Hashable {
    /// The projector's centre in the camera frame, metres (x right, y down, z forward).
    public var projectorOffset: Vector3
    /// Nearest and farthest measurable depth, metres.
    public var minimumDepth: Double, maximumDepth: Double
    /// Depth noise at 1 m, relative (0.01 = 1 cm at 1 m), growing as Z².
    public var relativeErrorAt1m: Double
    /// The largest angle between surface normal and projector ray that still gives dots, degrees.
    public var maximumIncidenceDegrees: Double
    /// Smallest infrared return ρ · cos θ / d² (1/m²) that the camera still decodes.
    public var minimumSignal: Double
    /// Materials at least this glossy (specular strength) give no dots back.
    public var specularLimit: Double

    /// TrueDepth's native map sizes: 640×480 for 4:3 video and 640×360 for 16:9 (spec §7 [T W18]).
    public static let nativeSizes = [Dimensions(width: 640, height: 480), Dimensions(width: 640, height: 360)]

    /// The native map size for a video aspect ratio: 640×360 for 16:9, 640×480 otherwise.
    public static func nativeSize(videoWidth: Int, videoHeight: Int) -> Dimensions {
        videoWidth * 9 == videoHeight * 16 ? nativeSizes[1] : nativeSizes[0]
    }

    /// A model from its values. The default projector sits 25 mm to the camera's right, a
    /// modelled figure for the notch layout.
    public init(
        projectorOffset: Vector3 = Vector3(0.025, 0, 0), minimumDepth: Double = 0.15, maximumDepth: Double = 1.5,
        relativeErrorAt1m: Double = 0.01, maximumIncidenceDegrees: Double = 75, minimumSignal: Double = 0.02,
        specularLimit: Double = 0.5
    ) {
        self.projectorOffset = projectorOffset
        self.minimumDepth = minimumDepth
        self.maximumDepth = maximumDepth
        self.relativeErrorAt1m = relativeErrorAt1m
        self.maximumIncidenceDegrees = maximumIncidenceDegrees
        self.minimumSignal = minimumSignal
        self.specularLimit = specularLimit
    }

    /// The model of a profile's structured-light camera: its range and error at 1 m.
    public init(device: DeviceProfile, camera: CameraProfile) throws {
        guard let capability = camera.depth, capability.technology == .structuredLight else {
            throw DeviceCameraError(
                description: "\(device.sourceFile): camera \(camera.id) of \(device.id) has no structured light")
        }
        self.init(
            minimumDepth: capability.minRangeM, maximumDepth: capability.maxRangeM,
            relativeErrorAt1m: capability.relativeErrorAt1m)
    }

    /// The depth noise σ at distance z, metres.
    public func noiseSigma(depth z: Double) -> Double { relativeErrorAt1m * z * z }

    /// A map of what `renderer` sees (its camera sized like the map, normally a native size),
    /// in `format` (TrueDepth delivers disparity by default, spec §7 [D]).
    public func depth(
        _ renderer: Renderer, seed: UInt64, format: DepthPixelFormat = .disparityFloat32,
        calibration: CameraCalibration? = nil
    ) -> DepthMap {
        depth(DepthObservation(renderer), materials: renderer.materials, seed: seed, format: format, calibration: calibration)
    }

    /// A map of a prepared observation of a scene with these materials (the renderer's); `seed`
    /// fixes the noise, so a stream passes a new one per frame.
    public func depth(
        _ observation: DepthObservation, materials: [Material], seed: UInt64,
        format: DepthPixelFormat = .disparityFloat32, calibration: CameraCalibration? = nil
    ) -> DepthMap {
        let geometry = observation.geometry
        let hidden = observation.hiddenMask(cameraOffset: projectorOffset)
        let projector = geometry.world(cameraOffset: projectorOffset)
        let cosLimit = cos(maximumIncidenceDegrees * .pi / 180)
        let infrared = materials.map { m in
            [700.0, 720, 740, 760, 780].reduce(0) { $0 + m.reflectance.value(at: $1) } / 5
        }
        var values = [Float](repeating: .nan, count: geometry.depth.count)
        var holes = 0
        for i in values.indices {
            let z = Double(geometry.depth[i])
            let m = geometry.materials[i]
            guard z.isFinite, m >= 0, z >= minimumDepth, z <= maximumDepth,
                materials[m].specularStrength < specularLimit
            else {
                holes += 1
                continue
            }
            let toProjector = projector - geometry.points[i]
            let d = toProjector.length
            let cosTheta = geometry.normals[i].dot(toProjector) / d
            guard cosTheta >= cosLimit, infrared[m] * cosTheta / (d * d) >= minimumSignal,
                !hidden[i]
            else {
                holes += 1
                continue
            }
            let noise = noiseSigma(depth: z) * CounterRandom(seed: seed, stream: 0x7D, pixel: i).normal(0)
            values[i] = Float(z + noise)
        }
        let map = DepthMap(
            width: geometry.width, height: geometry.height, format: .depthFloat32, values: values,
            accuracy: .absolute, quality: DepthQuality(holeFraction: Double(holes) / Double(values.count)),
            calibration: calibration)
        return map.converting(to: format)
    }
}
