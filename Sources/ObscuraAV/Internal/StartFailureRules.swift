/// Configurations that real hardware refuses when the session starts (spec §1.3, §13 N18).
enum StartFailureRules {
    /// spec §1.3 / §13 N18 [O] (lionheart/openradar-mirror #20389): iPhone 7 Plus dual camera with the
    /// `.photo` preset, a depth output and a photo output fails to start with AVError −11819.
    static func failure(for session: AVCaptureSession) -> AVError? {
        guard let device = session.videoDevices.first else { return nil }
        let outputs = session.outputs
        if device.deviceProfile.id == "iphone-7-plus", device.deviceType == .builtInDualCamera,
            session.sessionPreset == .photo,
            outputs.contains(where: { $0 is AVCaptureDepthDataOutput }),
            outputs.contains(where: { $0 is AVCapturePhotoOutput })
        {
            return AVError(.mediaServicesWereReset)
        }
        return nil
    }
}
