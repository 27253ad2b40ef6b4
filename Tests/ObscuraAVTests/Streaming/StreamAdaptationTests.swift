import Obscura
import Foundation
import ObscuraAV
import Testing

/// Video's 3A converges over frames, as a phone's does: when the light changes mid-stream, exposure
/// and white balance move towards the new auto choice frame by frame instead of jumping, report
/// `isAdjustingExposure` and `isAdjustingWhiteBalance` while they move, and settle on what a stream
/// started in the new light reports.
@Suite(.serialized)
struct StreamAdaptationTests {
    /// Blue gain over red gain: larger for a warmer light.
    static func warmth(_ g: AVCaptureDevice.WhiteBalanceGains) -> Double { Double(g.blueGain / g.redGain) }

    /// A 640×480 BGRA stream on the iPhone 15 Pro's wide camera, running on the manual clock.
    static func stream(_ body: (AVCaptureDevice, StreamRecorder) throws -> Void) throws {
        try onDevice("iphone-15-pro") {
            Emulator.shared.clockMode = .manual
            let rig = try PhotoRig(preset: .vga640x480, start: false)
            let video = AVCaptureVideoDataOutput()
            video.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: Int(kCVPixelFormatType_32BGRA)]
            let recorder = StreamRecorder()
            video.setSampleBufferDelegate(recorder, queue: DispatchQueue(label: "adaptation-test"))
            rig.session.beginConfiguration()
            rig.session.addOutput(video)
            rig.session.commitConfiguration()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            try body(rig.device, recorder)
        }
    }

    /// What a stream started in `scene` settles on: its gains and exposure product.
    static func settled(_ scene: String) throws -> (warmth: Double, exposure: Double) {
        var result = (0.0, 0.0)
        try stream { device, _ in
            try Emulator.shared.use(scene: scene)
            Emulator.shared.runFrames(2)
            #expect(!device.isAdjustingWhiteBalance && !device.isAdjustingExposure)
            result = (warmth(device.deviceWhiteBalanceGains), device.exposureDuration.seconds * Double(device.iso))
        }
        return result
    }

    @Test func exposureAndWhiteBalanceMoveFrameByFrameAfterTheLightChanges() throws {
        let daylight = try ColourScenes.path("door-in-daylight")
        let target = try Self.settled(daylight)
        try Self.stream { device, _ in
            try Emulator.shared.use(scene: "violets-warm-room")
            Emulator.shared.runFrames(3)
            // Started settled: a steady scene's stream does not adjust.
            #expect(!device.isAdjustingWhiteBalance && !device.isAdjustingExposure)
            let room = (Self.warmth(device.deviceWhiteBalanceGains), device.exposureDuration.seconds * Double(device.iso))
            // 150 lux of 2,800 K, then 3,000 lux of 7,500 K daylight: a cooler, 4 EV brighter light.
            #expect(room.0 > target.warmth && room.1 > 8 * target.exposure)
            try Emulator.shared.use(scene: daylight)
            var warmths = [room.0], exposures = [room.1]
            var adjusting = 0
            for _ in 0..<45 {
                Emulator.shared.runFrames(1)
                if device.isAdjustingWhiteBalance || device.isAdjustingExposure { adjusting += 1 }
                warmths.append(Self.warmth(device.deviceWhiteBalanceGains))
                exposures.append(device.exposureDuration.seconds * Double(device.iso))
            }
            // One frame later the loop has moved only part of the way (the gains are capped at
            // `maxWhiteBalanceGain`, so a warm light's blue gain may not show the first step).
            #expect(warmths[1] <= room.0 && warmths[1] > target.warmth + 0.5 * (room.0 - target.warmth))
            #expect(exposures[1] < room.1 && exposures[1] > 2 * target.exposure)
            print("ADAPT warmth \(warmths.prefix(12)) exposure \(exposures.prefix(12))")
            // It moves one way only, and settles on the new light's choice within a second and a half.
            #expect(zip(warmths, warmths.dropFirst()).allSatisfy { $0 >= $1 })
            #expect(zip(exposures, exposures.dropFirst()).allSatisfy { $0 >= $1 })
            #expect(adjusting >= 5 && adjusting < 45, "adjusting for \(adjusting) frames")
            #expect(!device.isAdjustingWhiteBalance && !device.isAdjustingExposure)
            #expect(abs(warmths.last! - target.warmth) < 1e-6)
            #expect(abs(exposures.last! / target.exposure - 1) < 1e-6)
        }
    }

    @Test func lockedWhiteBalanceHoldsWhileExposureMoves() throws {
        let daylight = try ColourScenes.path("door-in-daylight")
        try Self.stream { device, _ in
            try Emulator.shared.use(scene: "violets-warm-room")
            Emulator.shared.runFrames(2)
            try device.lockForConfiguration()
            device.setWhiteBalanceModeLocked(with: AVCaptureDevice.currentWhiteBalanceGains)
            device.unlockForConfiguration()
            let held = device.deviceWhiteBalanceGains
            try Emulator.shared.use(scene: daylight)
            Emulator.shared.runFrames(2)
            #expect(device.deviceWhiteBalanceGains == held)
            #expect(!device.isAdjustingWhiteBalance)
            #expect(device.isAdjustingExposure)
        }
    }
}
