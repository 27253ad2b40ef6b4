import Foundation

/// A device's focus, exposure-target, torch, white-balance, zoom-ramp and subject-area settings,
/// behind their own lock (the format and frame durations stay in `AVCaptureDevice.Inner`).
///
/// Focus converges at once in the emulation: a new focus target is reached before the next frame, so
/// `isAdjustingFocus` reads false (our choice [I]). Auto-exposure and auto white balance move over
/// frames while a stream runs (`StreamAdaptation`).
final class DeviceControls: @unchecked Sendable {
    struct Value {
        var focusMode = AVCaptureDevice.FocusMode.continuousAutoFocus
        var focusPointOfInterest = CGPoint(x: 0.5, y: 0.5)
        /// The lens position a locked focus holds; nil while autofocus drives it.
        var lockedLensPosition: Float?
        var isSmoothAutoFocusEnabled = false
        var autoFocusRangeRestriction = AVCaptureDevice.AutoFocusRangeRestriction.none
        var exposurePointOfInterest = CGPoint(x: 0.5, y: 0.5)
        var exposureTargetBias: Float = 0
        /// The client's `activeMaxExposureDuration`; nil for the active format's default.
        var maxExposureDuration: CMTime?
        var torchMode = AVCaptureDevice.TorchMode.off
        /// The deprecated device-level flash mode, read by `AVCaptureStillImageOutput` only.
        var flashMode = AVCaptureDevice.FlashMode.off
        /// The level `setTorchModeOn(level:)` chose; `torchMode = .on` uses full power.
        var torchOnLevel: Float = 1
        var whiteBalanceMode = AVCaptureDevice.WhiteBalanceMode.continuousAutoWhiteBalance
        /// The gains a locked white balance holds; nil while it follows the scene.
        var lockedWhiteBalanceGains: AVCaptureDevice.WhiteBalanceGains?
        var isSubjectAreaChangeMonitoringEnabled = false
        /// The zoom ramp in progress.
        var zoomRamp: ZoomRamp?
    }

    private let lock = NSLock()
    private var stored = Value()

    var value: Value { lock.withLock { stored } }

    @discardableResult
    func update<R>(_ body: (inout Value) -> R) -> R { lock.withLock { body(&stored) } }
}

/// Runs a setter's completion handler the way AVFoundation does: later, on a queue of its own, with
/// the time stamp of the first frame that carries the new setting. Frames are rendered with the
/// setting from the next one on; the handler receives the device clock's current time (our
/// choice [I]: the emulated streams have no shared presentation clock to read here).
enum SettingCompletion {
    static func deliver(_ handler: (@Sendable (CMTime) -> Void)?) {
        guard let handler else { return }
        let time = CMTime(seconds: ProcessInfo.processInfo.systemUptime, preferredTimescale: 1_000_000_000)
        DispatchQueue.global().async { handler(time) }
    }
}
