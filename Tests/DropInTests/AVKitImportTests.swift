import AVKit
import Testing

// This file imports AVKit alone, as some camera views do: the SDK's AVKit re-exports AVFoundation, so the capture
// API comes with it.

extension DropIn {
    @Suite struct AVKitImportTests {
        @Test func avKitBringsTheCaptureAPI() {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .photo
            session.commitConfiguration()
            #expect(session.sessionPreset == .photo)
            #expect(CMTime(value: 1, timescale: 2).seconds == 0.5)
        }
    }
}
