import ExternalTools
import Foundation
import Obscura
import ObscuraAV
import Testing

/// Footage as the whole scene, chosen with `use(scene:)` as with `OBSCURA_SCENE` or a scenario's `scene:`:
/// the camera sees a screen filling its view, through its own exposure and noise, and depth cameras
/// report no depth for it.
@Suite(.serialized)
struct FootageSceneTests {
    @Test func aClipChosenAsTheSceneFillsTheViewAndPlaysInOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-footage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.y4m")
        // Two frames a second: frame 0 (red) for 15 stream frames, then frame 1 (blue).
        try Y4MClip.write([[200, 60, 50], [50, 80, 200]], rate: 2, width: 32, height: 24, to: clip)
        let frames = try onDevice("iphone-15-pro") { () throws -> [CMSampleBuffer] in
            try Emulator.shared.use(scene: clip.path)
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            // White balance held at the footage's own white (D65), as a test of colour would hold it: auto white
            // balance would pull a view filled with one colour towards grey, as a phone's does.
            try rig.device.lockForConfiguration()
            let d65 = rig.device.deviceWhiteBalanceGains(
                for: AVCaptureDevice.WhiteBalanceTemperatureAndTintValues(temperature: 6504, tint: 0))
            let low = min(d65.redGain, d65.greenGain, d65.blueGain)
            let top = rig.device.maxWhiteBalanceGain
            rig.device.setWhiteBalanceModeLocked(
                with: AVCaptureDevice.WhiteBalanceGains(
                    redGain: min(d65.redGain / low, top), greenGain: min(d65.greenGain / low, top),
                    blueGain: min(d65.blueGain / low, top)),
                completionHandler: nil)
            rig.device.unlockForConfiguration()
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "footage"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(30)
            return recorder.video
        }
        #expect(frames.count == 30)
        for (k, buffer) in frames.enumerated() {
            let expected = buffer.presentationTimeStamp.seconds < 0.5 - 1e-9 ? 0 : 2
            let image = try #require(buffer.imageBuffer)
            // The footage fills the view: the centre and the corners show the clip's colour.
            for (dx, dy) in [(0, 0), (-280, -200), (280, 200)] {
                let (mean, _) = try ScreenAndPrintTests.centre(image, size: 16, dx: dx, dy: dy)
                #expect(ScreenAndPrintTests.dominant(mean) == expected, "frame \(k) at (\(dx), \(dy)): \(mean)")
            }
        }
    }

    @Test func depthCamerasReportNoDepthForFootage() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-footage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = dir.appendingPathComponent("clip.y4m")
        try Y4MClip.write([[120, 120, 120]], rate: 30, to: clip)
        let (video, depth) = try onDevice("iphone-7-plus") { () throws -> (Int, Int) in
            try Emulator.shared.use(scene: clip.path)
            let rig = try StreamRig(outputs: ["video", "depth"])
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.runFrames(6)
            return (recorder.video.count, recorder.depth.count)
        }
        #expect(video == 6)
        #expect(depth == 0)
    }
}
