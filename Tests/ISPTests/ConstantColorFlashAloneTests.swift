import Foundation
import ISP
import Imaging
import Scenes
import Sensor
import Spectra
import Testing

/// Apple's model of the Constant Color photo: the predicted dark-room flash image, rendered for the flash's white
/// (the "How the physics works" article). In a room with no other light that prediction is the flash photo itself.
struct ConstantColorFlashAloneTests {
    /// A grey sphere (form shading) before a grey wall turned 35° (the flash's fall-off across it) and an orange card,
    /// lit by the flash alone.
    static func scene() -> Scene {
        func paint(_ name: String, _ reflectance: Spectrum) -> Surface {
            .uniform(Material(name: name, reflectance: reflectance))
        }
        let orange = ColorChecker.patches.first { $0.name.hasPrefix("orange") }?.reflectance ?? .constant(0.4)
        let wall = SceneObject(
            name: "wall", shape: .plane(width: 2, height: 2),
            transform: Transform(position: Vector3(0, 0, -0.7), rotation: Rotation(axis: Vector3(0, 1, 0), radians: 35 * .pi / 180)),
            surface: paint("wall", .constant(0.5)))
        let sphere = SceneObject(
            name: "sphere", shape: .sphere(radius: 0.06), transform: Transform(position: Vector3(-0.04, 0, -0.45)),
            surface: paint("sphere", .constant(0.6)))
        let card = SceneObject(
            name: "card", shape: .plane(width: 0.08, height: 0.08), transform: Transform(position: Vector3(0.09, 0.03, -0.5)),
            surface: paint("card", orange))
        return Scene(
            objects: [wall, sphere, card], ambient: nil,
            device: DevicePlacement(position: .zero, lookAt: Vector3(0, 0, -1)))
    }

    /// Per 8 × 8 block inside one material, the Constant Color photo's linear Display P3 (2.2 gamma decoded, below
    /// the tone curve's knee, where it is the identity) against the flash frame developed for the flash's white
    /// (`BasicDevelop`, the calibrated flash's white balance, no warmth kept, linear before its tone curve): one
    /// global exposure apart (the median luminance ratio), each block's luminance within 6 % of it and its
    /// chromaticity within 0.012 in x and y. The largest deviations, returned for the albedo rendering's check.
    static func deviations(_ pipeline: ConstantColorPipeline) -> (luminance: Double, chroma: Double, blocks: Int) {
        let result = pipeline.capture(scene: scene(), seed: 4)
        let frame = result.diagnostics.flashFrame
        let reference = BasicDevelop(
            camera: pipeline.camera,
            whiteBalance: WhiteBalance(illuminant: pipeline.calibration.spectrum, camera: pipeline.camera),
            settings: .init(outputSpace: .displayP3, warmthRetention: 0)
        ).linearRGB(frame)
        let toXYZ = RGBColorSpace.displayP3.toXYZ
        let w = frame.width, h = frame.height
        var pairs: [(SIMD3<Double>, SIMD3<Double>)] = []
        for by in 0..<(h / 8) {
            for bx in 0..<(w / 8) {
                var cc = SIMD3<Double>(0, 0, 0), ref = SIMD3<Double>(0, 0, 0)
                var usable = true
                let id = frame.materialIDs[(by * 8) * w + bx * 8]
                for y in (by * 8)..<(by * 8 + 8) {
                    for x in (bx * 8)..<(bx * 8 + 8) where usable {
                        let p = y * w + x
                        let codes = (0..<3).map { Double(result.photo[x, y, $0]) }
                        usable = id != RawFrame.none && frame.materialIDs[p] == id && codes.max()! < 0.8 * 255
                            && codes.min()! > 8
                        cc += SIMD3(pow(codes[0] / 255, 2.2), pow(codes[1] / 255, 2.2), pow(codes[2] / 255, 2.2))
                        ref += SIMD3(Double(reference[3 * p]), Double(reference[3 * p + 1]), Double(reference[3 * p + 2]))
                    }
                }
                if usable { pairs.append((toXYZ * cc, toXYZ * ref)) }
            }
        }
        let ratios = pairs.map { $0.0.y / $0.1.y }.sorted()
        let k = ratios.isEmpty ? 1 : ratios[ratios.count / 2]
        func xy(_ v: SIMD3<Double>) -> SIMD2<Double> { SIMD2(v.x, v.y) / (v.x + v.y + v.z) }
        var luminance = 0.0, chroma = 0.0
        for (cc, ref) in pairs {
            luminance = max(luminance, abs(cc.y / ref.y / k - 1))
            let d = xy(cc) - xy(ref)
            chroma = max(chroma, max(abs(d.x), abs(d.y)))
        }
        return (luminance, chroma, pairs.count)
    }

    /// The Constant Color photo of a scene lit by the flash alone is that scene's flash photo rendered for the
    /// flash's white, within noise: 64 pixels of a block at this exposure carry a few thousand electrons each
    /// (σ below 1 %), the colour mappings differ (a root-polynomial correction to D65 against the develop's
    /// white-balanced matrix) by a few thousandths in chromaticity on these paints. The albedo rendering, which
    /// takes the fall-off and the sphere's shading away, misses by far more: the check can fail.
    @Test func flashAlonePhotoIsTheFlashPhoto() throws {
        let pipeline = try ConstantColorFixture.pipeline(depthSensor: .ideal)
        let apple = Self.deviations(pipeline)
        #expect(apple.blocks >= 60, "only \(apple.blocks) blocks")
        #expect(apple.luminance <= 0.06, "luminance off by \(apple.luminance)")
        #expect(apple.chroma <= 0.012, "chromaticity off by \(apple.chroma)")
        let albedo = Self.deviations(
            try ConstantColorFixture.pipeline(
                depthSensor: .ideal, settings: .init(developsFallback: false, rendersFlashFallOff: false)))
        #expect(albedo.luminance > 0.15, "the albedo rendering should show the fall-off's absence")
    }
}
