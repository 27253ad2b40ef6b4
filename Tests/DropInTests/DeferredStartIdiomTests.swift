import AVFoundation
import Foundation
import Testing

// Deferred start (iOS 26) as camera apps adopt it: Apple's AVCam lets the session start its photo output shortly
// after the preview shows, and an app that draws the frames of a video data output itself tells the session when
// its first frame is on screen.

extension DropIn {
    @Suite struct DeferredStartIdiomTests {
        /// Records the deferred start callbacks in order.
        final class DeferredStartLog: NSObject, AVCaptureSessionDeferredStartDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private var recorded: [String] = []
            let didRun = DispatchSemaphore(value: 0)
            var events: [String] { lock.withLock { recorded } }

            func sessionWillRunDeferredStart(_ session: AVCaptureSession) {
                lock.withLock { recorded.append("will") }
            }
            func sessionDidRunDeferredStart(_ session: AVCaptureSession) {
                lock.withLock { recorded.append("did") }
                didRun.signal()
            }
        }

        /// Counts frames.
        final class FrameCounter: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
            private let lock = NSLock()
            private var frames = 0
            let first = DispatchSemaphore(value: 0)
            var count: Int { lock.withLock { frames } }

            func captureOutput(
                _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
            ) {
                let n = lock.withLock { () -> Int in
                    frames += 1
                    return frames
                }
                if n == 1 { first.signal() }
            }
        }

        /// A photo delegate that signals when the capture is finished.
        final class PhotoWaiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
            let finished = DispatchSemaphore(value: 0)
            private(set) var data: Data?

            func photoOutput(
                _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?
            ) {
                data = photo.fileDataRepresentation()
            }
            func photoOutput(
                _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                error: Error?
            ) {
                finished.signal()
            }
        }

        /// A session on the back camera with `outputs`, its deferred start run by itself or by the app, and a log of
        /// the deferred start callbacks.
        private func makeSession(
            _ preset: AVCaptureSession.Preset, automatic: Bool, outputs: [AVCaptureOutput]
        ) throws -> (AVCaptureSession, DeferredStartLog) {
            let session = AVCaptureSession()
            let log = DeferredStartLog()
            session.setDeferredStartDelegate(log, deferredStartDelegateCallbackQueue: DispatchQueue(label: "deferred"))
            session.beginConfiguration()
            session.sessionPreset = preset
            session.automaticallyRunsDeferredStart = automatic
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            for output in outputs where session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            return (session, log)
        }

        @Test func outputsDeferAsAnAppLinkedOnIOS26Finds() throws {
            let session = AVCaptureSession()
            #expect(session.automaticallyRunsDeferredStart)
            #expect(session.isManualDeferredStartSupported)
            #expect(session.deferredStartDelegate == nil)
            // Photo and file outputs defer by default; outputs that stream to the app, and the preview, do not.
            let photo = AVCapturePhotoOutput(), movie = AVCaptureMovieFileOutput()
            let video = AVCaptureVideoDataOutput(), metadata = AVCaptureMetadataOutput()
            #expect(photo.isDeferredStartSupported && photo.isDeferredStartEnabled)
            #expect(movie.isDeferredStartSupported && movie.isDeferredStartEnabled)
            #expect(video.isDeferredStartSupported && !video.isDeferredStartEnabled)
            #expect(metadata.isDeferredStartSupported && !metadata.isDeferredStartEnabled)
            let preview = AVCaptureVideoPreviewLayer(session: session)
            #expect(preview.isDeferredStartSupported && !preview.isDeferredStartEnabled)
        }

        // Apple's AVCam: the photo output deferred, the session running deferred start by itself, and a shutter
        // press that comes whenever it comes.
        @Test func avCamDefersItsPhotoOutputAndStillTakesThePhoto() throws {
            let output = AVCapturePhotoOutput()
            output.isDeferredStartEnabled = output.isDeferredStartSupported
            let (session, log) = try makeSession(.photo, automatic: true, outputs: [output])
            let preview = AVCaptureVideoPreviewLayer(session: session)
            #expect(output.isDeferredStartEnabled)
            #expect(log.events.isEmpty)

            session.startRunning()
            defer { session.stopRunning() }
            // Only the preview waits for a frame, so the deferred start follows at once.
            #expect(log.didRun.wait(timeout: .now() + 10) == .success)
            #expect(log.events == ["will", "did"])
            #expect(preview.isPreviewing)

            let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
            let waiter = PhotoWaiter()
            output.capturePhoto(with: settings, delegate: waiter)
            #expect(waiter.finished.wait(timeout: .now() + 120) == .success)
            #expect((waiter.data?.count ?? 0) > 1000)
            // One deferred start per start: the capture needed no second one.
            #expect(log.events == ["will", "did"])
        }

        // An app that draws a video data output's frames itself runs the deferred start once its first frame is
        // shown; a deferred output gets frames only from then on.
        @Test func manualDeferredStartHoldsADeferredOutputUntilTheAppAsks() throws {
            let preview = AVCaptureVideoDataOutput(), deferred = AVCaptureVideoDataOutput()
            deferred.isDeferredStartEnabled = true
            let (session, log) = try makeSession(.vga640x480, automatic: false, outputs: [preview, deferred])
            let shown = FrameCounter(), later = FrameCounter()
            preview.setSampleBufferDelegate(shown, queue: DispatchQueue(label: "preview"))
            deferred.setSampleBufferDelegate(later, queue: DispatchQueue(label: "later"))

            session.startRunning()
            defer { session.stopRunning() }
            #expect(shown.first.wait(timeout: .now() + 30) == .success)
            // Frames keep coming to the preview while the deferred output waits for the app.
            let deadline = Date().addingTimeInterval(30)
            while shown.count < 10, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(shown.count >= 10)
            #expect(later.count == 0)
            #expect(log.events.isEmpty)

            session.runDeferredStartWhenNeeded()
            #expect(log.didRun.wait(timeout: .now() + 10) == .success)
            #expect(later.first.wait(timeout: .now() + 30) == .success)
            // A second call after the same commit changes nothing.
            session.runDeferredStartWhenNeeded()
            Thread.sleep(forTimeInterval: 0.1)
            #expect(log.events == ["will", "did"])
        }

        // A shutter press before the app ran the deferred start: the session runs it for the capture.
        @Test func aCaptureStartsADeferredPhotoOutputOnTheAppsBehalf() throws {
            let output = AVCapturePhotoOutput()
            let (session, log) = try makeSession(.vga640x480, automatic: false, outputs: [output])
            session.startRunning()
            defer { session.stopRunning() }
            Thread.sleep(forTimeInterval: 0.1)
            #expect(log.events.isEmpty)

            let waiter = PhotoWaiter()
            output.capturePhoto(with: AVCapturePhotoSettings(), delegate: waiter)
            #expect(waiter.finished.wait(timeout: .now() + 120) == .success)
            #expect(log.didRun.wait(timeout: .now() + 10) == .success)
            #expect(log.events == ["will", "did"])
        }
    }
}
