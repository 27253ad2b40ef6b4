import AVFoundation
import Foundation
import Testing

// The capture actor of Apple's AVCam (iOS 17 and later): every camera call runs on the session's serial queue,
// which the actor takes as its executor, and the photo output starts deferred (iOS 26).

extension DropIn {
    @Suite struct CaptureActorIdiomTests {
        final class PhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
            private let continuation: CheckedContinuation<Data, Error>
            private var data: Data?

            init(continuation: CheckedContinuation<Data, Error>) { self.continuation = continuation }

            private var isProxy = false

            // AVCam handles a deferred photo's proxy too; no proxy comes where deferred delivery is not offered.
            func photoOutput(
                _ output: AVCapturePhotoOutput,
                didFinishCapturingDeferredPhotoProxy deferredPhotoProxy: AVCaptureDeferredPhotoProxy?, error: Error?
            ) {
                data = deferredPhotoProxy?.fileDataRepresentation()
                isProxy = true
            }

            func photoOutput(
                _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?
            ) {
                data = photo.fileDataRepresentation()
            }

            func photoOutput(
                _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                error: Error?
            ) {
                if let error {
                    continuation.resume(throwing: error)
                } else if isProxy {
                    continuation.resume(throwing: CameraError.cannotAdd)
                } else {
                    continuation.resume(returning: data ?? Data())
                }
            }
        }

        enum CameraError: Error { case noCamera, cannotAdd }

        actor CaptureService {
            private let captureSession = AVCaptureSession()
            private let photoOutput = AVCapturePhotoOutput()
            private let sessionQueue = DispatchSerialQueue(label: "com.example.capture.sessionQueue")

            nonisolated var unownedExecutor: UnownedSerialExecutor { sessionQueue.asUnownedSerialExecutor() }

            /// Whether the actor's code runs on the session queue.
            func runsOnSessionQueue() -> Bool {
                dispatchPrecondition(condition: .onQueue(sessionQueue))
                return true
            }

            func start() throws {
                guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
                    throw CameraError.noCamera
                }
                captureSession.beginConfiguration()
                defer { captureSession.commitConfiguration() }
                captureSession.sessionPreset = .photo
                captureSession.automaticallyRunsDeferredStart = true
                let input = try AVCaptureDeviceInput(device: camera)
                guard captureSession.canAddInput(input) else { throw CameraError.cannotAdd }
                captureSession.addInput(input)
                photoOutput.isDeferredStartEnabled = photoOutput.isDeferredStartSupported
                guard captureSession.canAddOutput(photoOutput) else { throw CameraError.cannotAdd }
                captureSession.addOutput(photoOutput)
            }

            func run() { captureSession.startRunning() }
            func stop() { captureSession.stopRunning() }

            func capturePhoto() async throws -> Data {
                // As AVCam does, the app keeps no reference to the delegate: the output holds it until the
                // capture is finished.
                try await withCheckedThrowingContinuation { continuation in
                    let delegate = PhotoDelegate(continuation: continuation)
                    let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
                    photoOutput.capturePhoto(with: settings, delegate: delegate)
                }
            }
        }

        @Test func anActorOnTheSessionQueueTakesAPhoto() async throws {
            let service = CaptureService()
            #expect(await service.runsOnSessionQueue())
            try await service.start()
            await service.run()
            let data = try await service.capturePhoto()
            await service.stop()
            // A JPEG file: its start-of-image marker and a picture's worth of bytes.
            #expect(data.count > 10_000)
            #expect(data.prefix(2) == Data([0xFF, 0xD8]))
        }
    }
}

extension DropIn {
    // AVCam's device lookup: the back camera from its discovery session, an external camera (an iPad's USB one) as
    // the fallback.
    @Suite struct DeviceLookupIdiomTests {
        @Test func theBackCameraComesFirstAndNoExternalCameraIsAttached() throws {
            let back = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.builtInDualCamera, .builtInWideAngleCamera], mediaType: .video, position: .back)
            let external = AVCaptureDevice.DiscoverySession(
                deviceTypes: [.external], mediaType: .video, position: .unspecified)
            #expect(external.devices.isEmpty)
            let camera = try #require(back.devices.first ?? external.devices.first)
            #expect(camera.position == .back)
            #expect(camera.deviceType != .external && camera.deviceType != .continuityCamera)
        }
    }
}

extension DropIn {
    // AVCam follows a session's interruptions and errors with `for await` over the notification center.
    @Suite struct SessionNotificationSequenceIdiomTests {
        @Test func aTaskAwaitsTheSessionsStartAndStop() async throws {
            let session = AVCaptureSession()
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addOutput(AVCapturePhotoOutput())
            session.commitConfiguration()
            let started = NotificationCenter.default.notifications(
                named: AVCaptureSession.didStartRunningNotification, object: session)
            let stopped = NotificationCenter.default.notifications(named: AVCaptureSession.didStopRunningNotification)
                .compactMap { $0.object as? AVCaptureSession }
            let waitForStart = Task { () -> Bool in
                for await notification in started where notification.object as? AVCaptureSession === session {
                    return true
                }
                return false
            }
            let waitForStop = Task { () -> Bool in
                for await stoppedSession in stopped where stoppedSession === session { return true }
                return false
            }
            session.startRunning()
            #expect(await waitForStart.value)
            session.stopRunning()
            #expect(await waitForStop.value)
        }
    }
}
