import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

struct FrameRegistrationTests {
    /// The device slides sideways between the ambient and the flash frame. For a plane square-on at
    /// distance z, a pinhole camera (no distortion) sees its content move by fx·Δx/z pixels: the
    /// closed form the estimate must match within 0.1 px, despite the flash changing the lighting.
    @Test func recoversSubPixelShiftBetweenFlashAndAmbient() throws {
        let pipeline = try ConstantColorFixture.pipeline(width: 240, height: 180)
        var scene = ConstantColorFixture.chartScene(illuminant: try Illuminants.make(cct: 3000), lux: 150, distance: 0.5)
        // A speed that moves the chart by about 0.63 px in the interval (to the right).
        let velocity = 0.63 * 0.5 / (pipeline.camera.fx * pipeline.settings.interval)
        scene.device.motion = Motion(velocity: Vector3(velocity, 0, 0))
        let result = pipeline.capture(scene: scene, seed: 9)
        let dt = result.diagnostics.plan.interval
        let expected = pipeline.camera.fx * velocity * dt / 0.5
        #expect(expected > 0.2 && expected < 1.5)
        let d = result.diagnostics.registration
        #expect(abs(d.x - expected) < 0.1, "\(d.x) vs \(expected)")
        #expect(abs(d.y) < 0.1)
    }

    /// A plane shifted by resampling a smooth pattern is recovered (integer plus fraction).
    @Test func recoversSyntheticShift() {
        let d = Self.registerShiftedPattern(width: 128, height: 96, dx: 3.37, dy: -1.62) { x, y in
            2 + sin(x * 0.31) * cos(y * 0.23) + 0.5 * sin((x + y) * 0.11)
        }
        #expect(abs(d.x - 3.37) < 0.1 && abs(d.y + 1.62) < 0.1, "\(d)")
    }

    /// Above 1 MP the finest level refined is a reduced one and its shift is scaled up: a
    /// 2400 × 1800 frame (4.3 MP, refined at 600 × 450) must still give the shift within 0.1 px.
    @Test func recoversSyntheticShiftInALargeFrameRefinedAtHalfResolution() {
        #expect(2400 * 1800 > 4_000_000)
        let d = Self.registerShiftedPattern(width: 2400, height: 1800, dx: 5.37, dy: -2.62) { x, y in
            2 + sin(x * 0.031) * cos(y * 0.023) + 0.5 * sin((x + y) * 0.011) + 0.2 * sin(x * 0.13 - y * 0.07)
        }
        #expect(abs(d.x - 5.37) < 0.1 && abs(d.y + 2.62) < 0.1, "\(d)")
    }

    /// A 12 MP frame (4032 × 3024, the Constant Color photo's size, refined at 1008 × 756) moved by a
    /// known sub-pixel shift and made three times brighter: the shift within 0.1 px. The pattern is
    /// a sum of products of sines of x and of y (sin(a + b) expanded), so it is built from tables.
    @Test func recoversSubPixelShiftInATwelveMegapixelFrame() {
        let w = 4032, h = 3024, dx = -2.71, dy = 1.43
        func tables(_ n: Int, _ shift: Double, _ k: [Double]) -> [[Double]] {
            var out: [[Double]] = []
            for f in k {
                let phases: [Double] = (0..<n).map { (Double($0) - shift) * f }
                out.append(phases.map { sin($0) })
                out.append(phases.map { cos($0) })
            }
            return out
        }
        // Frequencies (radians per pixel) of the terms in x and in y.
        let kx = [0.031, 0.011, 0.13], ky = [0.023, 0.011, 0.07]
        func plane(dx: Double, dy: Double, gain: Float) -> [Float] {
            let tx = tables(w, dx, kx), ty = tables(h, dy, ky)
            var out = [Float](repeating: 0, count: w * h)
            for y in 0..<h {
                let (c0, s1, c1, s2, c2) = (ty[1][y], ty[2][y], ty[3][y], ty[4][y], ty[5][y])
                for x in 0..<w {
                    // 2 + sin(0.031x)·cos(0.023y) + 0.5·sin(0.011(x + y)) + 0.2·sin(0.13x − 0.07y)
                    let first: Double = tx[0][x] * c0
                    let second: Double = 0.5 * (tx[2][x] * c1 + tx[3][x] * s1)
                    let third: Double = 0.2 * (tx[4][x] * c2 - tx[5][x] * s2)
                    let v = 2 + first + second + third
                    out[y * w + x] = gain * Float(v)
                }
            }
            return out
        }
        let reference = plane(dx: 0, dy: 0, gain: 1)
        let moving = plane(dx: dx, dy: dy, gain: 3)
        let d = FrameRegistration.translation(reference: reference, moving: moving, width: w, height: h)
        #expect(abs(d.x - dx) < 0.1 && abs(d.y - dy) < 0.1, "\(d)")
    }

