import Foundation

extension AVCaptureDevice {
    /// Whether a flash mode is available: `.off` everywhere; `.on` and `.auto` with a flash, as
    /// Apple documents for a device without one (deprecated since iOS 10, still compiled).
    public func isFlashModeSupported(_ flashMode: FlashMode) -> Bool { flashMode == .off || hasFlash }

    /// The device-level flash mode of iOS 9 and earlier (default `.off`, our choice). Lock required;
    /// an unsupported mode raises `NSInvalidArgumentException` (spec §2.4 [D]). Only
    /// `AVCaptureStillImageOutput` reads it: `AVCapturePhotoOutput` ignores it and takes the mode
    /// from each request's `AVCapturePhotoSettings.flashMode`, as Apple documents. KVO.
    public var flashMode: FlashMode {
        get { controls.value.flashMode }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setFlashMode:").raise() }
            guard isFlashModeSupported(newValue) else {
                Violation.unsupportedMode("flashMode", rawValue: newValue.rawValue, check: "isFlashModeSupported:")
                    .raise()  // spec §2.4 [D]
            }
            controls.update { $0.flashMode = newValue }
            observers.didChange(\AVCaptureDevice.flashMode)
            observers.didChange(\AVCaptureDevice.isFlashActive)
        }
    }

    /// Whether a still image captured now would fire the flash: `.on` while the flash is
    /// available, `.auto` in a scene dark enough for the photo output's `.auto` flash rule
    /// (metered on the active format, as the torch's `.auto` is). KVO.
    public var isFlashActive: Bool {
        guard hasFlash, isFlashAvailable else { return false }
        switch controls.value.flashMode {
        case .off: return false
        case .on: return true
        case .auto: return sceneNeedsLight
        }
    }
}
