import Foundation
import Obscura
import Testing

/// The same seed gives the same frame bytes whether the stream runs free (the default) or is
/// advanced by hand, and a different seed gives different depth noise.
@Suite(.serialized) struct StreamDeterminismTests {
    /// FNV-1a over a buffer's planes, row by row (padding excluded).
    static func digest(_ buffer: CVPixelBuffer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        let planes = max(CVPixelBufferGetPlaneCount(buffer), 1)
        for plane in 0..<planes {
            guard let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane) else { continue }
            let rowBytes = CVPixelBufferGetBytesPerRowOfPlane(buffer, plane)
            let height = CVPixelBufferGetHeightOfPlane(buffer, plane)
            let width = CVPixelBufferGetWidthOfPlane(buffer, plane)
            let used = min(rowBytes, width * (rowBytes / max(width, 1)))
            for y in 0..<height {
                let row = base.advanced(by: y * rowBytes).assumingMemoryBound(to: UInt8.self)
                for x in 0..<used {
                    hash = (hash ^ UInt64(row[x])) &* 0x100_0000_01b3
                }
            }
        }
        return hash
    }

    /// Video and depth digests of the first `frames` frames of a dual-camera stream.
    static func stream(clock: Emulator.ClockMode, seed: UInt64, frames: Int) throws -> (video: [UInt64], depth: [UInt64]) {
        try Emulator.shared.withWorld(device: "iphone-7-plus", seed: seed, clock: clock) {
            let rig = try StreamRig(clock: clock)
            let recorder = StreamRecorder()
            rig.video.setSampleBufferDelegate(recorder, queue: rig.queue)
            rig.depth.isFilteringEnabled = false
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            if clock == .manual {
                Emulator.shared.runFrames(frames)
            } else {
                let deadline = Date().addingTimeInterval(120)
                while recorder.video.count < frames, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            }
            rig.session.stopRunning()
            rig.queue.sync {}
            let video = recorder.video.prefix(frames).compactMap { $0.imageBuffer.map(digest) }
            let depth = recorder.depth.filter { $0.1.seconds < Double(frames) / 30 - 1e-9 }.map { digest($0.0.depthDataMap) }
            return (video, depth)
        }
    }

    @Test func freeRunningAndManualClocksGiveTheSameBytes() throws {
        let free = try Self.stream(clock: .virtual, seed: 3, frames: 4)
        let manual = try Self.stream(clock: .manual, seed: 3, frames: 4)
        #expect(free.video.count == 4 && free.depth.count == 2)
        #expect(free.video == manual.video)
        #expect(free.depth == manual.depth)
    }

    @Test func depthNoiseFollowsTheSeed() throws {
        let a = try Self.stream(clock: .manual, seed: 3, frames: 1)
        let b = try Self.stream(clock: .manual, seed: 4, frames: 1)
        #expect(a.depth.count == 1 && b.depth.count == 1)
        #expect(a.depth != b.depth)
    }
}
