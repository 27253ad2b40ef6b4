import ObscuraAV

extension Emulator {
    /// Tells a device that the scene in its view changed substantially, as a moving subject or a
    /// panned camera would: it posts `AVCaptureDevice.subjectAreaDidChangeNotification` if its
    /// `isSubjectAreaChangeMonitoringEnabled` is true. Returns whether it posted.
    @discardableResult
    public func changeSubjectArea(of device: AVCaptureDevice) -> Bool {
        device.noteSubjectAreaChanged()
    }
}
