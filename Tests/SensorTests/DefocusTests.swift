import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// Depth of field (`LensFocus`, `Renderer.render(_:)` with a focus): the thin lens's circle of confusion, and
/// the blur it gives an edge, against closed forms.
struct DefocusTests {
    /// A 50 mm f/1.25 lens (a 40 mm aperture) seen at fx = 300 px, so that a small picture shows a wide circle.
    static func lens(focus: Double) -> LensFocus { LensFocus(focalLength: 0.05, fNumber: 1.25, focusDistance: focus) }

    static func camera(noise: NoiseParameters = TestScenes.quiet, width: Int = 240, height: Int = 180) -> CameraModel {
        CameraModel(
            width: width, height: height, fx: 300, fy: 300, cx: Double(width) / 2, cy: Double(height) / 2,
            fNumber: 1.25, lensTransmittance: 0.9,
            pixelPitchMicrometres: 1.4,
            quantumEfficiency: (
                TestScenes.gaussian(600, 30), TestScenes.gaussian(535, 35), TestScenes.gaussian(460, 25)
            ), noise: noise)
    }

    /// A wall 1 m away, white on the right of the optical axis and black on the left (a black card a millimetre
    /// in front of it), under even light: a straight vertical edge through the principal point.
    static let edge = Scene(
        objects: [
            SceneObject(
                name: "white", shape: .plane(width: 2, height: 2), transform: Transform(position: Vector3(0, 0, -1)),
                surface: .uniform(.neutral("white", reflectance: 0.9))),
            SceneObject(
                name: "black", shape: .plane(width: 1, height: 2),
                transform: Transform(position: Vector3(-0.5, 0, -0.999)),
                surface: .uniform(.neutral("black", reflectance: 0.05))),
        ],
        ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 300, direction: Vector3(0, 0, 1), diffuseFraction: 1),
        device: TestScenes.device)

    /// A sensor with shot and read noise and a fixed pattern.
    static let noisy = NoiseParameters(
        fullWellElectrons: 20000, readNoiseElectrons: 3, prnu: 0.01, dsnuElectrons: 2, adcBits: 12, blackLevel: 64,
        whiteLevel: 4095, baseISO: 100)

    static let exposure = Exposure(time: 0.01, iso: 100, flash: false, seed: 5)

    @Test func circleOfConfusionFollowsTheThinLens() {
        // c = A·f·|z − s| / (z·(s − f)) on the sensor, times fx / f in pixels; A = f / N.
        // 50 mm f/1.25 at fx = 300, focused at 0.3 m, a point at 1 m: 300 · 0.04 · 0.7 / (1 · 0.25) = 33.6 px.
        #expect(abs(Self.lens(focus: 0.3).blurDiameter(depth: 1, fx: 300) - 33.6) < 1e-9)
        // Focused at infinity, a point at 2 m: A·f/z · fx/f = 300 · 0.04 / 2 = 6 px.
        #expect(abs(Self.lens(focus: .infinity).blurDiameter(depth: 2, fx: 300) - 6) < 1e-9)
        // Focused at 2 m, the far distance (nothing hit): 300 · 0.04 / 1.95 px.
        #expect(abs(Self.lens(focus: 2).blurDiameter(depth: .nan, fx: 300) - 12 / 1.95) < 1e-9)
        #expect(Self.lens(focus: 1).blurDiameter(depth: 1, fx: 300) == 0)
        #expect(Self.lens(focus: .infinity).blurDiameter(depth: .infinity, fx: 300) == 0)
    }

    /// A camera that refocuses keeps the scene's geometry: the refocused renderer shares it, and its frames are
    /// byte for byte those of a renderer built for the new focus (and, focused nowhere, those of the pinhole).
    @Test func aRefocusedRendererMakesTheFramesOfTheNewFocus() {
        let camera = Self.camera(noise: Self.noisy)
        let near = Renderer(scene: Self.edge, camera: camera, flash: nil, focus: Self.lens(focus: 0.3))
        let far = near.focused(Self.lens(focus: 2))
        #expect(far.sharesGeometry(with: near))
        let built = Renderer(scene: Self.edge, camera: camera, flash: nil, focus: Self.lens(focus: 2))
        #expect(!built.sharesGeometry(with: near))
        #expect(far.render(Self.exposure).dn == built.render(Self.exposure).dn)
        #expect(far.render(Self.exposure).dn != near.render(Self.exposure).dn)
        let pinhole = Renderer(scene: Self.edge, camera: camera, flash: nil)
        #expect(near.focused(nil).render(Self.exposure).dn == pinhole.render(Self.exposure).dn)
    }

    @Test func aSceneInFocusEverywhereIsThePinholeFrame() {
        let pinhole = Renderer(scene: Self.edge, camera: Self.camera(noise: Self.noisy), flash: nil)
        let focused = Renderer(
            scene: Self.edge, camera: Self.camera(noise: Self.noisy), flash: nil, focus: Self.lens(focus: 1))
        let a = pinhole.render(Self.exposure), b = focused.render(Self.exposure)
        #expect(a.dn == b.dn)
        #expect(a.ambientElectrons == b.ambientElectrons)
    }

    /// Across a straight edge, a uniform disc of radius r centred h from the edge holds, beyond it, the segment
    /// (r²·acos(h/r) − h·√(r² − h²)) / (π·r²) of its area.
    static func shareBeyond(_ h: Double, radius r: Double) -> Double {
        if h >= r { return 0 }
        if h <= -r { return 1 }
        if h < 0 { return 1 - shareBeyond(-h, radius: r) }
        return (r * r * acos(h / r) - h * (r * r - h * h).squareRoot()) / (Double.pi * r * r)
    }

    @Test func anEdgeOutOfFocusSpreadsAsTheCircleOfConfusion() throws {
        let frame = Renderer(scene: Self.edge, camera: Self.camera(), flash: nil, focus: Self.lens(focus: 0.3))
            .render(Self.exposure)
        let ambient = try #require(frame.ambientElectrons)
        let row = 90 * frame.width
        func green(_ x: Int) -> Double { Double(ambient[3 * (row + x) + 1]) }
        let black = green(20), white = green(220)
        #expect(white > 10 * black)
        let radius = 33.6 / 2
        var worst = 0.0
        for x in 90..<150 {
            // The pixel's centre lies x + 0.5 − 120 px right of the edge; the white lies beyond −h from it.
            let h = Double(x) + 0.5 - 120
            let expected = Self.shareBeyond(-h, radius: radius)
            let measured = (green(x) - black) / (white - black)
            worst = max(worst, abs(measured - expected))
        }
        // A disc of pixel centres matches the continuous disc to the few centres its rim gains or loses.
        #expect(worst < 0.03)
        // Beyond the circle the sides stay as sharp as they were.
        #expect(abs(green(120 - 18) - black) < 1e-3 * white)
        #expect(abs(green(120 + 18) - white) < 1e-3 * white)
    }

    /// The wall with a black card over its top, from 26 rows above the principal point: a horizontal edge on row
    /// 64, where the blurred frame's bands meet (a 16.8-pixel reach gives bands of 64 rows), so each side's circles
    /// read the other band's light.
    static let horizontalEdge = Scene(
        objects: [
            edge.objects[0],
            SceneObject(
                name: "black", shape: .plane(width: 2, height: 1),
                transform: Transform(position: Vector3(0, 26.0 / 300 * 0.999 + 0.5, -0.999)),
                surface: .uniform(.neutral("black", reflectance: 0.05))),
        ],
        ambient: edge.ambient, device: TestScenes.device)

    @Test func anEdgeAcrossBandsSpreadsAsTheCircleOfConfusion() throws {
        let frame = Renderer(
            scene: Self.horizontalEdge, camera: Self.camera(), flash: nil, focus: Self.lens(focus: 0.3)
        ).render(Self.exposure)
        let ambient = try #require(frame.ambientElectrons)
        func green(_ y: Int) -> Double { Double(ambient[3 * (y * frame.width + 120) + 1]) }
        let black = green(10), white = green(170)
        var worst = 0.0
        for y in 34..<94 {
            let h = Double(y) + 0.5 - 64
            worst = max(worst, abs((green(y) - black) / (white - black) - Self.shareBeyond(-h, radius: 16.8)))
        }
        #expect(worst < 0.03)
    }

    @Test func blurredFramesDoNotDependOnTheThreadCount() {
        func frame(_ threads: Int) -> RawFrame {
            Renderer(
                scene: Self.edge, camera: Self.camera(noise: Self.noisy), flash: nil,
                options: RenderOptions(threadCount: threads), focus: Self.lens(focus: 0.3)
            ).render(Self.exposure)
        }
        let one = frame(1), two = frame(2)
        #expect(one.dn == two.dn)
        #expect(one.electrons == two.electrons)
    }

    /// A card tilted away along the picture's width from 0.45 to 1.6 m in front of a far wall, with a dark stripe:
    /// the circle of confusion widens across the frame, and neighbouring pixels share a radius or not.
    static let slope = Scene(
        objects: [
            SceneObject(
                name: "wall", shape: .plane(width: 8, height: 8), transform: Transform(position: Vector3(0, 0, -3)),
                surface: .uniform(.neutral("wall", reflectance: 0.6))),
            SceneObject(
                name: "card", shape: .plane(width: 1.2, height: 0.8),
                transform: Transform(
                    position: Vector3(0, 0, -1), rotation: Rotation(axis: Vector3(0, 1, 0), radians: 1.1)),
                surface: .uniform(.neutral("card", reflectance: 0.8))),
            SceneObject(
                name: "stripe", shape: .plane(width: 0.1, height: 0.8),
                transform: Transform(
                    position: Vector3(0.05, 0, -0.95), rotation: Rotation(axis: Vector3(0, 1, 0), radians: 1.1)),
                surface: .uniform(.neutral("stripe", reflectance: 0.05))),
        ],
        ambient: AmbientLight(spectrum: Illuminants.d65, illuminance: 300, direction: Vector3(0, 0, 1), diffuseFraction: 1),
        device: TestScenes.device)

    /// The blurred frame by the band's disc sums (`.fast`: strips of columns, four pixels that share a radius at
    /// once) is the one-pixel reference's, byte for byte, with the flash and ambient light summed apart and
    /// together, at focus distances that blur different parts. The wide pictures span three strips of columns, so
    /// runs of pixels sharing a radius are cut where strips meet, and discs near the sides are cut by the picture.
    @Test(arguments: [
        (0.5, true, 240), (0.5, false, 240), (2.5, true, 240), (1.0, false, 240), (0.5, true, 700), (2.5, false, 700),
    ])
    func bandDiscSumsMatchTheReference(focus: Double, components: Bool, width: Int) {
        let camera = Self.camera(noise: Self.noisy, width: width, height: width == 240 ? 180 : 100)
        let renderer = Renderer(
            scene: Self.slope, camera: camera, flash: nil,
            options: RenderOptions(keepsComponents: components), focus: Self.lens(focus: focus))
        let fast = renderer.render(Self.exposure, blurredBy: Self.lens(focus: focus), path: .fast)
        let reference = renderer.render(Self.exposure, blurredBy: Self.lens(focus: focus), path: .reference)
        // Counts of differing values, so that a failure names how many rather than printing the frames.
        #expect(zip(fast.dn, reference.dn).filter { $0 != $1 }.count == 0)
        #expect(fast.ambientElectrons?.count == reference.ambientElectrons?.count)
        #expect(zip(fast.ambientElectrons ?? [], reference.ambientElectrons ?? []).filter { $0 != $1 }.count == 0)
        // The frame is blurred at all: it differs from the pinhole frame.
        let pinhole = Renderer(
            scene: Self.slope, camera: camera, flash: nil, options: RenderOptions(keepsComponents: components))
        #expect(zip(pinhole.render(Self.exposure).dn, fast.dn).filter { $0 != $1 }.count > 1000)
    }
}