    /// The translation found between `pattern` and the same pattern moved by (dx, dy) and made
    /// three times brighter.
    static func registerShiftedPattern(
        width w: Int, height h: Int, dx: Double, dy: Double, _ pattern: (Double, Double) -> Double
    ) -> SIMD2<Double> {
        var reference = [Float](repeating: 0, count: w * h)
        var moving = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                reference[y * w + x] = Float(pattern(Double(x), Double(y)))
                moving[y * w + x] = 3 * Float(pattern(Double(x) - dx, Double(y) - dy))
            }
        }
        return FrameRegistration.translation(reference: reference, moving: moving, width: w, height: h)
    }
}

/// The registration on whole captures at the photo's size.
struct FrameRegistrationCaptureTests {
    /// A still 12 MP capture of near objects on a table before a wall, lit by a warm room light: the flash lights
    /// the near objects far more than the wall behind, so the frames' coarse pictures differ in lighting more than in
    /// place. The coarsest level searched must be fine enough that a step of its search is a few of the photo's
    /// pixels; when the pyramid ran down to 126 × 94 blocks of 32 pixels, the search took a whole block's step and
    /// the registration ended 26 pixels off.
    @Test func aNearObjectLitByTheFlashDoesNotPullTheSearchAStepAway() throws {
        let pipeline = try ConstantColorFixture.pipeline(width: 4032, height: 3024)
        let scene = try ConstantColorSceneTests.scene("violets-warm-room")
        let result = pipeline.capture(scene: scene, seed: 0, keepsTruth: false)
        let d = pipeline.registration(ConstantColorFixture.recorded(result))
        // The frames' structure differs by the flash's own shadows and shading, which leave the fit within about a
        // pixel of the truth (zero) on this scene.
        #expect(abs(d.x) < 1.5 && abs(d.y) < 1.5, "\(d)")
        // The pair has as few impossibly dark pixels unshifted as shifted, so the capture keeps it unshifted.
        #expect(result.diagnostics.registration == .zero)
    }

    /// The hand turns the phone between the frames (the profile's hand speed, three stops of stabilisation, the roll
    /// whole), moving the picture's centre by 0.67 px on this draw. The count of impossibly dark pixels cannot tell two
    /// positions less than a pixel apart (it compares each pixel with the nine ambient pixels around either), so the
    /// capture keeps the registration's shift, which lies within 0.2 px of the centre's true motion (the pinhole
    /// projection of the optical axis from both placements), rather than the unshifted pair.
    @Test func aSubPixelTurnKeepsTheRegisteredShift() throws {
        let profile = try ConstantColorFixture.device()
        let camera = try profile.camera(ofType: .builtInWideAngleCamera)
        let pipeline = try ConstantColorPipeline(
            device: profile, camera: camera, width: 4032, height: 3024, settings: .init(developsFallback: false))
        let scene = try ConstantColorSceneTests.scene("hand-on-desk")
        let drawn = pipeline.captureErrors.draw(camera: pipeline.camera, flash: pipeline.flash, scene: scene, seed: 0)
        let before = drawn.scene.device, after = drawn.scene.advanced(by: pipeline.settings.interval).device
        let axis = before.position + before.rotation.apply(Vector3(0, 0, 1))
        let motion =
            ConstantColorHandMotionTests.project(axis, device: after, camera: pipeline.camera)
            - ConstantColorHandMotionTests.project(axis, device: before, camera: pipeline.camera)
        #expect((motion * motion).sum().squareRoot() > 0.5, "\(motion)")

        let result = pipeline.capture(scene: scene, seed: 0, keepsTruth: false)
        let d = pipeline.registration(ConstantColorFixture.recorded(result))
        // ambient(x + d) ≈ flash(x): d is minus the picture's motion.
        #expect(((d + motion) * (d + motion)).sum().squareRoot() < 0.2, "registration \(d), motion \(motion)")
        #expect(result.diagnostics.registration == d)
    }
}
