import ExternalTools
import Foundation
import Obscura
import ObscuraAV
import Testing

/// The duration of a movie's video stream as ffprobe, an independent reader, gives it; nil without one.
private func probedDuration(_ url: URL) throws -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try ExternalTool.ffprobe.require())
    process.arguments = [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0",
        url.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Recordings under the realtime clock hold the wall time between start and stop (spec §20 rule 14).
@Suite(.needs(.ffmpeg, .ffprobe))
struct MovieWallClockTests {
    @Test func threeRealtimeTakesEachHoldTheirWallTime() throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro", clock: .realtime) {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .hd1280x720
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            let output = AVCaptureMovieFileOutput()
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("obscura-takes-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let frame = camera.activeVideoMinFrameDuration.seconds
            for take in 1...3 {
                let url = folder.appendingPathComponent("take\(take).mov")
                let delegate = FinishRecorder()
                output.startRecording(to: url, recordingDelegate: delegate)
                Thread.sleep(forTimeInterval: 3)
                output.stopRecording()
                #expect(delegate.finished.wait(timeout: .now() + 120) == .success)
                #expect(delegate.error == nil, "take \(take): \(String(describing: delegate.error))")
                let duration = try #require(try probedDuration(url), "take \(take)")
                #expect(abs(duration - 3) <= frame + 0.05, "take \(take): \(duration) s")
            }
        }
    }
}

private final class FinishRecorder: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _error: Error?
    var error: Error? { lock.withLock { _error } }

    func fileOutput(
        _ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
        error: Error?
    ) {
        lock.withLock { _error = error }
        finished.signal()
    }
}
