import AVFoundation
import ExternalTools
import Foundation
import Testing

/// Key-value observation as capture apps use it, on properties that change without a setter call.
final class ExposureWatcher: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCaptureVideoDataOutput()
    private let queue = DispatchQueue(label: "frames")
    private let lock = NSLock()
    private var _frames = 0
    var frames: Int { lock.withLock { _frames } }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        lock.withLock { _frames += 1 }
    }

    func waitForFrames(_ count: Int) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while frames < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return frames >= count
    }
}

extension DropIn {
    @Suite struct KeyValueObservingIdiomTests {
        // The ISO and exposure time that auto-exposure chooses are observable (AVCaptureDevice.h: KVO):
        // a bias change moves them on the next frames, and the observers hear of it.
        @Test func autoExposureChangesReachObservers() throws {
            let watcher = ExposureWatcher()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            watcher.session.beginConfiguration()
            let input = try AVCaptureDeviceInput(device: camera)
            if watcher.session.canAddInput(input) { watcher.session.addInput(input) }
            if watcher.session.canAddOutput(watcher.output) { watcher.session.addOutput(watcher.output) }
            watcher.output.setSampleBufferDelegate(watcher, queue: DispatchQueue(label: "frames"))
            watcher.session.commitConfiguration()
            let lock = NSLock()
            var isoSeen: [Float] = []
            var durationSeen: [CMTime] = []
            let isoObservation = camera.observe(\.iso, options: [.new]) { _, change in
                if let value = change.newValue { lock.withLock { isoSeen.append(value) } }
            }
            let durationObservation = camera.observe(\.exposureDuration, options: [.new]) { _, change in
                if let value = change.newValue { lock.withLock { durationSeen.append(value) } }
            }
            defer {
                isoObservation.invalidate()
                durationObservation.invalidate()
            }
            watcher.session.startRunning()
            defer { watcher.session.stopRunning() }
            #expect(watcher.waitForFrames(3))
            let before = camera.iso * Float(camera.exposureDuration.seconds)
            try camera.lockForConfiguration()
            camera.setExposureTargetBias(-2, completionHandler: nil)
            camera.unlockForConfiguration()
            #expect(watcher.waitForFrames(watcher.frames + 3))
            // Auto-exposure moves over frames: wait for it to settle, as an app reading a steady value does.
            let deadline = Date().addingTimeInterval(60)
            while camera.isAdjustingExposure && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(watcher.waitForFrames(watcher.frames + 2))
            let after = camera.iso * Float(camera.exposureDuration.seconds)
            #expect(after < before, "two stops darker: \(before) → \(after)")
            let heard = lock.withLock { (isoSeen, durationSeen) }
            #expect(!heard.0.isEmpty || !heard.1.isEmpty, "no observer heard the exposure change")
            if let last = heard.0.last { #expect(last == camera.iso) }
            // The device is the process's: leave it as found.
            try camera.lockForConfiguration()
            camera.setExposureTargetBias(0, completionHandler: nil)
            camera.unlockForConfiguration()
        }

        // A movie file output's recording state is observable.
        @Test(.needs(.ffmpeg, .ffprobe))
        func recordingStateReachesObservers() throws {
            let rig = try MovieRig(preset: .vga640x480)
            let lock = NSLock()
            var seen: [Bool] = []
            let observation = rig.output.observe(\.isRecording, options: [.new]) { _, change in
                if let value = change.newValue { lock.withLock { seen.append(value) } }
            }
            defer { observation.invalidate() }
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let events = RecordingEvents()
            rig.output.startRecording(to: folder.appendingPathComponent("kvo.mov"), recordingDelegate: events)
            Thread.sleep(forTimeInterval: 0.3)
            rig.output.stopRecording()
            #expect(events.waitForFinish())
            Thread.sleep(forTimeInterval: 0.1)
            #expect(lock.withLock { seen } == [true, false])
        }
    }
}
