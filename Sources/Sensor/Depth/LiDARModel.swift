import Devices
import Scenes

/// Sparse depth samples, as a time-of-flight scanner returns them before densification.
public struct DepthSamples: Sendable, Hashable {
    /// One measured dot: its position in image pixels (origin top-left) and its depth, metres.
    public struct Sample: Sendable, Hashable {
        /// Image position of the dot's centre, pixels.
        public var x: Double, y: Double
        /// Measured depth along the optical axis, metres.
        public var depth: Double

        /// A sample from its values.
        public init(x: Double, y: Double, depth: Double) {
            self.x = x
            self.y = y
            self.depth = depth
        }
    }

    /// The image size the positions refer to.
    public var width: Int, height: Int
    /// The dots that returned a measurement.
    public var samples: [Sample]
    /// How many dots were projected, including those that returned nothing.
    public var projectedCount: Int

    /// Samples from their values.
    public init(width: Int, height: Int, samples: [Sample], projectedCount: Int) {
        self.width = width
        self.height = height
        self.samples = samples
        self.projectedCount = projectedCount
    }
}

/// Depth from a LiDAR scanner: a regular grid of time-of-flight dots over the field of view,
/// absolute accuracy (spec §9 [D]), densified later under guidance of the image
/// (`DepthDensifier` in ISP).
///
/// Each dot measures the ground-truth depth of the pixel it falls on, plus Gaussian noise
/// σ = relativeErrorAt1m · Z (time-of-flight error grows with the distance, not its square).
/// Dots return nothing beyond the range or from surfaces whose infrared return
/// ρ · cos θ / Z² falls below `minimumSignal`.
public struct LiDARModel: Sendable, Hashable {
    /// Dot columns and rows over the field of view (24 × 24 = 576 dots by default, a modelled
    /// figure for the scanners in recent iPhones and iPads).
    public var columns: Int, rows: Int
    /// Farthest measurable depth, metres.
    public var maximumDepth: Double
    /// Depth noise at 1 m, relative, growing linearly with depth.
    public var relativeErrorAt1m: Double
    /// Smallest infrared return ρ · cos θ / Z² (1/m²) still measured.
    public var minimumSignal: Double

    /// A model from its values.
    public init(
        columns: Int = 24, rows: Int = 24, maximumDepth: Double = 5, relativeErrorAt1m: Double = 0.01,
        minimumSignal: Double = 0.001
    ) {
        precondition(columns > 0 && rows > 0, "a LiDAR grid needs dots")
        self.columns = columns
        self.rows = rows
        self.maximumDepth = maximumDepth
        self.relativeErrorAt1m = relativeErrorAt1m
        self.minimumSignal = minimumSignal
    }

    /// The model of a profile's time-of-flight camera: its range and error at 1 m.
    public init(device: DeviceProfile, camera: CameraProfile) throws {
        guard let capability = camera.depth, capability.technology == .timeOfFlight else {
            throw DeviceCameraError(
                description: "\(device.sourceFile): camera \(camera.id) of \(device.id) has no time-of-flight scanner")
        }
        self.init(maximumDepth: capability.maxRangeM, relativeErrorAt1m: capability.relativeErrorAt1m)
    }

    /// The depth noise σ at distance z, metres.
    public func noiseSigma(depth z: Double) -> Double { relativeErrorAt1m * z }

    /// The dots' measurements of what `renderer` sees.
    public func samples(_ renderer: Renderer, seed: UInt64) -> DepthSamples {
        samples(DepthObservation(renderer), materials: renderer.materials, seed: seed)
    }

    /// The dots' measurements of a prepared observation of a scene with these materials (the
    /// renderer's); `seed` fixes the noise, so a stream passes a new one per frame.
    public func samples(_ observation: DepthObservation, materials: [Material], seed: UInt64) -> DepthSamples {
        let geometry = observation.geometry
        let infrared = materials.map { m in
            [700.0, 720, 740, 760, 780].reduce(0) { $0 + m.reflectance.value(at: $1) } / 5
        }
        let (w, h) = (geometry.width, geometry.height)
        var out: [DepthSamples.Sample] = []
        for j in 0..<rows {
            for i in 0..<columns {
                // The dot lands on the pixel under its grid position and reports that pixel's centre.
                let px = min(Int((Double(i) + 0.5) * Double(w) / Double(columns)), w - 1)
                let py = min(Int((Double(j) + 0.5) * Double(h) / Double(rows)), h - 1)
                let (x, y) = (Double(px) + 0.5, Double(py) + 0.5)
                let pixel = py * w + px
                let z = Double(geometry.depth[pixel])
                let m = geometry.materials[pixel]
                guard z.isFinite, m >= 0, z <= maximumDepth else { continue }
                let toCamera = geometry.origin - geometry.points[pixel]
                let d = toCamera.length
                let cosTheta = max(geometry.normals[pixel].dot(toCamera) / d, 0)
                guard infrared[m] * cosTheta / (d * d) >= minimumSignal else { continue }
                let random = CounterRandom(seed: seed, stream: 0x11D, pixel: j * columns + i)
                let noise = noiseSigma(depth: z) * random.normal(0)
                out.append(.init(x: x, y: y, depth: z + noise))
            }
        }
        return DepthSamples(width: w, height: h, samples: out, projectedCount: columns * rows)
    }
}
