import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra
import Testing

/// Depth filtering and LiDAR densification against closed-form scenes.
struct DepthFilteringTests {
    /// A 20 × 10 map: depth 1 m left of column 10, 2 m right of it; the guide is dark (0.2) on
    /// the left and bright (0.9) on the right. Holes straddle the edge in columns 6…13, rows 3…6.
    static func steppedMap() -> (DepthMap, PixelPlane<Float>) {
        var values = [Float](repeating: 0, count: 200)
        for y in 0..<10 {
            for x in 0..<20 {
                values[y * 20 + x] = (3...6).contains(y) && (6...13).contains(x) ? .nan : (x < 10 ? 1 : 2)
            }
        }
        let guide = PixelPlane<Float>(width: 20, height: 10) { x, _, _ in x < 10 ? 0.2 : 0.9 }
        return (DepthMap(width: 20, height: 10, format: .depthFloat32, values: values, accuracy: .absolute), guide)
    }

    @Test func holeFillingStaysOnItsSideOfAnImageEdge() {
        let (map, guide) = Self.steppedMap()
        let filled = DepthHoleFilling().fill(map, guide: guide)
        #expect(filled.isFiltered && filled.holeFraction == 0)
        for y in 3...6 {
            for x in 6...13 {
                let expected: Float = x < 10 ? 1 : 2
                #expect(abs(filled[x, y] - expected) < 1e-3, "pixel \(x),\(y): \(filled[x, y])")
            }
        }
        // Without a guide edge the same holes blend both sides near the edge: the test can fail.
        let flat = PixelPlane<Float>(width: 20, height: 10, repeating: 0.5)
        let blended = DepthHoleFilling().fill(map, guide: flat)
        #expect(abs(blended[9, 4] - 1) > 0.05)
    }

