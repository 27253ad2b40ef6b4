import AVFoundation
import Foundation
import Testing

// A capture program as iOS code writes it, with Apple's names only: a dual-wide camera (a virtual device, which
// offers no lens position of its own) in a photo session, focus locked where it is after a tap, video HDR left
// to the device or turned off the way Apple's header asks, and a photo taken and waited for on a semaphore.
extension DropIn {
    @Suite struct FocusLockOnAVirtualCameraProgramTests {
        final class Waiter: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
            let finished = DispatchSemaphore(value: 0)
            private let lock = NSLock()
            private var _bytes = 0
            var bytes: Int { lock.withLock { _bytes } }

            func photoOutput(
                _ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?
            ) {
                let count = photo.fileDataRepresentation()?.count ?? 0
                lock.withLock { _bytes = count }
            }

            func photoOutput(
                _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
                error: Error?
            ) {
                finished.signal()
            }
        }

        @Test func lockFocusWhereItIsThenTakeAPhoto() throws {
            let session = AVCaptureSession()
            let output = AVCapturePhotoOutput()
            session.beginConfiguration()
            session.sessionPreset = .photo
            let camera = try #require(AVCaptureDevice.default(.builtInDualWideCamera, for: .video, position: .back))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            if session.canAddOutput(output) { session.addOutput(output) }
            session.commitConfiguration()
            session.startRunning()
            defer { session.stopRunning() }

            #expect(!camera.isLockingFocusWithCustomLensPositionSupported)
            try camera.lockForConfiguration()
            camera.setFocusModeLocked(lensPosition: AVCaptureDevice.currentLensPosition, completionHandler: nil)
            camera.automaticallyAdjustsVideoHDREnabled = false
            camera.isVideoHDREnabled = false
            camera.unlockForConfiguration()
            #expect(camera.focusMode == .locked)

            let waiter = Waiter()
            output.capturePhoto(with: AVCapturePhotoSettings(), delegate: waiter)
            #expect(waiter.finished.wait(timeout: .now() + 120) == .success)
            #expect(waiter.bytes > 0)
        }
    }
}
