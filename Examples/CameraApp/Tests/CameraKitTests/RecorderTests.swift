// The tests run on Linux, where Obscura stands in for the camera; the package names its products there only.
#if os(Linux)
import AVFoundation
import CameraKit
import Foundation
import ObscuraTesting
import Testing

/// The filtered recorder writes a movie of exactly the frames it took, where the device can encode movies
/// (Obscura encodes through FFmpeg's libraries when they are installed).
@Suite(.enabled(if: !AVCaptureMovieFileOutput().availableVideoCodecTypes.isEmpty, "no movie encoder here"))
struct RecorderTests {
    @Test(.obscura(device: "iphone-15-pro", scene: "hand-on-desk"))
    func aFilteredRecordingHoldsItsFrames() throws {
        let recorder = FilteredRecorder()
        try recorder.configure()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("noir.mov")
        let done = DispatchSemaphore(value: 0)
        final class Outcome: @unchecked Sendable { var writer: AVAssetWriter? }
        let outcome = Outcome()
        recorder.session.startRunning()
        defer { recorder.session.stopRunning() }
        try recorder.record(to: url, frames: 20) { writer in
            outcome.writer = writer
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 120) == .success)
        let writer = try #require(outcome.writer)
        #expect(writer.status == .completed, "\(String(describing: writer.error))")
        #expect(recorder.framesWritten == 20)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size > 10_000)
    }
}
#endif
