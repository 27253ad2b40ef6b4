import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra
import Testing

/// The flash's irradiance at each pixel (`FlashIrradiance`) against the point-source law written out
/// here, and the Constant Color photo of a uniform card against the closed form "one paint, one colour".
struct ConstantColorIrradianceTests {
    /// A pinhole camera at 160 × 120 (the iPhone 15 Pro wide camera's intrinsics, no distortion).
    static func camera() throws -> CameraModel {
        try ConstantColorFixture.pipeline().camera
    }

    /// A plane through `point` with unit normal `normal` (facing the camera) seen by `camera`: the depth
    /// along the optical axis of each pixel, z = (n·P₀) / (n·r), r = ((x − cx)/fx, (y − cy)/fy, 1).
    static func planeDepth(_ camera: CameraModel, point: Vector3, normal: Vector3) -> [Float] {
        var out: [Float] = []
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let r = Vector3((Double(x) + 0.5 - camera.cx) / camera.fx, (Double(y) + 0.5 - camera.cy) / camera.fy, 1)
                out.append(Float(normal.dot(point) / normal.dot(r)))
            }
        }
        return out
    }

    /// E = I · cos^m α · cos θ / d² for a point source at `source` aimed along +Z, written out
    /// independently of the library.
    static func pointSource(
        candela: Double, halfAngleDegrees: Double, source: Vector3, camera: CameraModel, depth: [Float],
        normal: Vector3, x: Int, y: Int
    ) -> Double {
        let z = Double(depth[y * camera.width + x])
        let p = Vector3((Double(x) + 0.5 - camera.cx) / camera.fx * z, (Double(y) + 0.5 - camera.cy) / camera.fy * z, z)
        let v = p - source
        let d = (v * v).sum().squareRoot()
        let m = log(0.5) / log(cos(halfAngleDegrees * .pi / 180))
        let cosAlpha = v.z / d
        let cosTheta = -(normal * v).sum() / d
        return candela * pow(cosAlpha, m) * cosTheta / (d * d)
    }

    /// A plane 0.4 m away turned 35° about the vertical and 10° about the horizontal, lit by a 100 cd
    /// module 2 cm beside the lens with a 30° half-angle beam: at 25 pixels spread over the picture the
    /// map's irradiance is the point-source law's within 1 %. The map interpolates the angular factor
    /// between cells 8 pixels apart; that factor's relative change over a cell is below 3 % here, so
    /// its linear interpolation errs by well under 1 % (the square of the step, over 8).
    @Test func tiltedPlaneMatchesThePointSourceLaw() throws {
        let camera = try Self.camera()
        let normal = Vector3(sin(35 * Double.pi / 180), sin(10 * Double.pi / 180), -cos(35 * Double.pi / 180))
            .normalized
        let depth = Self.planeDepth(camera, point: Vector3(0, 0, 0.4), normal: normal)
        let source = Vector3(0.02, -0.005, 0)
        let m = log(0.5) / log(cos(30 * Double.pi / 180))
        let flash = FlashIrradiance(sources: [.init(positionInCamera: source, beamExponent: m, intensityCandela: 100)])
        let map = try #require(flash.map(camera: camera, depth: depth, cell: 8))
        for y in stride(from: 6, to: camera.height, by: 27) {
            for x in stride(from: 5, to: camera.width, by: 37) {
                let expected = Self.pointSource(
                    candela: 100, halfAngleDegrees: 30, source: source, camera: camera, depth: depth,
                    normal: normal, x: x, y: y)
                let got = map.value(x: x, y: y)
                #expect(abs(got / expected - 1) < 0.01, "(\(x), \(y)): \(got) lux, expected \(expected)")
            }
        }
    }

    /// Two modules of different beams and places add: the map of both is the sum of the laws.
    @Test func modulesAdd() throws {
        let camera = try Self.camera()
        let normal = Vector3(0, 0, -1)
        let depth = Self.planeDepth(camera, point: Vector3(0, 0, 0.6), normal: normal)
        let a = Vector3(-0.01, 0, 0), b = Vector3(0.01, 0.002, 0)
        let flash = FlashIrradiance(sources: [
            .init(positionInCamera: a, beamExponent: log(0.5) / log(cos(25 * Double.pi / 180)), intensityCandela: 40),
            .init(positionInCamera: b, beamExponent: log(0.5) / log(cos(40 * Double.pi / 180)), intensityCandela: 60),
        ])
        let map = try #require(flash.map(camera: camera, depth: depth, cell: 8))
        for (x, y) in [(80, 60), (3, 3), (156, 116), (20, 100)] {
            let expected =
                Self.pointSource(
                    candela: 40, halfAngleDegrees: 25, source: a, camera: camera, depth: depth, normal: normal, x: x,
                    y: y)
                + Self.pointSource(
                    candela: 60, halfAngleDegrees: 40, source: b, camera: camera, depth: depth, normal: normal, x: x,
                    y: y)
            #expect(abs(map.value(x: x, y: y) / expected - 1) < 0.01, "(\(x), \(y))")
        }
    }

    /// A depth measured far coarser than the picture (a phone's LiDAR map: here 40 samples across 1280 pixels, 32
    /// pixels apart) is evaluated at sample points and interpolated between them. At 1280 pixels across the wide
    /// camera, 0.005 rad of view is 4.4 pixels, so the points are 4 pixels apart. At the sample points the value is
    /// the per-pixel evaluation's bit for bit; between them, on a plane turned 35° lit by a beam of m = 2, linear
    /// interpolation over h = 4/f radians errs by h²/8 times the relative second derivative (below 20 per
    /// radian²): under 10⁻⁴, so 2·10⁻⁴ bounds it with the float rounding. Depth as fine as the picture, or a
    /// picture as small as the other tests' (160 pixels, 0.04 rad a pixel), keeps the per-pixel evaluation.
    @Test func coarseDepthIsEvaluatedAtSamplePoints() throws {
        let camera = try ConstantColorFixture.pipeline(width: 1280, height: 960).camera
        let normal = Vector3(sin(35 * Double.pi / 180), 0, -cos(35 * Double.pi / 180)).normalized
        let depth = Self.planeDepth(camera, point: Vector3(0, 0, 0.4), normal: normal)
        let flash = FlashIrradiance(sources: [
            .init(positionInCamera: Vector3(0.015, 0, 0), beamExponent: 2, intensityCandela: 80)
        ])
        let exact = try #require(flash.map(camera: camera, depth: depth, cell: 8))
        let sampled = try #require(flash.map(camera: camera, depth: depth, cell: 8, measuredWidth: 40))
        let fine = try #require(flash.map(camera: camera, depth: depth, cell: 8, measuredWidth: camera.width))
        #expect(exact.sampling == 1 && fine.sampling == 1)
        #expect(sampled.sampling == 4)
        let small = try Self.camera()
        let smallDepth = Self.planeDepth(small, point: Vector3(0, 0, 0.4), normal: normal)
        #expect(try #require(flash.map(camera: small, depth: smallDepth, cell: 8, measuredWidth: 5)).sampling == 1)
        var worst = 0.0, mismatches = 0
        for y in stride(from: 0, to: camera.height, by: 3) {
            let exactRow = exact.row(y), sampledRow = sampled.row(y)
            for x in 0..<camera.width {
                let e = Double(exactRow[x]), s = Double(sampledRow[x])
                let onGrid = (x % 4 == 0 || x == camera.width - 1) && (y % 4 == 0 || y == camera.height - 1)
                if onGrid && s != e { mismatches += 1 }
                worst = max(worst, abs(s / e - 1))
            }
        }
        #expect(mismatches == 0)
        #expect(worst < 2e-4, "largest relative difference \(worst)")
    }

    /// A hole in the depth (NaN, as where the depth map has none) takes the irradiance of the surface
    /// around it: on a frontal plane 0.5 m away, whose irradiance changes by less than 2 % across the
    /// 16-pixel hole, the hole's centre is within 2 % of the law there. A picture without any depth
    /// has no map.
    @Test func holesTakeTheirSurroundings() throws {
        let camera = try Self.camera()
        let normal = Vector3(0, 0, -1)
        var depth = Self.planeDepth(camera, point: Vector3(0, 0, 0.5), normal: normal)
        let full = depth
        for y in 52..<68 {
            for x in 72..<88 { depth[y * camera.width + x] = .nan }
        }
        let flash = FlashIrradiance(sources: [.init(positionInCamera: .zero, beamExponent: 1, intensityCandela: 50)])
        let map = try #require(flash.map(camera: camera, depth: depth, cell: 8))
        let expected = Self.pointSource(
            candela: 50, halfAngleDegrees: 60, source: .zero, camera: camera, depth: full, normal: normal, x: 80, y: 60)
        #expect(abs(map.value(x: 80, y: 60) / expected - 1) < 0.02)
        let nothing = [Float](repeating: .nan, count: camera.width * camera.height)
        #expect(flash.map(camera: camera, depth: nothing, cell: 8) == nil)
    }

    /// A uniform grey card filling the frame 0.3 m away, in dim light, through the full lens (its
    /// distortion and shading) of the iPhone 15 Pro: one paint gives one colour, so the photo's linear
    /// luminance in each corner equals the centre's. With a single flash level the corners keep the
    /// flash's fall-off (beam, obliquity and distance: below 0.6 of the centre); with the irradiance
    /// at each pixel they are within 3 % of it (the photo's 8-bit steps and the noise of 144 pixels
    /// are below 1 %; the calibration's intensities differ from the true ones by a few per cent, and
    /// the beams' shares with them).
    @Test func uniformCardComesOutUniform() throws {
        let device = try ConstantColorFixture.device()
        let cameraProfile = try device.camera(ofType: .builtInWideAngleCamera)
        func ratios(_ corrects: Bool) throws -> [Double] {
            let pipeline = try ConstantColorPipeline(
                device: device, camera: cameraProfile, width: 160, height: 120,
                depthSensor: .ideal, settings: .init(developsFallback: false, correctsIrradiance: corrects, rendersFlashFallOff: false))
            let camera = pipeline.camera
            let distance = 0.3
            let card = SceneObject(
                name: "card",
                shape: .plane(
                    width: 1.4 * distance * Double(camera.width) / camera.fx,
                    height: 1.4 * distance * Double(camera.height) / camera.fy),
                transform: Transform(position: Vector3(0, 0, -distance)),
                surface: .uniform(Material(name: "grey", reflectance: .constant(0.4))))
            let scene = Scene(
                objects: [card], ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 20),
                device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
            let photo = pipeline.capture(scene: scene, seed: 3).photo
            func luminance(_ x0: Int, _ y0: Int) -> Double {
                var sum = 0.0
                for y in y0..<(y0 + 12) {
                    for x in x0..<(x0 + 12) {
                        sum += ConstantColorArtefactTests.xyz(photo, x, y).y
                    }
                }
                return sum / 144
            }
            let centre = luminance(74, 54)
            return [luminance(4, 4), luminance(144, 4), luminance(4, 104), luminance(144, 104)].map { $0 / centre }
        }
        let corrected = try ratios(true)
        for r in corrected { #expect(abs(r - 1) < 0.03, "corner / centre \(corrected)") }
        let uniform = try ratios(false)
        for r in uniform { #expect(r < 0.6, "corner / centre without the irradiance \(uniform)") }
    }

    /// A grey card 0.4 m away in front of a wall of the same grey 0.8 m away, in dim light: one paint,
    /// one colour, across a depth edge where the flash's irradiance changes fourfold. The wall right
    /// beside the card's edge (2 to 6 pixels off it) is as light as the wall a quarter of the picture
    /// away, and the card as light as the wall, within 3 % (as for the uniform card). A normal or a
    /// gain carried across the edge shows as a halo of the card's obliquity or irradiance on the wall.
    @Test func depthEdgeLeavesNoHalo() throws {
        let device = try ConstantColorFixture.device()
        let pipeline = try ConstantColorPipeline(
            device: device, camera: try device.camera(ofType: .builtInWideAngleCamera), width: 160, height: 120,
            depthSensor: .ideal, settings: .init(developsFallback: false, rendersFlashFallOff: false))
        let camera = pipeline.camera
        let grey = Surface.uniform(Material(name: "grey", reflectance: .constant(0.4)))
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 1.2 * 0.8 * 160 / camera.fx, height: 1.2 * 0.8 * 120 / camera.fy),
            transform: Transform(position: Vector3(0, 0, -0.8)), surface: grey)
        // The card spans the picture's middle third across, so its edges fall at columns 53 and 107.
        let card = SceneObject(
            name: "card", shape: .plane(width: 0.4 * 54 / camera.fx, height: 0.4 * 60 / camera.fy),
            transform: Transform(position: Vector3(0, 0, -0.4)), surface: grey)
        let scene = Scene(
            objects: [wall, card], ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 5),
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
        let result = pipeline.capture(scene: scene, seed: 5)
        let ids = result.diagnostics.flashFrame.objectIDs
        func mean(_ xs: Range<Int>, _ ys: Range<Int>, object: Int) -> Double {
            var sum = 0.0, n = 0.0
            for y in ys {
                for x in xs where Int(ids[y * 160 + x]) == object {
                    sum += ConstantColorArtefactTests.xyz(result.photo, x, y).y
                    n += 1
                }
            }
            return n > 0 ? sum / n : .nan
        }
        // The card's left edge in this picture: the first card column on the middle row.
        let edge = try #require((0..<160).first { ids[60 * 160 + $0] == 1 })
        let beside = mean((edge - 6)..<(edge - 2), 50..<70, object: 0)
        let away = mean((edge - 40)..<(edge - 30), 50..<70, object: 0)
        let onCard = mean((edge + 6)..<(edge + 16), 50..<70, object: 1)
        #expect(abs(beside / away - 1) < 0.03, "wall beside the edge \(beside), away \(away)")
        #expect(abs(onCard / away - 1) < 0.03, "card \(onCard), wall \(away)")
    }
}
