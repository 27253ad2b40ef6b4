import Obscura
import Foundation
import ObscuraAV
import Testing

// In the serialized streaming suite: realtime mode and `Emulator.run(for:)` are global.
extension AVCaptureStreamingTests {
    // spec §7 [D]: with alwaysDiscardsLateDepthData, depth that arrives while the delegate is still
    // busy goes to didDrop with reason .lateData; delivered plus dropped equals the depth frames
    // due (24 fps cap on 30 fps video: 15 fps, so 7 or 8 in half a second of realtime, one more for
    // each end of the wait, as `stopRunning` takes effect a moment after it). The delegate
    // takes 0.6 s a frame: longer than the whole half second, so frames fall due while it is busy
    // even where the machine renders them several times slower than real time (0.2 s was not, on a
    // loaded machine with the portable kernels).
    @Test func slowDepthDelegateGetsLateDataDrops() throws {
        try onDevice("iphone-7-plus") {
            let rig = try StreamRig(outputs: ["depth"], clock: .realtime)
            let recorder = StreamRecorder()
            recorder.sleep = 0.6
            #expect(rig.depth.alwaysDiscardsLateDepthData)
            rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
            rig.session.startRunning()
            Emulator.shared.run(for: CMTime(value: 1, timescale: 2))
            rig.session.stopRunning()
            rig.queue.sync {}
            let drops = recorder.depthDrops
            #expect(!drops.isEmpty)
            #expect(drops.allSatisfy { $0 == .lateData })
            #expect((7...10).contains(recorder.depth.count + drops.count))
        }
    }
}
