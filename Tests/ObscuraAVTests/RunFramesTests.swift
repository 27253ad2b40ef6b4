import Foundation
import Obscura
import ObscuraAV
import Testing

/// `Emulator.shared.runFrames(_:)` returns whatever the running sessions hold.
@Suite struct RunFramesTests {
    // A session with only a photo output makes no frames under the free-running clock (nothing takes
    // them); advancing it has nothing to wait for and returns at once instead of hanging. (A hang here
    // stalls the suite until CI's time limit fails it.)
    @Test func runFramesReturnsWithAPhotoOutputAlone() throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro", clock: .virtual) {
            let rig = try PhotoRig(start: true)
            defer { rig.session.stopRunning() }
            let started = Date()
            Emulator.shared.runFrames(3)
            #expect(Date().timeIntervalSince(started) < 30)
        }
    }
}
