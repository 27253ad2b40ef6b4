import CaptureRules
import Foundation

/// What a session's controls delegate hears (`AVCaptureSessionControlsDelegate`, iOS 18): the Camera Control
/// button showing and hiding the session's controls.
public protocol AVCaptureSessionControlsDelegate: NSObjectProtocol {
    /// The controls became active: the button can show them.
    func sessionControlsDidBecomeActive(_ session: AVCaptureSession)
    /// The controls are about to fill the button's overlay.
    func sessionControlsWillEnterFullscreenAppearance(_ session: AVCaptureSession)
    /// The controls are about to leave the overlay.
    func sessionControlsWillExitFullscreenAppearance(_ session: AVCaptureSession)
    /// The controls became inactive.
    func sessionControlsDidBecomeInactive(_ session: AVCaptureSession)
}

/// A session's controls and their delegate, under one lock.
final class CaptureControlState: @unchecked Sendable {
    let lock = NSLock()
    var controls: [AVCaptureControl] = []
    weak var delegate: AVCaptureSessionControlsDelegate?
    var queue: DispatchQueue?
}

extension AVCaptureSession {
    /// Whether the platform has the Camera Control button: false on every emulated device (spec §1.6).
    public var supportsControls: Bool { false }

    /// How many controls a session may hold: none here.
    public var maxControlsCount: Int { supportsControls ? 6 : 0 }

    /// The controls added, in order.
    public var controls: [AVCaptureControl] { controlState.lock.withLock { controlState.controls } }

    /// Whether `control` may be added: never without the button (spec §1.6).
    public func canAddControl(_ control: AVCaptureControl) -> Bool {
        supportsControls && controlState.lock.withLock {
            controlState.controls.count < maxControlsCount && !controlState.controls.contains { $0 === control }
        }
    }

    /// Adds `control` where `canAddControl(_:)` allows it; otherwise adds nothing (spec §1.6).
    public func addControl(_ control: AVCaptureControl) {
        guard canAddControl(control) else {
            Emulation.shared.record(
                TraceEntry(
                    section: "§1.6", rule: nil, outcome: .decided,
                    sentence: "addControl(_:) added nothing: canAddControl(_:) is false, as the device has no Camera Control"))
            return
        }
        controlState.lock.withLock { controlState.controls.append(control) }
    }

    /// Removes `control`; one not in the session changes nothing.
    public func removeControl(_ control: AVCaptureControl) {
        controlState.lock.withLock { controlState.controls.removeAll { $0 === control } }
    }

    /// Sets the controls delegate and its serial queue; a delegate without a queue raises (spec §1.6).
    public func setControlsDelegate(_ controlsDelegate: AVCaptureSessionControlsDelegate?, queue: DispatchQueue?) {
        if controlsDelegate != nil, queue == nil {
            Violation.invalidArgument(
                "-[AVCaptureSession setControlsDelegate:queue:]", "queue may not be NULL unless delegate is also nil",
                CaptureRule("§1.6", .documented, "a non-nil controls delegate needs a callback queue")
            ).raise()
        }
        controlState.lock.withLock { (controlState.delegate, controlState.queue) = (controlsDelegate, queue) }
    }

    /// The controls delegate.
    public var controlsDelegate: AVCaptureSessionControlsDelegate? { controlState.lock.withLock { controlState.delegate } }

    /// The queue the controls delegate is called on.
    public var controlsDelegateCallbackQueue: DispatchQueue? { controlState.lock.withLock { controlState.queue } }
}
