import Foundation

/// A session for streaming several cameras at once (iOS 13; spec §17).
///
/// Its preset is always `.inputPriority`: each camera runs the format the app sets on it
/// (spec §1.1 [D]). `hardwareCost` measures the camera bandwidth the configuration needs; a
/// configuration costing more than 1.0 does not start and posts a runtime error, as on a device
/// (spec §17 [D]).
///
/// Obscura's stream engine runs one camera per session, so `isMultiCamSupported` is false on
/// every device for now, whatever its profile's `multicam` key says; the session then works as a
/// one-camera session with the cost rules above.
open class AVCaptureMultiCamSession: AVCaptureSession, @unchecked Sendable {
    /// How many cameras one session can stream at once in the emulator.
    static let simultaneousCameras = 1

    /// The camera bandwidth one session may use, pixels per second: two 1920 × 1440 streams at
    /// 30 frames per second, the largest pair of formats iPhones offer to multi-camera sessions
    /// (spec §17 [I]: the cost model is our choice).
    static let pixelRateBudget = 2.0 * 1920 * 1440 * 30

    /// Whether the device can stream several cameras at once: its profile says the hardware can,
    /// and the emulator can stream them (spec §17 [I]).
    public class var isMultiCamSupported: Bool {
        Emulation.shared.currentWorld.profile.supportsMultiCam && simultaneousCameras > 1
    }

    public override init() {
        super.init()
        sessionPreset = .inputPriority
    }

    /// Only `.inputPriority` (spec §1.1 [D]).
    open override func canSetSessionPreset(_ preset: AVCaptureSession.Preset) -> Bool {
        preset == .inputPriority
    }

    /// The share of the camera bandwidth the inputs' active formats need at their frame rates (each input's
    /// `videoMinFrameDurationOverride` lowering its rate), 0 with no camera (spec §17 [D] range, [I] model):
    /// Σ width × height × fps over the budget.
    public var hardwareCost: Float {
        let rate = videoDeviceInputs.reduce(0.0) { sum, input in
            let d = input.device.activeFormat.dimensions
            let duration = input.effectiveMinFrameDuration.seconds
            guard duration > 0 else { return sum }
            return sum + Double(d.width) * Double(d.height) / duration
        }
        return Float(rate / Self.pixelRateBudget)
    }

    /// The sustained load of the configuration; Obscura has no thermal model, so it equals
    /// `hardwareCost` (spec §17 [I]).
    public var systemPressureCost: Float { hardwareCost }

    /// Starts the session unless the configuration costs more than the hardware has: then the
    /// session stays stopped and posts `runtimeErrorNotification` with
    /// `AVError.Code.sessionHardwareCostOverage` (spec §17 [D]).
    open override func startRunning() {
        guard !isInsideConfiguration, !isRunning, hardwareCost > 1 else {
            super.startRunning()
            return
        }
        NotificationCenter.default.post(
            name: AVCaptureSession.runtimeErrorNotification, object: self,
            userInfo: [AVCaptureSessionErrorKey: AVError(.sessionHardwareCostOverage)])
    }
}
