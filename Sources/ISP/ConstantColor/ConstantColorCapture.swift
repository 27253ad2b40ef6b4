import Devices
import Imaging
import Scenes
import Sensor

/// Everything the Constant Color pipeline is given of one capture: what the phone itself reads out and measures.
///
/// The two exposures as the sensor reports them (`SensorReadout`: DN and exposure, no ground truth), and the depth
/// the device's own depth sensor measured while the flash fired, if it has one. The render's exact depth, its object
/// and material ids and its noise-free components stay with the render (`ConstantColorResult.Diagnostics` keeps the
/// rendered frames for evaluation): this type has no place for them, so the pipeline cannot read them.
public struct ConstantColorCapture: Sendable {
    /// The frame without flash.
    public let ambient: SensorReadout
    /// The frame with the flash, `ConstantColorCapturePlan.interval` later.
    public let flash: SensorReadout
    /// The device's depth measurement in the flash frame's view (absolute depth or disparity, NaN holes), at any
    /// size; nil where the device measures none (no depth sensor, or one with relative accuracy only).
    public let depth: DepthMap?

    /// A capture from its parts. A depth map of relative accuracy gives no distances, so it is dropped.
    public init(ambient: SensorReadout, flash: SensorReadout, depth: DepthMap?) {
        precondition(
            ambient.width == flash.width && ambient.height == flash.height, "the two frames must have one size")
        self.ambient = ambient
        self.flash = flash
        self.depth = depth?.accuracy == .absolute ? depth : nil
    }

    /// The measured depth at every pixel of the frames (metres along the optical axis, NaN where unknown):
    /// the map's depth interpolated bilinearly between the four samples around each pixel centre, in disparity
    /// (a plane is linear in 1/z over the image), or the nearest known sample where any of the four is a hole.
    /// Empty without a measurement.
    func depthPlane() -> [Float] {
        guard let map = depth else { return [] }
        let width = flash.width, height = flash.height
        let disparity = map.isDisparity ? map.values : map.values.map { $0 > 0 ? 1 / $0 : .nan }
        let sx = Float(map.width) / Float(width), sy = Float(map.height) / Float(height)
        // Each column's samples and weight, worked out once rather than on every row.
        let columns = (0..<width).map { x in
            let u = min(max((Float(x) + 0.5) * sx - 0.5, 0), Float(map.width - 1))
            return (x0: Int(u), x1: min(Int(u) + 1, map.width - 1), a: u - Float(Int(u)))
        }
        return disparity.withUnsafeBufferPointer { samples in
            let samples = SharedReadPointer(samples)
            return BandParallel.fill(count: width * height, rows: height, of: Float.self) { rows, out in
                for y in rows {
                    let v = min(max((Float(y) + 0.5) * sy - 0.5, 0), Float(map.height - 1))
                    let y0 = Int(v), y1 = min(Int(v) + 1, map.height - 1), b = v - Float(y0)
                    let upper = samples.base + y0 * map.width, lower = samples.base + y1 * map.width
                    for x in 0..<width {
                        let (x0, x1, a) = columns[x]
                        let d00 = upper[x0], d10 = upper[x1], d01 = lower[x0], d11 = lower[x1]
                        var d: Float
                        if d00 > 0, d10 > 0, d01 > 0, d11 > 0 {
                            let top = d00 + a * (d10 - d00), bottom = d01 + a * (d11 - d01)
                            d = top + b * (bottom - top)
                        } else {
                            d = Self.nearestKnown(d00, d10, d01, d11, a: a, b: b)
                        }
                        out[y * width + x] = d > 0 ? 1 / d : .nan
                    }
                }
            }
        }
    }

    /// Of the four samples around a point (weights (1 − a)(1 − b), a(1 − b), (1 − a)b and ab), the known one with
    /// the largest weight, the first of equal weights; NaN where none is known.
    static func nearestKnown(_ d00: Float, _ d10: Float, _ d01: Float, _ d11: Float, a: Float, b: Float) -> Float {
        var best = Float.nan, weight = -Float.infinity
        for (d, w) in [(d00, (1 - a) * (1 - b)), (d10, a * (1 - b)), (d01, (1 - a) * b), (d11, a * b)]
        where d > 0 && w > weight {
            (best, weight) = (d, w)
        }
        return best
    }
}

/// How a device measures depth for a Constant Color capture.
public enum ConstantColorDepthSensor: Sendable, Hashable {
    /// No depth: the flash's fall-off is known only from the frames.
    case none
    /// A time-of-flight scanner's dots (`LiDARModel`), densified to a map (`DepthDensifier`).
    case lidar(LiDARModel)
    /// An error-free sensor that measures every pixel's depth exactly: what no phone has, for showing what
    /// depth errors cost (`ConstantColorPipeline.Settings.ideal`) and for tests of the depth-driven steps.
    case ideal

    /// The back LiDAR scanner of a device's camera, if the profile lists one at the camera's position; else none.
    public init(device: DeviceProfile, camera: CameraProfile) {
        let scanner = device.cameras.first { $0.depth?.technology == .timeOfFlight && $0.position == camera.position }
        if let scanner, let model = try? LiDARModel(device: device, camera: scanner) {
            self = .lidar(model)
        } else {
            self = .none
        }
    }

    /// The sensor's measurement of what `renderer` sees at the flash frame (its depth plane for `.ideal`), or nil.
    /// A LiDAR's dots fall on `renderer`'s image (the scanner is taken to share the camera's view: it sits a
    /// centimetre or two away, a parallax below its dot spacing beyond 0.3 m) and are densified at no more than 192
    /// pixels across, enough for a grid of a few dozen dots a side.
    func measure(renderer: Renderer, flashFrame: RawFrame, seed: UInt64) -> DepthMap? {
        switch self {
        case .none:
            return nil
        case .ideal:
            return DepthMap(
                width: flashFrame.width, height: flashFrame.height, format: .depthFloat32, values: flashFrame.depth,
                accuracy: .absolute)
        case let .lidar(model):
            let dots = model.samples(renderer, seed: seed)
            let scale = min(1, 192 / Double(dots.width))
            let w = max(1, Int((Double(dots.width) * scale).rounded()))
            let h = max(1, Int((Double(dots.height) * scale).rounded()))
            let sx = Double(w) / Double(dots.width), sy = Double(h) / Double(dots.height)
            let samples = DepthSamples(
                width: w, height: h,
                samples: dots.samples.map { .init(x: $0.x * sx, y: $0.y * sy, depth: $0.depth) },
                projectedCount: dots.projectedCount)
            return DepthDensifier().densify(samples)
        }
    }
}
