import ObscuraAV

extension Emulator {
    /// Sets what `AVCaptureDevice.authorizationStatus(for:)` reports for a media type, as the
    /// person's privacy settings would: `.denied` or `.restricted` make `AVCaptureDeviceInput(device:)`
    /// throw `AVError.applicationIsNotAuthorizedToUseDevice`, `.notDetermined` lets
    /// `requestAccess(for:)` ask (and be granted). Inside `withDevice` it holds for that task only.
    public func setAuthorizationStatus(_ status: AVAuthorizationStatus, for mediaType: AVMediaType) {
        Emulation.shared.setEmulatedAuthorizationStatus(status, for: mediaType)
    }
}
