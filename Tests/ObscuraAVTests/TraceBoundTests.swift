import Foundation
import Obscura
import ObscuraAV
import Testing

/// The trace and the record of raised exceptions keep a bounded number of entries, the newest, so a
/// long-running process keeps a flat memory (documented size: 10,000).
@Suite struct TraceBoundTests {
    @Test func theTraceKeepsTheNewestTenThousandEntries() throws {
        try Emulator.shared.withWorld(device: "iphone-15-pro") {
            let rig = try PhotoRig(start: false)
            let delegate = NoPhotoDelegate()
            // Each refused capture records every rule checked up to the one that refused it (§3.2).
            func refusedCapture() {
                let settings = AVCapturePhotoSettings()
                settings.isConstantColorEnabled = true
                _ = Emulator.catchException { rig.output.capturePhoto(with: settings, delegate: delegate) }
            }
            refusedCapture()
            let perCapture = Emulator.shared.trace.count
            try #require(perCapture > 0)
            for _ in 0..<(12_000 / perCapture + 1) { refusedCapture() }
            let trace = Emulator.shared.trace
            #expect(trace.count >= 10_000 && trace.count <= 12_500, "\(trace.count) entries")
            #expect(trace.last?.outcome == .raised)
            #expect(Emulator.shared.raisedExceptions.count <= 12_500)
            Emulator.shared.clearTrace()
            refusedCapture()
            #expect(Emulator.shared.trace.count == perCapture)
        }
    }
}

private final class NoPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate {}
