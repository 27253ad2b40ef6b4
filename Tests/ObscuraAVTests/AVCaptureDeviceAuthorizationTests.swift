import Foundation
import Obscura
import Testing

/// Camera permission, as the person's privacy settings decide it (spec §2.8).
@Suite struct AVCaptureDeviceAuthorizationTests {
    // spec §2.8 [D]: without permission the device input cannot be made: AVError -11852.
    @Test func deniedAccessMakesTheInputThrow() throws {
        try onDevice {
            Emulator.shared.setAuthorizationStatus(.denied, for: .video)
            #expect(AVCaptureDevice.authorizationStatus(for: .video) == .denied)
            let device = try #require(AVCaptureDevice.default(for: .video))
            do {
                _ = try AVCaptureDeviceInput(device: device)
                Issue.record("the input was made without permission")
            } catch let error as AVError {
                #expect(error.code == .applicationIsNotAuthorizedToUseDevice)
                #expect(error.code.rawValue == -11852)
            }
        }
    }

    // spec §2.8 [D]: restricted access behaves as denied, and asking again does not help.
    @Test func restrictedAccessIsRefusedWithoutAsking() async throws {
        let world = try Emulator.shared.withDevice("iphone-15-pro") { () -> Bool in
            Emulator.shared.setAuthorizationStatus(.restricted, for: .video)
            let refused = DispatchSemaphore(value: 0)
            let answer = AnswerBox()
            AVCaptureDevice.requestAccess(for: .video) { granted in
                answer.set(granted)
                refused.signal()
            }
            #expect(refused.wait(timeout: .now() + 10) == .success)
            #expect(AVCaptureDevice.authorizationStatus(for: .video) == .restricted)
            return answer.value ?? true
        }
        #expect(world == false)
    }

    // spec §2.8 [D][I]: a first request asks; the emulated person allows it.
    @Test func firstRequestIsGranted() throws {
        try onDevice {
            Emulator.shared.setAuthorizationStatus(.notDetermined, for: .video)
            #expect(AVCaptureDevice.authorizationStatus(for: .video) == .notDetermined)
            let asked = DispatchSemaphore(value: 0)
            let answer = AnswerBox()
            AVCaptureDevice.requestAccess(for: .video) { granted in
                answer.set(granted)
                asked.signal()
            }
            #expect(asked.wait(timeout: .now() + 10) == .success)
            #expect(answer.value == true)
            #expect(AVCaptureDevice.authorizationStatus(for: .video) == .authorized)
        }
    }

    // Statuses set inside one task's world do not leak into another's.
    @Test func statusesBelongToTheirWorld() throws {
        try onDevice { Emulator.shared.setAuthorizationStatus(.denied, for: .video) }
        try onDevice { #expect(AVCaptureDevice.authorizationStatus(for: .video) == .authorized) }
    }

    // The subject-area notification comes only while monitoring is enabled.
    @Test func subjectAreaNotificationFollowsMonitoring() throws {
        try onDevice {
            let device = try #require(AVCaptureDevice.default(for: .video))
            #expect(!Emulator.shared.changeSubjectArea(of: device))
            let posted = AnswerBox()
            let observer = NotificationCenter.default.addObserver(
                forName: AVCaptureDevice.subjectAreaDidChangeNotification, object: device, queue: nil
            ) { _ in posted.set(true) }
            defer { NotificationCenter.default.removeObserver(observer) }
            try device.lockForConfiguration()
            device.isSubjectAreaChangeMonitoringEnabled = true
            device.unlockForConfiguration()
            #expect(Emulator.shared.changeSubjectArea(of: device))
            #expect(posted.value == true)
        }
    }
}

/// An answer delivered on another queue.
final class AnswerBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool?
    var value: Bool? { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}
