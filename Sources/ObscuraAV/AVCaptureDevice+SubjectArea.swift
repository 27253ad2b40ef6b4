import Foundation

extension NSNotification.Name {
    /// Posted by a device whose subject area changed substantially, when it monitors for that.
    public static let AVCaptureDeviceSubjectAreaDidChange = NSNotification.Name(
        "AVCaptureDeviceSubjectAreaDidChangeNotification")
}

extension AVCaptureDevice {
    /// Posted, with the device as object, when the scene in view changes substantially while
    /// `isSubjectAreaChangeMonitoringEnabled` is true.
    public static let subjectAreaDidChangeNotification = NSNotification.Name.AVCaptureDeviceSubjectAreaDidChange

    /// Whether the device posts `subjectAreaDidChangeNotification` (default false). Lock required
    /// (spec §2.4 [D]).
    public var isSubjectAreaChangeMonitoringEnabled: Bool {
        get { controls.value.isSubjectAreaChangeMonitoringEnabled }
        set {
            guard isLockedForConfiguration else {
                Violation.deviceNotLocked("setSubjectAreaChangeMonitoringEnabled:").raise()  // spec §2.4 [D]
            }
            controls.update { $0.isSubjectAreaChangeMonitoringEnabled = newValue }
        }
    }

    /// Posts `subjectAreaDidChangeNotification` if the device monitors for it: the emulated scene
    /// changed in view of the device. Returns whether it posted.
    @discardableResult
    package func noteSubjectAreaChanged() -> Bool {
        guard isSubjectAreaChangeMonitoringEnabled else { return false }
        NotificationCenter.default.post(name: Self.subjectAreaDidChangeNotification, object: self)
        return true
    }

    // MARK: Deprecated discovery

    /// Every video device of the emulated device, in profile order (deprecated since iOS 10 in
    /// favour of `DiscoverySession`; still widely called). Only the physical and virtual cameras
    /// that deliver `mediaType`.
    @available(iOS, deprecated: 10.0, message: "Use AVCaptureDeviceDiscoverySession instead.")
    public class func devices(for mediaType: AVMediaType) -> [AVCaptureDevice] {
        Emulation.shared.currentWorld.devices.filter { $0.hasMediaType(mediaType) }
    }

    /// Every device (deprecated since iOS 10 in favour of `DiscoverySession`).
    @available(iOS, deprecated: 10.0, message: "Use AVCaptureDeviceDiscoverySession instead.")
    public class func devices() -> [AVCaptureDevice] {
        Emulation.shared.currentWorld.devices
    }
}
