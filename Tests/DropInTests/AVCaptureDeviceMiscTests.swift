import AVFoundation
import Foundation
import Testing

extension DropIn.AVCaptureDeviceIdioms {
    @Suite struct Access {
        // spec §2.8 [D]: the usual permission check before configuring a session.
        @Test func authorizedSwitch() {
            switch AVCaptureDevice.authorizationStatus(for: .video) {
            case .authorized: break
            case .notDetermined, .denied, .restricted: Issue.record("the emulated app is authorised by default")
            @unknown default: Issue.record("unknown status")
            }
        }

        // spec §2.8 [D]: requestAccess answers on some queue.
        @Test func requestAccessWithHandler() {
            let answered = DispatchSemaphore(value: 0)
            let granted = LockedFlag()
            AVCaptureDevice.requestAccess(for: .video) { ok in
                granted.set(ok)
                answered.signal()
            }
            #expect(answered.wait(timeout: .now() + 10) == .success)
            #expect(granted.value)
        }

        // spec §2.8 [D]: the async form.
        @Test func requestAccessAsync() async {
            #expect(await AVCaptureDevice.requestAccess(for: .video))
        }

        // Subject-area monitoring, enabled as apps do after a tap to focus; the notification's name.
        @Test func subjectAreaMonitoring() throws {
            let device = try backCamera()
            defer { try? restoreDefaults(device) }
            try configure(device) { device.isSubjectAreaChangeMonitoringEnabled = true }
            #expect(device.isSubjectAreaChangeMonitoringEnabled)
            let observer = NotificationCenter.default.addObserver(
                forName: AVCaptureDevice.subjectAreaDidChangeNotification, object: device, queue: nil
            ) { _ in }
            NotificationCenter.default.removeObserver(observer)
            #expect(AVCaptureDevice.subjectAreaDidChangeNotification == .AVCaptureDeviceSubjectAreaDidChange)
        }

        // The pre-iOS 10 discovery still found in old code.
        @available(*, deprecated)
        @Test func deprecatedDevicesForVideo() throws {
            let all = AVCaptureDevice.devices(for: .video)
            let back = all.first { $0.position == .back }
            #expect(back != nil)
            #expect(all.contains { $0 === AVCaptureDevice.default(for: .video) })
            #expect(AVCaptureDevice.devices().count == all.count)
        }
    }
}

/// A flag set from another thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = false
    var value: Bool { lock.withLock { stored } }
    func set(_ value: Bool) { lock.withLock { stored = value } }
}
