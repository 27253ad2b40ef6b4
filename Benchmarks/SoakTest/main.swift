import AVFoundation
import Foundation

/// Memory over time under parallel sessions, as a test host that runs capture tests for hours meets
/// it: `SOAK_SESSIONS` threads (8 by default) each repeat a whole session lifecycle written as an app
/// writes it (configure, start, receive frames, take a photo without reading its pixels, stop) for
/// `SOAK_SECONDS` (600 by default). The resident set size is sampled every `SOAK_SAMPLE_SECONDS` (30)
/// and printed; the program fails when the last third of the run grew by more than 10 % over its
/// first sample after the warm-up (the first third), which a leak of the trace or of sessions would.

final class Lifecycle: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCapturePhotoCaptureDelegate,
    @unchecked Sendable
{
    private let lock = NSLock()
    private var frames = 0
    let enoughFrames = DispatchSemaphore(value: 0)
    let photoDone = DispatchSemaphore(value: 0)

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        let count = lock.withLock { () -> Int in
            frames += 1
            return frames
        }
        if count == 5 { enoughFrames.signal() }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        photoDone.signal()
    }

    /// One lifecycle; false when something did not arrive in time.
    static func run() -> Bool {
        let me = Lifecycle()
        let session = AVCaptureSession()
        session.beginConfiguration()
        session.sessionPreset = .vga640x480
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back),
            let input = try? AVCaptureDeviceInput(device: camera)
        else { return false }
        if session.canAddInput(input) { session.addInput(input) }
        let video = AVCaptureVideoDataOutput()
        video.setSampleBufferDelegate(me, queue: DispatchQueue(label: "frames"))
        if session.canAddOutput(video) { session.addOutput(video) }
        let photo = AVCapturePhotoOutput()
        if session.canAddOutput(photo) { session.addOutput(photo) }
        session.commitConfiguration()
        session.startRunning()
        defer { session.stopRunning() }
        guard me.enoughFrames.wait(timeout: .now() + 60) == .success else { return false }
        photo.capturePhoto(with: AVCapturePhotoSettings(), delegate: me)
        return me.photoDone.wait(timeout: .now() + 60) == .success
    }
}

func residentMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes / 1024
}

let environment = ProcessInfo.processInfo.environment
let sessions = Int(environment["SOAK_SESSIONS"] ?? "") ?? 8
let seconds = Double(environment["SOAK_SECONDS"] ?? "") ?? 600
let sampleSeconds = Double(environment["SOAK_SAMPLE_SECONDS"] ?? "") ?? 30
let start = Date()
/// Lifecycles run and failed, from every thread.
final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var value = (done: 0, failed: 0)
    func add(ok: Bool) { lock.withLock { value = (value.done + 1, value.failed + (ok ? 0 : 1)) } }
    var current: (done: Int, failed: Int) { lock.withLock { value } }
}
let counts = Counts()
let finished = DispatchGroup()
for _ in 0..<sessions {
    finished.enter()
    Thread.detachNewThread {
        while Date().timeIntervalSince(start) < seconds {
            counts.add(ok: Lifecycle.run())
        }
        finished.leave()
    }
}
var samples: [(seconds: Double, megabytes: Double)] = []
while finished.wait(timeout: .now() + sampleSeconds) == .timedOut {
    let sample = (Date().timeIntervalSince(start), residentMegabytes())
    samples.append(sample)
    print(String(format: "%6.0f s  RSS %7.1f MB  %d lifecycles", sample.0, sample.1, counts.current.done))
}
let done = counts.current
let settled = samples.filter { $0.seconds >= seconds / 3 }
guard let first = settled.first, let peak = settled.map(\.megabytes).max() else {
    print("too short to judge: \(samples.count) samples")
    exit(2)
}
let growth = (peak - first.megabytes) / first.megabytes
print(String(format: "%d sessions, %d lifecycles, %d failed; RSS after warm-up %.1f MB, peak %.1f MB (%+.1f %%)",
    sessions, done.0, done.1, first.megabytes, peak, growth * 100))
exit(done.1 == 0 && growth <= 0.10 ? 0 : 1)
