import Foundation

extension NSNotification.Name {
    /// Posted when a capture device becomes available, as an external camera does when plugged in.
    public static let AVCaptureDeviceWasConnected = NSNotification.Name("AVCaptureDeviceWasConnectedNotification")
    /// Posted when a capture device becomes unavailable, as an external camera does when unplugged.
    public static let AVCaptureDeviceWasDisconnected = NSNotification.Name(
        "AVCaptureDeviceWasDisconnectedNotification")
}

extension AVCaptureDevice {
    /// Posted, with the device as object, when a device is connected. The emulated phones' cameras are built in
    /// and never come or go, and no external camera is emulated (spec §2.1), so it is never posted; apps
    /// that observe it to refresh their camera list compile and run unchanged.
    public static let wasConnectedNotification = NSNotification.Name.AVCaptureDeviceWasConnected
    /// Posted, with the device as object, when a device is disconnected; never, as for `wasConnectedNotification`.
    public static let wasDisconnectedNotification = NSNotification.Name.AVCaptureDeviceWasDisconnected
}
