import AVFoundation
import Foundation
import Testing

/// Device configuration written the way iOS camera code writes it. Serialized: every test here
/// configures the same shared back camera, whose lock and settings are one per device.
extension DropIn {
    @Suite struct AVCaptureDeviceIdioms {}
}

/// The default camera, as `AVCaptureDevice.default(for: .video)` gives it to apps.
func backCamera() throws -> AVCaptureDevice {
    try #require(AVCaptureDevice.default(for: .video))
}

/// Runs `body` holding the configuration lock, as apps do between lock and unlock.
func configure(_ device: AVCaptureDevice, _ body: () throws -> Void) throws {
    try device.lockForConfiguration()
    defer { device.unlockForConfiguration() }
    try body()
}

/// Puts a device back to its defaults so each idiom starts from what a fresh app sees.
func restoreDefaults(_ device: AVCaptureDevice) throws {
    try configure(device) {
        if device.isFocusModeSupported(.continuousAutoFocus) {
            device.focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
            device.focusMode = .continuousAutoFocus
        }
        if device.isSmoothAutoFocusSupported { device.isSmoothAutoFocusEnabled = false }
        if device.isAutoFocusRangeRestrictionSupported { device.autoFocusRangeRestriction = .none }
        device.exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
        device.setExposureTargetBias(0)
        device.exposureMode = .continuousAutoExposure
        if device.hasTorch { device.torchMode = .off }
        device.whiteBalanceMode = .continuousAutoWhiteBalance
        device.videoZoomFactor = 1
        device.isSubjectAreaChangeMonitoringEnabled = false
    }
}

/// Waits for a setter's completion handler; true when it ran.
final class CompletionProbe: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stamp: CMTime?

    var handler: @Sendable (CMTime) -> Void {
        { [self] time in
            lock.withLock { stamp = time }
            done.signal()
        }
    }

    func wait() -> Bool { done.wait(timeout: .now() + 10) == .success }
    var syncTime: CMTime? { lock.withLock { stamp } }
}
