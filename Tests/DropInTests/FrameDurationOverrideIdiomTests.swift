import AVFoundation
import Foundation
import Testing

// `videoMinFrameDurationOverride` as Apple's AVMultiCamPiP uses it under system pressure: a longer frame duration
// for an input lowers the multi-camera session's cost and the rate its frames come at.

extension DropIn {
    @Suite struct FrameDurationOverrideIdiomTests {
        final class Timestamps: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private(set) var times: [CMTime] = []
            let done = DispatchSemaphore(value: 0)

            func captureOutput(
                _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
            ) {
                let count = lock.withLock { () -> Int in
                    times.append(CMSampleBufferGetPresentationTimeStamp(sampleBuffer))
                    return times.count
                }
                if count == 4 { done.signal() }
            }
        }

        @Test func aLongerFrameDurationLowersTheCostAndTheRate() throws {
            let session = AVCaptureMultiCamSession()
            session.beginConfiguration()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            session.addInput(input)
            let output = AVCaptureVideoDataOutput()
            session.addOutput(output)
            session.commitConfiguration()
            #expect(!input.videoMinFrameDurationOverride.isValid)
            let active = camera.activeVideoMinFrameDuration
            let cost = session.hardwareCost
            #expect(cost > 0)

            // As AVMultiCamPiP does: ten frames a second fewer than the active rate.
            let rate = Double(active.timescale) / Double(active.value) - 10
            try camera.lockForConfiguration()
            input.videoMinFrameDurationOverride = CMTimeMake(value: 1, timescale: Int32(rate))
            camera.unlockForConfiguration()
            // The cost is the pixel rate over the budget: it falls in proportion to the frame rate.
            #expect(abs(Double(session.hardwareCost) - Double(cost) * rate * active.seconds) < 1e-4)
            // The device's own frame duration is unchanged; the input's frames come at the lower rate.
            #expect(camera.activeVideoMinFrameDuration == active)
            let timestamps = Timestamps()
            output.setSampleBufferDelegate(timestamps, queue: DispatchQueue(label: "frames"))
            session.startRunning()
            #expect(timestamps.done.wait(timeout: .now() + 60) == .success)
            session.stopRunning()
            let times = timestamps.times
            for (a, b) in zip(times, times.dropFirst()) {
                #expect(abs((b - a).seconds - 1 / rate) < 1e-6, "\(a.seconds) → \(b.seconds)")
            }
            // A duration shorter than the device's changes nothing.
            input.videoMinFrameDurationOverride = CMTimeMake(value: 1, timescale: 240)
            #expect(abs(session.hardwareCost - cost) < 1e-6)
        }
    }
}
