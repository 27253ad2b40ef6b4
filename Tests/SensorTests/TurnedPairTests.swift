import Foundation
import Scenes
import Sensor
import Spectra
import Testing

/// A pair of frames with the device turned slightly between them (`Renderer.render(_:_:turnedTo:)`), from one
/// geometry pass, against a renderer traced anew from the turned device: the same picture, moved by the turn.
struct TurnedPairTests {
    /// 240 × 180 at fx = fy = 300 (a 44° field), noise-free, so that the components compare directly.
    static func camera(distortion: LensDistortion? = nil, offset: Vector3 = .zero) -> CameraModel {
        var camera = CameraModel(
            width: 240, height: 180, fx: 300, fy: 300, cx: 120, cy: 90, distortion: distortion, fNumber: 1.8,
            lensTransmittance: 0.9, pixelPitchMicrometres: 1.4,
            quantumEfficiency: (
                TestScenes.gaussian(600, 30), TestScenes.gaussian(535, 35), TestScenes.gaussian(460, 25)
            ), noise: TestScenes.quiet)
        camera.positionInDevice = offset
        return camera
    }

    /// A glossy ball in front of a card under a room light, lit by a flash: smooth shading, a specular
    /// highlight, sharp outlines and background around them.
    static func scene(turn: Vector3, card withCard: Bool = true) -> Scene {
        let glossy = Material(
            name: "glossy", reflectance: Spectrum { l in 0.2 + 0.5 * exp(-0.5 * ((l - 620) / 40) * ((l - 620) / 40)) },
            specularStrength: 0.3, roughness: 0.3)
        let ball = SceneObject(
            name: "ball", shape: .sphere(radius: 0.12), transform: Transform(position: Vector3(0.05, 0.02, -0.8)),
            surface: .uniform(glossy))
        let card = SceneObject(
            name: "card", shape: .plane(width: 0.5, height: 0.35), transform: Transform(position: Vector3(0, 0, -1.2)),
            surface: .uniform(.neutral("card", reflectance: 0.5)))
        var device = TestScenes.device
        device.motion.angularVelocity = turn
        return Scene(
            objects: withCard ? [ball, card] : [ball],
            ambient: AmbientLight(
                spectrum: Illuminants.d65, illuminance: 200, direction: Vector3(0.3, 0.5, 1), diffuseFraction: 0.5),
            device: device)
    }

    static let flash = FlashModel(modules: [
        .init(spectrum: Illuminants.d65, intensityCandela: 40, beamHalfAngleDegrees: 30)
    ])
    static let ambient = Exposure(time: 0.01, iso: 100, flash: false, seed: 3, frameIndex: 0)
    static let flashed = Exposure(time: 0.01, iso: 100, flash: true, seed: 3, frameIndex: 1)
    static let interval = 0.05

    /// Pitch, yaw and roll, rad/s: in `interval` the ball's centre moves by about (1.4, 0.9) px, part of it the
    /// roll's.
    static let turn = Vector3(0.06, 0.09, 0.05)

    /// The pair, and the flash frame from a renderer of the turned device.
    static func frames(camera: CameraModel, card: Bool = true) throws
        -> (pair: (RawFrame, RawFrame), traced: RawFrame, alone: RawFrame)
    {
        let scene = Self.scene(turn: turn, card: card)
        let later = scene.advanced(by: interval)
        let renderer = Renderer(scene: scene, camera: camera, flash: flash)
        let pair = try #require(renderer.render(ambient, flashed, turnedTo: later))
        let traced = Renderer(scene: later, camera: camera, flash: flash).render(flashed)
        return (pair, traced, renderer.render(ambient))
    }

