import Foundation
import Obscura
import ObscuraAV
import Testing

/// The system video effects a video-call app manages (spec §2.9), and multitasking access (spec §1.1).
@Suite struct VideoEffectsTests {
    // spec §2.9 rules 1, 2: the app sets Center Stage only under app or cooperative control; no format
    // supports it, so it is never active, even when enabled.
    @Test func centerStageFollowsItsControlMode() throws {
        let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .front))
        #expect(AVCaptureDevice.centerStageControlMode == .user)
        let refused = Emulator.catchException { AVCaptureDevice.isCenterStageEnabled = true }
        #expect(refused?.name == .invalidArgumentException)
        #expect(!AVCaptureDevice.isCenterStageEnabled)

        AVCaptureDevice.centerStageControlMode = .cooperative
        defer {
            AVCaptureDevice.isCenterStageEnabled = false
            AVCaptureDevice.centerStageControlMode = .user
        }
        AVCaptureDevice.isCenterStageEnabled = true
        #expect(AVCaptureDevice.isCenterStageEnabled)
        #expect(camera.formats.allSatisfy { !$0.isCenterStageSupported && $0.videoFrameRateRangeForCenterStage == nil })
        #expect(!camera.isCenterStageActive)
        #expect(camera.formats.allSatisfy { !$0.isPortraitEffectSupported })
        #expect(!AVCaptureDevice.isPortraitEffectEnabled && !camera.isPortraitEffectActive)
    }

    // spec §2.9 rule 3, §1.1: the microphone is unprocessed, and the session has no multitasking access.
    @Test func microphoneModesAndMultitasking() {
        #expect(AVCaptureDevice.preferredMicrophoneMode == .standard)
        #expect(AVCaptureDevice.activeMicrophoneMode == .standard)
        let session = AVCaptureSession()
        #expect(!session.isMultitaskingCameraAccessSupported)
        session.isMultitaskingCameraAccessEnabled = true
        #expect(!session.isMultitaskingCameraAccessEnabled)
    }

    // spec §2.1: the connection notifications carry Apple's names; the built-in cameras never come or go, so a
    // session's start and stop post neither.
    @Test func builtInCamerasAreNeverConnectedOrDisconnected() throws {
        #expect(AVCaptureDevice.wasConnectedNotification.rawValue == "AVCaptureDeviceWasConnectedNotification")
        #expect(AVCaptureDevice.wasDisconnectedNotification.rawValue == "AVCaptureDeviceWasDisconnectedNotification")
        let posted = NSLock()
        nonisolated(unsafe) var names: [Notification.Name] = []
        let observers = [AVCaptureDevice.wasConnectedNotification, AVCaptureDevice.wasDisconnectedNotification].map {
            NotificationCenter.default.addObserver(forName: $0, object: nil, queue: nil) { note in
                posted.withLock { names.append(note.name) }
            }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        let session = AVCaptureSession()
        let camera = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: camera))
        session.startRunning()
        session.stopRunning()
        #expect(posted.withLock { names.isEmpty })
    }
}
