import Devices
import Foundation
import ISP
import Scenes
import Sensor
import Spectra
import Testing

/// Constant Color sees only what a phone has: the two frames as read out, the device's nominal calibration and the
/// depth its own sensor measured (`ConstantColorCapture`), never the render's ground truth.
struct ConstantColorInputsTests {
    static func chart(_ pipeline: ConstantColorPipeline) throws -> Scene {
        ConstantColorFixture.chartScene(
            illuminant: try Illuminants.make(cct: 3000, duv: 0.01), lux: 200, distance: 0.5,
            width: ConstantColorFixture.chartWidth(camera: pipeline.camera, distance: 0.5))
    }

    /// A capture's photo and confidence map are a function of the readouts and the measured depth alone: processing
    /// the frames' DN and exposures again, with the ground truth (depth, ids, electrons, components) left behind,
    /// gives the same bytes. Were the pipeline to read anything of the render, the second run, which has none of
    /// it, would differ (or trap on the empty planes).
    @Test func photoDependsOnlyOnWhatThePhoneRecorded() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let result = pipeline.capture(scene: try Self.chart(pipeline), seed: 5)
        let d = result.diagnostics
        #expect(!d.flashFrame.depth.isEmpty && !d.flashFrame.materialIDs.isEmpty, "capture keeps the render's truth")
        let readouts = ConstantColorFixture.recorded(result)
        let again = pipeline.process(readouts, plan: d.plan, fallbackBalance: nil)
        #expect(again.photo == result.photo)
        #expect(again.confidenceMap.plane == result.confidenceMap.plane)
        #expect(again.diagnostics.flashFrame.depth.isEmpty && again.diagnostics.flashFrame.materialIDs.isEmpty)
    }

    /// A capture that keeps no truth planes (`capture(scene:seed:keepsTruth:)`, as the photo output takes it) delivers
    /// the same photos; only its diagnostics' frames lack the depth and ids.
    @Test func leavingTheTruthOutChangesNoPhoto() throws {
        let pipeline = try ConstantColorFixture.pipeline()
        let scene = try Self.chart(pipeline)
        let kept = pipeline.capture(scene: scene, seed: 5)
        let left = pipeline.capture(scene: scene, seed: 5, keepsTruth: false)
        #expect(left.photo == kept.photo && left.fallback == kept.fallback)
        #expect(left.confidenceMap.plane == kept.confidenceMap.plane)
        #expect(left.diagnostics.flashFrame.dn == kept.diagnostics.flashFrame.dn)
        #expect(left.diagnostics.flashFrame.depth.isEmpty && left.diagnostics.ambientFrame.materialIDs.isEmpty)
    }

    /// The iPhone 15 Pro measures depth with its LiDAR scanner: a coarse map (a few dozen dots a side, densified at
    /// no more than 192 pixels across), not the picture's per-pixel truth, within the scanner's 1 % at 1 m plus the
    /// densifier's smoothing (5 %) of the chart's true 0.5 m at its centre. The iPhone 14, without a scanner,
    /// measures none, and still delivers a photo.
    @Test func depthIsTheDevicesOwnMeasurement() throws {
        let pro = try ConstantColorFixture.pipeline()
        guard case .lidar = pro.depthSensor else {
            Issue.record("iPhone 15 Pro should measure depth with its LiDAR, not \(pro.depthSensor)")
            return
        }
        let result = pro.capture(scene: try Self.chart(pro), seed: 2)
        let map = try #require(result.diagnostics.measuredDepth)
        #expect(map.width <= 192 && map.width < pro.camera.width)
        #expect(abs(Double(map[map.width / 2, map.height / 2]) / 0.5 - 1) < 0.05)

        let plain = try ConstantColorFixture.pipeline(device: ConstantColorFixture.device("iphone-14"))
        #expect(plain.depthSensor == .none)
        let without = plain.capture(scene: try Self.chart(plain), seed: 2)
        #expect(without.diagnostics.measuredDepth == nil)
        #expect(without.centerWeightedMeanConfidence > 0.5)
    }
}