    /// The fast fill, and a plan of the filling replayed on another map with the same holes (a stream's next frame),
    /// give the plain reference's bits: 60 × 45 maps of three depth planes behind a guide with matching edges, with
    /// holes of every kind (scattered pixels, blobs across the edges, a region whose guide differs from every valid
    /// pixel, which only the unguided finish reaches), a map with few valid pixels (most of a textureless scene's
    /// stereo map), and a map that is all holes.
    @Test func holeFillingMatchesTheReference() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let (w, h) = (60, 45)
        let guide = PixelPlane<Float>(width: w, height: h) { x, y, _ in
            (x < 20 ? 0.2 : x < 40 ? 0.6 : 0.9) + (y > 35 && x > 45 ? 0.5 : 0)
        }
        let values = (0..<(w * h)).map { p -> Float in
            let (x, y) = (p % w, p / w)
            let hole = random() < 0.1 || abs(x - 20) + abs(y - 22) < 6 || (y > 35 && x > 45)
            return hole ? .nan : Float(x < 20 ? 1 : x < 40 ? 2 : 3) + Float(random() * 0.01)
        }
        let filter = DepthHoleFilling()
        let sparse = values.map { random() < 0.06 ? $0 : .nan }
        func bits(_ map: DepthMap?) -> [UInt32] { map?.values.map(\.bitPattern) ?? [] }
        for values in [values, sparse, [Float](repeating: .nan, count: w * h)] {
            let depth = DepthMap(width: w, height: h, format: .depthFloat32, values: values, accuracy: .absolute)
            // The next frame: the same holes, other noise.
            let next = depth.replacingValues(values.map { $0 + Float(random() * 0.01) })
            let plan = filter.plan(forHolesOf: depth, guide: guide)
            for (map, fast) in [
                (depth, filter.fill(depth, guide: guide)), (depth, plan.fill(depth, guide: guide)),
                (next, plan.fill(next, guide: guide)),
            ] {
                let reference = bits(filter.fillReference(map, guide: guide))
                let differing = zip(bits(fast), reference).filter { $0 != $1 }.count
                #expect(bits(fast).count == reference.count && differing == 0, "\(differing) values differ")
                #expect(fast?.isFiltered == true)
            }
        }
    }

    /// A plan fills only maps with its holes under its guide: one hole more or less, another size, an infinite value
    /// (whose sums could give not-a-number), or another guide gets no map from it.
    @Test func holeFillingPlanFitsOnlyItsHoles() {
        let (w, h) = (12, 9)
        let values = (0..<(w * h)).map { $0 % 5 == 0 ? Float.nan : 1 + Float($0) / 100 }
        let map = DepthMap(width: w, height: h, format: .depthFloat32, values: values, accuracy: .absolute)
        let guide = PixelPlane<Float>(width: w, height: h, repeating: 0.5)
        let plan = DepthHoleFilling().plan(forHolesOf: map, guide: guide)
        var more = values, fewer = values, infinite = values
        more[1] = .nan
        fewer[0] = 2
        infinite[1] = .infinity
        #expect(plan.fill(map, guide: guide) != nil)
        #expect(plan.fill(map, guide: PixelPlane<Float>(width: w, height: h, repeating: 0.5)) != nil)
        for other in [more, fewer, infinite] { #expect(plan.fill(map.replacingValues(other), guide: guide) == nil) }
        #expect(plan.fill(map, guide: PixelPlane<Float>(width: w, height: h, repeating: 0.6)) == nil)
        let wider = DepthMap(width: h, height: w, format: .depthFloat32, values: values, accuracy: .absolute)
        #expect(plan.fill(wider, guide: PixelPlane<Float>(width: h, height: w, repeating: 0.5)) == nil)
    }

    /// A wall at 4.6 m seen by a stereo pair rated to 5 m: the matcher's window spans the rated range
    /// with room for the noise, so the raw map has no window holes and no negative values there, and
    /// filling keeps every value inside the window.
    @Test func wallInsideTheRatedRangeHasNoWindowHoles() {
        let g = { (c: Double, s: Double) in Spectrum { l in 0.6 * exp(-0.5 * ((l - c) / s) * ((l - c) / s)) } }
        let camera = CameraModel(
            width: 96, height: 72, fx: 80, fy: 80, cx: 48, cy: 36, fNumber: 1.8, pixelPitchMicrometres: 1.4,
            quantumEfficiency: (g(600, 30), g(535, 35), g(460, 25)))
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 50, height: 50), transform: Transform(position: Vector3(0, 0, -4.6)),
            surface: .uniform(.neutral("grey", reflectance: 0.5)))
        let scene = Scene(
            objects: [wall], ambient: nil, device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
        let model = DisparityModel(
            baseline: Vector3(0.01, 0, 0), calibrationScaleError: 0, calibrationOffsetError: 0, minimumDepth: 0.3,
            maximumDepth: 5)
        let raw = model.disparity(Renderer(scene: scene, camera: camera, flash: nil), seed: 4)
        // Only the outer columns are holes: the part of the view the second camera does not share and the
        // matching window cannot cover (4 of 96 columns here).
        #expect(raw.holeFraction < 0.05, "holes \(raw.holeFraction)")
        #expect(raw.values.allSatisfy { $0.isNaN || $0 > 0 })
        let filled = DepthHoleFilling().fill(raw, guide: PixelPlane<Float>(width: 96, height: 72, repeating: 0.5))
        #expect(filled.isFiltered && filled.holeFraction == 0)
        let accepted = raw.values.filter { !$0.isNaN }
        let (low, high) = (accepted.min() ?? 0, accepted.max() ?? 0)
        #expect(filled.values.allSatisfy { $0 >= low * (1 - 1e-6) && $0 <= high * (1 + 1e-6) })
    }

    @Test func temporalSmoothingAveragesAndResetsOnChange() {
        var filter = DepthTemporalFilter(weight: 0.25, resetThreshold: 0.1)
        let make = { (v: Float) in
            DepthMap(width: 1, height: 1, format: .depthFloat32, values: [v], accuracy: .absolute)
        }
        #expect(filter.filter(make(1.0)).values[0] == 1.0)
        // A small change moves a quarter of the way: 1 + 0.25 · 0.04.
        #expect(abs(filter.filter(make(1.04)).values[0] - 1.01) < 1e-6)
        // A 50 % jump is motion: taken at once.
        #expect(filter.filter(make(1.5)).values[0] == 1.5)
        // A hole keeps the last value.
        #expect(filter.filter(make(.nan)).values[0] == 1.5)
    }

    /// A 96 × 72 pinhole (fx = fy = 80) looking down −Z at a plane turned 30° about +Y through
    /// (0, 0, −1.5).
    static func tiltedPlane() -> (Renderer, (Int, Int) -> Double) {
        let g = { (c: Double, s: Double) in Spectrum { l in 0.6 * exp(-0.5 * ((l - c) / s) * ((l - c) / s)) } }
        let camera = CameraModel(
            width: 96, height: 72, fx: 80, fy: 80, cx: 48, cy: 36, fNumber: 1.8, pixelPitchMicrometres: 1.4,
            quantumEfficiency: (g(600, 30), g(535, 35), g(460, 25)))
        let angle = 30 * Double.pi / 180
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 50, height: 50),
            transform: Transform(
                position: Vector3(0, 0, -1.5), rotation: Rotation(axis: Vector3(0, 1, 0), radians: angle)),
            surface: .uniform(.neutral("grey", reflectance: 0.5)))
        let device = DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1))
        let scene = Scene(objects: [wall], ambient: nil, device: device)
        let n = Vector3(sin(angle), 0, cos(angle))
        // Closed form: Z = n·P0 / n·(u, −v, −1) with u, v the normalised pixel-centre coordinates.
        let truth = { (x: Int, y: Int) -> Double in
            let u = (Double(x) + 0.5 - 48) / 80
            let v = (Double(y) + 0.5 - 36) / 80
            return n.dot(Vector3(0, 0, -1.5)) / n.dot(Vector3(u, -v, -1))
        }
        return (Renderer(scene: scene, camera: camera, flash: nil), truth)
    }

    @Test func lidarDensificationRecoversAPlane() {
        let (renderer, truth) = Self.tiltedPlane()
        // Noise-free dots: the fit in 1/Z is exact for a plane, so only Float rounding remains.
        let exact = LiDARModel(relativeErrorAt1m: 0).samples(renderer, seed: 1)
        #expect(exact.samples.count == 576)
        let dense = DepthDensifier().densify(exact)
        #expect(dense.holeFraction == 0 && dense.accuracy == .absolute)
        var worst = 0.0
        for y in 0..<72 {
            for x in 0..<96 { worst = max(worst, abs(Double(dense[x, y]) / truth(x, y) - 1)) }
        }
        #expect(worst < 1e-4, "worst relative error \(worst)")
        // 1 % dots: the local fit averages several dots, so every pixel stays within 3 σ of one dot.
        let noisy = DepthDensifier().densify(LiDARModel(relativeErrorAt1m: 0.01).samples(renderer, seed: 2))
        var rms = 0.0
        var worstNoisy = 0.0
        for y in 0..<72 {
            for x in 0..<96 {
                let e = abs(Double(noisy[x, y]) / truth(x, y) - 1)
                rms += e * e
                worstNoisy = max(worstNoisy, e)
            }
        }
        rms = (rms / Double(96 * 72)).squareRoot()
        #expect(rms < 0.01 && worstNoisy < 0.03, "rms \(rms), worst \(worstNoisy)")
    }
}
