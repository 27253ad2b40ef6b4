import Foundation
import Obscura
import ObscuraAV
import Testing

/// `Emulator.shared.runFrames(_:)` returns whatever the running sessions hold.
@Suite struct RunFramesTests {
    // A session with only a photo output makes no frames under the free-running clock (nothing takes
    // them); advancing it has nothing to wait for and returns at once instead of hanging.
    @Test func runFramesReturnsWithAPhotoOutputAlone() throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro", clock: .virtual) {
            let rig = try PhotoRig(start: true)
            defer { rig.session.stopRunning() }
            let returned = DispatchSemaphore(value: 0)
            // A task inherits the test's world; the test waits with a limit, so a hang fails it.
            Task {
                Emulator.shared.runFrames(3)
                returned.signal()
            }
            #expect(returned.wait(timeout: .now() + 30) == .success, "runFrames(3) did not return")
        }
    }
}
