import Foundation
import Obscura
import Testing

/// The rules of deferred start (spec §1.7): where Apple documents an exception, and when a session running
/// deferred start by itself starts its deferred outputs.
@Suite struct DeferredStartRuleTests {
    final class Times: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var stamps: [CMTime] = []
        var times: [CMTime] { lock.withLock { stamps } }

        func captureOutput(
            _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
        ) {
            lock.withLock { stamps.append(CMSampleBufferGetPresentationTimeStamp(sampleBuffer)) }
        }
    }

    final class Quiet: NSObject, AVCaptureSessionDeferredStartDelegate {}

    // spec §1.7 [D]: the app runs deferred start only after turning the automatic run off.
    @Test func runningItWhileTheSessionDoesRaises() {
        let session = AVCaptureSession()
        expectException(.invalidArgumentException, "automaticallyRunsDeferredStart") {
            session.runDeferredStartWhenNeeded()
        }
        session.automaticallyRunsDeferredStart = false
        expectNoException { session.runDeferredStartWhenNeeded() }
    }

    // spec §1.7 [D]: a delegate needs a queue; clearing both is fine.
    @Test func aDelegateWithoutAQueueRaises() {
        let session = AVCaptureSession()
        let delegate = Quiet()
        expectException(.invalidArgumentException, "deferredStartDelegateCallbackQueue may not be NULL") {
            session.setDeferredStartDelegate(delegate, deferredStartDelegateCallbackQueue: nil)
        }
        #expect(session.deferredStartDelegate == nil)
        expectNoException { session.setDeferredStartDelegate(nil, deferredStartDelegateCallbackQueue: nil) }
        let queue = DispatchQueue(label: "deferred")
        session.setDeferredStartDelegate(delegate, deferredStartDelegateCallbackQueue: queue)
        #expect(session.deferredStartDelegate === delegate && session.deferredStartDelegateCallbackQueue === queue)
    }

    // spec §1.7 [D]: enabling deferral where it is not supported is an invalid argument; the still image output,
    // older than the feature, never defers.
    @Test func enablingItWhereUnsupportedRaises() {
        let still = AVCaptureStillImageOutput()
        #expect(!still.isDeferredStartSupported && !still.isDeferredStartEnabled)
        expectException(.invalidArgumentException, "setDeferredStartEnabled:] Deferred start is not supported") {
            still.isDeferredStartEnabled = true
        }
        expectNoException { still.isDeferredStartEnabled = false }
        let photo = AVCapturePhotoOutput()
        photo.isDeferredStartEnabled = false
        #expect(!photo.isDeferredStartEnabled)
    }

    // spec §1.7 [D]: run by itself, deferred start waits for the first frame of every output that streams to the
    // app; a deferred video output's first frame is then the next one.
    @Test func automaticDeferredStartFollowsTheFirstFrame() throws {
        try onDevice {
            let session = AVCaptureSession()
            let streaming = AVCaptureVideoDataOutput(), deferred = AVCaptureVideoDataOutput()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            let camera = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            deferred.isDeferredStartEnabled = true
            session.addOutput(streaming)
            session.addOutput(deferred)
            session.commitConfiguration()
            let early = Times(), late = Times()
            streaming.setSampleBufferDelegate(early, queue: DispatchQueue(label: "early"))
            deferred.setSampleBufferDelegate(late, queue: DispatchQueue(label: "late"))
            Emulator.shared.clockMode = .manual
            session.startRunning()
            Emulator.shared.runFrames(4)
            session.stopRunning()
            let first = early.times, second = late.times
            #expect(first.count == 4)
            #expect(second.count == 3)
            #expect(Array(first.dropFirst()) == second)
        }
    }
}
