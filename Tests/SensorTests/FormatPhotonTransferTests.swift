import Devices
import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Photon transfer per format: a flat field rendered through a profile camera at a format's size, its
/// variance against its mean fitted over several exposures, compared with the closed form of the
/// format's readout (the *How the physics works* article's readouts) computed here from the profile's
/// figures alone.
///
/// A pixel of a picture W × H holds `across²` photosites, `across = min(sensor w / W, sensor h / H)`
/// (a 16:9 picture is a band of the 4:3 sensor at its pitch); a binned read sums k = 4 of them when they
/// fit (else the picture is read in full, k = 1), and the ISP averages a = max(1, across²/k) reads, so
/// n = k·a. With K = (white − black) / full well · ISO / base ISO and μ the mean code above black:
/// σ² = (K/n)·μ + K²·(a·σ_read²/n² + dsnu²/n) + (prnu²/n)·μ² + 1/12.
struct FormatPhotonTransferTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let device: String
        let camera: String
        let format: String
        /// The picture's size: the format's video, or a photo size it offers.
        let width: Int
        let height: Int
        /// The readout the profile gives the format, and the photosites a pixel holds.
        let mode: FormatReadout.Mode
        let photosites: Double
        var testDescription: String { "\(device) \(camera) \(format) at \(width)x\(height)" }
    }

    /// Three formats of two devices: a binned video averaged down, a scaled video, and a full photo
    /// of a binned format (iPhone 14, 12 MP); a stated binned and unbinned pair and a small binned
    /// video (iPhone 15 Pro, 48 MP).
    static let cases: [Case] = [
        Case(
            device: "iphone-14", camera: "back-wide", format: "1440x1080-420f", width: 1440, height: 1080,
            mode: .binned, photosites: 2.8 * 2.8),
        Case(
            device: "iphone-14", camera: "back-wide", format: "3840x2160-420v", width: 3840, height: 2160,
            mode: .scaled, photosites: 1.05 * 1.05),
        Case(
            device: "iphone-14", camera: "back-wide", format: "1440x1080-420f", width: 4032, height: 3024,
            mode: .binned, photosites: 1),
        Case(
            device: "iphone-15-pro", camera: "back-lidar", format: "1920x1440-420f-binned", width: 1920,
            height: 1440, mode: .binned, photosites: 4.2 * 4.2),
        Case(
            device: "iphone-15-pro", camera: "back-lidar", format: "1920x1440-420f", width: 1920,
            height: 1440, mode: .scaled, photosites: 4.2 * 4.2),
        Case(
            device: "iphone-15-pro", camera: "back-wide", format: "640x480-420v", width: 640, height: 480,
            mode: .binned, photosites: 12.6 * 12.6),
    ]

    static func profile(_ id: String) throws -> DeviceProfile {
        try DeviceCatalog(directory: DeviceProfileAdapterTests.profiles).profile(id)
    }

    /// The closed form of a format's photon-transfer curve, from the profile's figures.
    struct Model {
        let slope: Double, floor: Double, prnu2: Double
        func variance(_ mu: Double) -> Double { slope * mu + floor + prnu2 * mu * mu }
    }

    static func model(
        sensor: Dimensions, noise: NoiseModel, readout: FormatReadout, width: Int, height: Int, iso: Double
    ) -> (Model, n: Double) {
        let across = min(Double(sensor.width) / Double(width), Double(sensor.height) / Double(height))
        let k = readout.mode == .binned && across * across >= 4 - 1e-9 ? 4.0 : 1.0
        let a = max(1, across * across / k)
        let n = k * a
        let read = k == 4 ? readout.binnedReadNoiseE ?? noise.readNoiseE : noise.readNoiseE
        let gain = Double(noise.whiteLevelDN - noise.blackLevelDN) / noise.fullWellE * iso / noise.baseISO
        let prnu = noise.prnuPercent / 100
        return (
            Model(
                slope: gain / n,
                floor: gain * gain * (a * read * read / (n * n) + noise.dsnuE * noise.dsnuE / n) + 1.0 / 12,
                prnu2: prnu * prnu / n),
            n
        )
    }

    /// The five exposures' (mean above black, variance) of every channel, and the model.
    static func measure(_ c: Case) throws -> (points: [(mu: Double, variance: Double)], model: Model, n: Double) {
        let device = try profile(c.device)
        let camera = try #require(device.camera(c.camera))
        let format = try #require(camera.formats.first { $0.id == c.format })
        let readout = try #require(format.capabilities.readout, "the catalogue states every format's readout")
        #expect(readout.mode == c.mode)
        let physical = try device.renderingCamera(for: camera)
        let sensor = try #require(physical.optics?.sensor), noise = try #require(physical.noise)
        // The picture's camera, through the path photos and streams take; rendered 256 wide with the
        // picture's per-pixel noise (`scaled` keeps it), without the lens's fall-off, which would spread
        // a flat field's mean across the frame.
        var model = try CameraModel(device: device, camera: camera, width: c.width, height: c.height, readout: readout)
        model.shading = nil
        let small = model.scaled(toWidth: 256, height: 256 * c.height / c.width)
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        let renderer = Renderer(scene: scene, camera: small, flash: nil)
        let probe = renderer.render(Exposure(time: 1, iso: noise.baseISO))
        let rate = TestScenes.mean(probe.ambientElectrons ?? [], channel: 1)
        // An ISO that puts ~0.1 DN per photosite electron of the mean (at most 64× base), so the
        // noise spans several codes even where a pixel holds a hundred photosites.
        let gainAtBase = Double(noise.whiteLevelDN - noise.blackLevelDN) / noise.fullWellE
        let n0 = Self.model(
            sensor: sensor, noise: noise, readout: readout, width: c.width, height: c.height, iso: noise.baseISO
        ).n
        let iso = noise.baseISO * min(max(0.1 * n0 / gainAtBase, 1), 64)
        let (closed, n) = Self.model(
            sensor: sensor, noise: noise, readout: readout, width: c.width, height: c.height, iso: iso)
        let gain = gainAtBase * iso / noise.baseISO
        var points: [(mu: Double, variance: Double)] = []
        for (i, target) in [20.0, 60, 150, 350, 600].enumerated() {
            let frame = renderer.render(Exposure(time: target / (gain * rate), iso: iso, seed: 40 + UInt64(i)))
            let codes = frame.dn.map(Float.init)
            for channel in 0..<3 {
                let mu = TestScenes.mean(codes, channel: channel) - Double(noise.blackLevelDN)
                guard mu > 5, mu < 0.7 * Double(noise.whiteLevelDN - noise.blackLevelDN) else { continue }
                points.append((mu, TestScenes.variance(codes, channel: channel)))
            }
        }
        return (points, closed, n)
    }

    /// Least squares of σ² = c₀ + c₁μ + c₂μ² over the points (normal equations, 3 × 3).
    static func fit(_ points: [(mu: Double, variance: Double)]) -> (Double) -> Double {
        var m = [[Double]](repeating: [0, 0, 0, 0], count: 3)
        for p in points {
            let x = [1, p.mu, p.mu * p.mu]
            for r in 0..<3 {
                for c in 0..<3 { m[r][c] += x[r] * x[c] }
                m[r][3] += x[r] * p.variance
            }
        }
        for col in 0..<3 {
            let pivot = (col..<3).max { abs(m[$0][col]) < abs(m[$1][col]) } ?? col
            m.swapAt(col, pivot)
            for r in 0..<3 where r != col {
                let f = m[r][col] / m[col][col]
                for c in col..<4 { m[r][c] -= f * m[col][c] }
            }
        }
        let c = (0..<3).map { m[$0][3] / m[$0][$0] }
        return { mu in c[0] + c[1] * mu + c[2] * mu * mu }
    }

    /// The fitted curve and every measured point match the closed form within 5 %. Each point's sample
    /// variance over ≥ 36,864 pixels has a relative standard error √(2/N) ≤ 0.74 % (the PRNU product's
    /// excess kurtosis adds under 10 % to that), so 5 % is over 6σ; a readout modelled as the wrong one
    /// misses by far more (binned against scaled differ by the read noise, 4× in variance at n = 17.6;
    /// one photosite against 7.8 by 7.8× in the shot term).
    @Test(arguments: cases) func varianceAgainstMeanMatchesTheReadout(_ c: Case) throws {
        let (points, model, n) = try Self.measure(c)
        #expect(abs(n / c.photosites - 1) < 1e-9, "photosites per pixel \(n)")
        #expect(points.count >= 10)
        let curve = Self.fit(points)
        for p in points {
            let expected = model.variance(p.mu)
            #expect(abs(p.variance / expected - 1) < 0.05, "μ = \(p.mu): σ² \(p.variance), model \(expected)")
            #expect(abs(curve(p.mu) / expected - 1) < 0.05, "μ = \(p.mu): fit \(curve(p.mu)), model \(expected)")
        }
    }

    /// Every readout of one scene gives the same codes at one exposure: the 12 MP photo (one photosite a
    /// pixel) and the 1440 × 1080 binned video of its format (7.8) agree in mean green within 0.5 %, where
    /// the means over 49,152 pixels are known to 0.05 %.
    @Test func readoutsKeepTheCodesOfAScene() throws {
        let device = try Self.profile("iphone-14")
        let camera = try #require(device.camera("back-wide"))
        let readout = try #require(camera.formats.first { $0.id == "1440x1080-420f" }?.capabilities.readout)
        let scene = Scene(
            objects: [TestScenes.wall(distance: 1)], ambient: TestScenes.frontalD65(lux: 100),
            device: TestScenes.device)
        func meanGreen(_ width: Int, _ height: Int) throws -> Double {
            var model = try CameraModel(device: device, camera: camera, width: width, height: height, readout: readout)
            model.shading = nil
            let frame = Renderer(scene: scene, camera: model.scaled(toWidth: 256, height: 192), flash: nil)
                .render(Exposure(time: 0.1, iso: 40, seed: 5))
            return TestScenes.mean(frame.dn.map(Float.init), channel: 1) - 64
        }
        let photo = try meanGreen(4032, 3024), video = try meanGreen(1440, 1080)
        #expect(photo > 100)
        #expect(abs(video / photo - 1) < 0.005, "photo \(photo), video \(video)")
    }
}