    /// Pixels where the traced frame's shading is smooth: every value of the 3 × 3 neighbourhood (green, flash and
    /// ambient) within 10 % of the centre's. Outlines and shadow edges are left out.
    static func smooth(_ frame: RawFrame) -> [Int] {
        let w = frame.width, h = frame.height
        guard let flash = frame.flashElectrons, let ambient = frame.ambientElectrons else { return [] }
        var out: [Int] = []
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) where frame.materialIDs[y * w + x] != RawFrame.none {
                let i = y * w + x
                let flat = [flash, ambient].allSatisfy { plane in
                    (-1...1).allSatisfy { dy in
                        (-1...1).allSatisfy { dx in
                            abs(plane[3 * (i + dy * w + dx) + 1] - plane[3 * i + 1]) <= 0.1 * plane[3 * i + 1]
                        }
                    }
                }
                if flat { out.append(i) }
            }
        }
        return out
    }

    /// The intensity-weighted centre of a plane's green channel, in pixels (centres at +0.5).
    static func centroid(_ plane: [Float], width: Int) -> SIMD2<Double> {
        var sum = SIMD2<Double>.zero, weight = 0.0
        for i in 0..<(plane.count / 3) {
            let v = Double(plane[3 * i + 1])
            sum += SIMD2(Double(i % width) + 0.5, Double(i / width) + 0.5) * v
            weight += v
        }
        return sum / weight
    }

    @Test(arguments: [false, true]) func theTurnedFrameShowsWhatARendererOfTheTurnedDeviceShows(distorted: Bool) throws
    {
        let distortion = distorted ? LensDistortion(lookupTable: [0, 0.01, 0.03, 0.06], center: SIMD2(118, 93)) : nil
        let camera = Self.camera(distortion: distortion)
        let (pair, traced, alone) = try Self.frames(camera: camera)
        // The first frame is the renderer's own frame of that exposure, byte for byte.
        #expect(pair.0.dn == alone.dn && pair.0.flashElectrons == alone.flashElectrons)
        let turned = pair.1
        let flashT = try #require(turned.flashElectrons), flashR = try #require(traced.flashElectrons)
        let ambientT = try #require(turned.ambientElectrons), ambientR = try #require(traced.ambientElectrons)
        // Where the shading is smooth on the scale of a pixel, the interpolated signal is the traced one within
        // 2 % (flash and ambient alike): a linear blend of values within 10 % of each other errs by at most the
        // curvature between them.
        let inside = Self.smooth(traced)
        #expect(inside.count > turned.width * turned.height / 6)
        var worst = 0.0
        for i in inside {
            for c in 0..<3 {
                for (t, r) in [(flashT, flashR), (ambientT, ambientR)] where r[3 * i + c] > 50 {
                    worst = max(worst, abs(Double(t[3 * i + c]) / Double(r[3 * i + c]) - 1))
                }
            }
        }
        #expect(worst < 0.02, "worst relative difference \(worst)")
        // The outline moved with the turn: with the ball alone in the flash, its flash-lit centre lies where the
        // traced frame has it, to 0.05 px, though the turn moved it by over a pixel (the rest: the traced frame's
        // flash turned with the device, and edges sampled at pixel centres).
        let lone = try Self.frames(camera: camera, card: false)
        let still = Renderer(scene: Self.scene(turn: .zero, card: false), camera: camera, flash: Self.flash)
        let before = Self.centroid(try #require(still.render(Self.flashed).flashElectrons), width: camera.width)
        let a = Self.centroid(try #require(lone.traced.flashElectrons), width: camera.width)
        let b = Self.centroid(try #require(lone.pair.1.flashElectrons), width: camera.width)
        #expect((a - before).x.magnitude > 1, "the turn moves the ball: \(a - before)")
        #expect(abs(a.x - b.x) < 0.05 && abs(a.y - b.y) < 0.05, "traced \(a), turned \(b)")
    }
}

extension TurnedPairTests {
    /// The pair is one pass: the turned frame, like any, does not depend on the thread count.
    @Test func theTurnedPairIsTheSameOnAnyNumberOfThreads() throws {
        let scene = Self.scene(turn: Self.turn), later = scene.advanced(by: Self.interval)
        func pair(_ threads: Int) throws -> (RawFrame, RawFrame) {
            let renderer = Renderer(
                scene: scene, camera: Self.camera(), flash: Self.flash, options: RenderOptions(threadCount: threads))
            return try #require(renderer.render(Self.ambient, Self.flashed, turnedTo: later))
        }
        let one = try pair(1), three = try pair(3)
        let same =
            one.0.electrons == three.0.electrons && one.1.electrons == three.1.electrons
            && one.1.materialIDs == three.1.materialIDs && one.1.dn == three.1.dn
        #expect(same)
        // The frames differ: the flash lights the second.
        let differ = one.0.electrons != one.1.electrons
        #expect(differ)
    }

    /// The fast turned pair (the second frame's sums cached per band) gives the bits of the plain reference, which
    /// sums every source's four pixels where it reads them: electrons, DN and truth, with and without lens distortion
    /// and a camera away from the pivot (parallax), and for a scene whose ball shows against the background.
    @Test(arguments: [(false, false, true), (true, false, true), (false, true, true), (false, false, false)])
    func theFastTurnedPairIsTheReferenceBitForBit(distorted: Bool, offset: Bool, card: Bool) throws {
        let scene = Self.scene(turn: Self.turn, card: card), later = scene.advanced(by: Self.interval)
        let camera = Self.camera(
            distortion: distorted ? LensDistortion(lookupTable: [0, 0.01, 0.03, 0.06], center: SIMD2(118, 93)) : nil,
            offset: offset ? Vector3(0.09, -0.12, 0) : .zero)
        // Both factor precisions (`RenderOptions.halfFactors`): each is read through the same sums.
        for half in [false, true] {
            let renderer = Renderer(
                scene: scene, camera: camera, flash: Self.flash, options: RenderOptions(halfFactors: half))
            let fast = try #require(renderer.render(Self.ambient, Self.flashed, turnedTo: later, path: .fast))
            let reference = try #require(
                renderer.render(Self.ambient, Self.flashed, turnedTo: later, path: .reference))
            #expect(fast.0.electrons == reference.0.electrons && fast.1.electrons == reference.1.electrons)
            #expect(fast.0.dn == reference.0.dn && fast.1.dn == reference.1.dn)
            // Bit patterns: the background's depth is NaN.
            #expect(fast.1.depth.map(\.bitPattern) == reference.1.depth.map(\.bitPattern))
            #expect(fast.1.materialIDs == reference.1.materialIDs && fast.1.objectIDs == reference.1.objectIDs)
            #expect(fast.1.flashElectrons == reference.1.flashElectrons)
        }
    }

    /// Frames that leave the truth planes out (`RenderOptions.keepsTruth` false) have empty depth and id planes,
    /// and the same electrons and DN as frames that keep them: the truth never feeds the signal.
    @Test func leavingTheTruthOutLeavesTheSignalAlone() throws {
        let scene = Self.scene(turn: Self.turn), later = scene.advanced(by: Self.interval)
        func pair(_ keepsTruth: Bool) throws -> (RawFrame, RawFrame) {
            let renderer = Renderer(
                scene: scene, camera: Self.camera(), flash: Self.flash, options: RenderOptions(keepsTruth: keepsTruth))
            return try #require(renderer.render(Self.ambient, Self.flashed, turnedTo: later))
        }
        let kept = try pair(true), left = try pair(false)
        #expect(!kept.1.depth.isEmpty && !kept.1.objectIDs.isEmpty && !kept.0.materialIDs.isEmpty)
        for frame in [left.0, left.1] {
            #expect(frame.depth.isEmpty && frame.objectIDs.isEmpty && frame.materialIDs.isEmpty)
        }
        #expect(left.0.dn == kept.0.dn && left.1.dn == kept.1.dn)
        #expect(left.0.electrons == kept.0.electrons && left.1.electrons == kept.1.electrons)
        let alone = Renderer(
            scene: scene, camera: Self.camera(), flash: Self.flash, options: RenderOptions(keepsTruth: false)
        )
        .render(Self.flashed)
        #expect(alone.depth.isEmpty && alone.materialIDs.isEmpty && !alone.dn.isEmpty)
    }

    /// Only a small turn of the device shares the geometry: a moving object, a turn over 0.5° or a move of the
    /// camera's centre over 1 mm needs a renderer of its own.
    @Test func onlyASmallTurnOfTheDeviceSharesTheGeometry() {
        let renderer = Renderer(scene: Self.scene(turn: Self.turn), camera: Self.camera(), flash: Self.flash)
        var rolling = Self.scene(turn: .zero)
        rolling.objects[0].motion.velocity = Vector3(0.01, 0, 0)
        #expect(renderer.render(Self.ambient, Self.flashed, turnedTo: rolling.advanced(by: Self.interval)) == nil)
        #expect(
            renderer.render(Self.ambient, Self.flashed, turnedTo: Self.scene(turn: Self.turn).advanced(by: 0.2)) == nil)
        var moved = Self.scene(turn: .zero)
        moved.device.motion.velocity = Vector3(0.05, 0, 0)
        #expect(renderer.render(Self.ambient, Self.flashed, turnedTo: moved.advanced(by: Self.interval)) == nil)
        #expect(
            renderer.render(
                Self.ambient, Self.flashed, turnedTo: Self.scene(turn: Self.turn).advanced(by: Self.interval)) != nil)
    }

    /// A camera away from the device's pivot moves as the device turns: 15 cm from it, the turn moves its centre by
    /// 0.9 mm, which shifts the ball 0.8 m away by a further 0.3 px. The parallax, taken from the first frame's
    /// depth, keeps the turned frame on the traced one.
    @Test func aCameraAwayFromThePivotGetsItsParallax() throws {
        let camera = Self.camera(offset: Vector3(0.09, -0.12, 0))
        let lone = try Self.frames(camera: camera, card: false)
        let a = Self.centroid(try #require(lone.traced.flashElectrons), width: camera.width)
        let b = Self.centroid(try #require(lone.pair.1.flashElectrons), width: camera.width)
        #expect(abs(a.x - b.x) < 0.05 && abs(a.y - b.y) < 0.05, "traced \(a), turned \(b)")
    }
}

extension TurnedPairTests {
    /// A lit screen's own light reaches both frames as a renderer traced anew shows it: the turned frame's screen
    /// is the traced one's within 2 % away from its outline, and the room's flicker does not dim it.
    @Test func aScreensOwnLightReachesTheTurnedFrame() throws {
        var screenMaterial = Material.neutral("screen", reflectance: 0.04)
        screenMaterial.emission = Spectrum { _ in 0.002 }
        var scene = Self.scene(turn: Self.turn, card: false)
        scene.objects.append(
            SceneObject(
                name: "screen", shape: .plane(width: 0.8, height: 0.6),
                transform: Transform(position: Vector3(0, 0, -1.5)),
                surface: .uniform(screenMaterial)))
        let later = scene.advanced(by: Self.interval)
        let camera = Self.camera()
        let renderer = Renderer(scene: scene, camera: camera, flash: Self.flash)
        let id = UInt16(try #require(renderer.materials.firstIndex { $0.name == "screen" }))
        var flickering = Self.flashed
        flickering.ambientRowGains = [Float](repeating: 0.5, count: camera.height)
        let pair = try #require(renderer.render(Self.ambient, flickering, turnedTo: later))
        let traced = Renderer(scene: later, camera: camera, flash: Self.flash).render(flickering)
        let turnedAmbient = try #require(pair.1.ambientElectrons), tracedAmbient = try #require(traced.ambientElectrons)
        var compared = 0, worst = 0.0
        for i in Self.smooth(traced) where traced.materialIDs[i] == id {
            worst = max(worst, abs(Double(turnedAmbient[3 * i + 1]) / Double(tracedAmbient[3 * i + 1]) - 1))
            compared += 1
        }
        #expect(compared > 1000)
        #expect(worst < 0.02, "worst relative difference \(worst)")
        // The screen is most of its pixels' light: halving the room's light leaves it above 90 % of the steady frame's.
        let steady = try #require(renderer.render(Self.ambient, Self.flashed, turnedTo: later)?.1.ambientElectrons)
        let centre = (camera.height / 2) * camera.width + camera.width / 2 - 40
        #expect(traced.materialIDs[centre] == id)
        #expect(turnedAmbient[3 * centre + 1] > 0.9 * steady[3 * centre + 1])
    }
}
