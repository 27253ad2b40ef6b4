import Obscura
import Foundation
import ObscuraAV
import Testing

/// A delegate that records every callback, in order, and lets a test wait for the last one.
final class RecordingPhotoDelegate: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var recorded: [String] = []
    private var recordedPhotos: [AVCapturePhoto] = []
    private var resolved: [AVCaptureResolvedPhotoSettings] = []
    private var queues: [String] = []

    var events: [String] { lock.withLock { recorded } }
    var photos: [AVCapturePhoto] { lock.withLock { recordedPhotos } }
    var resolvedSettings: [AVCaptureResolvedPhotoSettings] { lock.withLock { resolved } }
    var threadNames: [String] { lock.withLock { queues } }

    private func record(_ event: String, _ settings: AVCaptureResolvedPhotoSettings) {
        let label = "\(pthread_self())"
        lock.withLock {
            recorded.append(event)
            resolved.append(settings)
            queues.append(label)
        }
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        record("willBeginCapture", resolvedSettings)
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        record("willCapturePhoto", resolvedSettings)
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        record("didCapturePhoto", resolvedSettings)
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock { recordedPhotos.append(photo) }
        record("didFinishProcessingPhoto", photo.resolvedSettings)
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        record("didFinishCapture", resolvedSettings)
        finished.signal()
    }

    /// Waits for didFinishCapture; false after 10 s.
    func waitUntilFinished() -> Bool { finished.wait(timeout: .now() + 10) == .success }
}

/// A running photo session on a device's default camera, built the way apps build it.
struct PhotoRig {
    let session: AVCaptureSession
    let device: AVCaptureDevice
    let input: AVCaptureDeviceInput
    let output: AVCapturePhotoOutput

    init(
        _ type: AVCaptureDevice.DeviceType = .builtInWideAngleCamera, position: AVCaptureDevice.Position = .back,
        preset: AVCaptureSession.Preset = .vga640x480, start: Bool = true
    ) throws {
        session = AVCaptureSession()
        device = try #require(AVCaptureDevice.default(type, for: .video, position: position))
        input = try AVCaptureDeviceInput(device: device)
        output = AVCapturePhotoOutput()
        session.beginConfiguration()
        session.sessionPreset = preset
        session.addInput(input)
        session.addOutput(output)
        session.commitConfiguration()
        if start { session.startRunning() }
    }
}

/// Runs a test body with fresh devices of a profile, isolated from other tests.
func onDevice<R>(_ id: String = "iphone-15-pro", _ body: () throws -> R) throws -> R {
    try Emulator.shared.withDevice(id, body)
}

/// Expects `body` to raise an exception with a name and a reason containing `gist`.
func expectException(
    _ name: NSExceptionName, _ gist: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping () -> Void
) {
    let exception = Emulator.catchException(body)
    #expect(exception?.name == name, sourceLocation: sourceLocation)
    #expect(
        exception?.reason?.contains(gist) == true, "reason: \(exception?.reason ?? "none")",
        sourceLocation: sourceLocation)
}

/// Expects `body` to raise nothing.
func expectNoException(sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping () -> Void) {
    let exception = Emulator.catchException(body)
    #expect(exception == nil, "raised \(exception?.description ?? "")", sourceLocation: sourceLocation)
}

/// Captures with settings and waits for the delegate to finish.
@discardableResult
func capture(_ rig: PhotoRig, _ settings: AVCapturePhotoSettings) -> RecordingPhotoDelegate {
    let delegate = RecordingPhotoDelegate()
    rig.output.capturePhoto(with: settings, delegate: delegate)
    #expect(delegate.waitUntilFinished())
    return delegate
}

let capturePrefix = "*** -[AVCapturePhotoOutput capturePhotoWithSettings:delegate:] "
