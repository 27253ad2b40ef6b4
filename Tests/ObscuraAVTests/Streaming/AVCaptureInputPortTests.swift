import Foundation
import Obscura
import ObscuraAV
import Testing

/// `AVCaptureInput.Port`'s clock and its format-change notification.
@Suite(.serialized)
struct AVCaptureInputPortTests {
    // The port's clock is the session's timeline, the one sample buffers are stamped on: it reads no
    // earlier than any buffer delivered, advances as the stream does, and is one clock for every
    // port of the session. An input in no session has no timeline to read.
    @Test func clockIsTheSessionTimeline() throws {
        try onDevice("iphone-7-plus") {
            let device = try #require(AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back))
            let loose = try AVCaptureDeviceInput(device: device)
            #expect(loose.ports.first?.clock == nil)

            let rig = try StreamRig()
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            let input = try #require(rig.session.inputs.first)
            let clock = try #require(input.ports.first { $0.mediaType == .video }?.clock)
            let depthClock = try #require(input.ports.first { $0.mediaType == .depthData }?.clock)
            #expect(clock == depthClock)
            #expect(rig.session.synchronizationClock == clock)
            #expect(clock.mightDrift(relativeTo: CMClock.hostTimeClock))
            #expect(!clock.mightDrift(relativeTo: clock))
            let start = CMClockGetTime(clock)
            #expect(start.isValid)
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            Emulator.shared.run(for: CMTime(value: 1, timescale: 1))
            let last = try #require(recorder.video.last).presentationTimeStamp
            let now = clock.time
            #expect(now >= last, "clock \(now.seconds) s, last buffer \(last.seconds) s")
            #expect(CMTimeSubtract(now, start).seconds >= 1 - 1e-9)
            #expect(CMSyncGetTime(clock) == now)  // a manual clock stands still between runs
        }
    }

    // The host time clock counts forward in nanoseconds.
    @Test func hostTimeClockAdvances() {
        let a = CMClockGetTime(CMClockGetHostTimeClock())
        Thread.sleep(forTimeInterval: 0.01)
        let b = CMClock.hostTimeClock.time
        #expect(a.timescale == 1_000_000_000)
        #expect(CMTimeSubtract(b, a).seconds >= 0.009)
    }

    // formatDescriptionDidChangeNotification is posted with the port when its format description
    // changes: the video port's when the active format changes; no post when nothing changes.
    @Test func formatChangesArePosted() throws {
        try onDevice("iphone-15-pro") {
            let device = try #require(AVCaptureDevice.default(for: .video))
            let input = try AVCaptureDeviceInput(device: device)
            let session = AVCaptureSession()
            session.addInput(input)
            let video = try #require(input.ports.first { $0.mediaType == .video })
            let posted = LockedBox<[AVCaptureInput.Port]>([])
            let token = NotificationCenter.default.addObserver(
                forName: AVCaptureInput.Port.formatDescriptionDidChangeNotification, object: nil, queue: nil
            ) { note in
                if let port = note.object as? AVCaptureInput.Port, port.input === input {
                    posted.withLock { $0.append(port) }
                }
            }
            defer { NotificationCenter.default.removeObserver(token) }
            let current = device.activeFormat
            func size(_ d: CMVideoDimensions) -> [Int32] { [d.width, d.height] }
            let other = try #require(
                device.formats.first {
                    $0.mediaType == .video
                        && size($0.formatDescription.dimensions) != size(current.formatDescription.dimensions)
                })
            try device.lockForConfiguration()
            device.activeFormat = current
            #expect(posted.withLock { $0 }.isEmpty)
            device.activeFormat = other
            device.unlockForConfiguration()
            let ports = posted.withLock { $0 }
            #expect(ports.contains { $0 === video })
            #expect(video.formatDescription.map { size($0.dimensions) } == size(other.formatDescription.dimensions))
        }
    }
}

/// A value behind a lock, for notification handlers that run on other threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&value) } }
}
