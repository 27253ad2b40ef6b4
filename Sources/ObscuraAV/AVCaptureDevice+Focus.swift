import Foundation
import Sensor

extension AVCaptureDevice {
    /// How the lens is focused (Apple's raw values).
    public enum FocusMode: Int, Sendable, Hashable {
        /// The lens stays where it is.
        case locked = 0
        /// Focuses once on the point of interest, then locks.
        case autoFocus = 1
        /// Keeps the point of interest in focus (the default where autofocus exists).
        case continuousAutoFocus = 2
    }

    /// Where autofocus may search (Apple's raw values).
    public enum AutoFocusRangeRestriction: Int, Sendable, Hashable {
        /// The whole range.
        case none = 0
        /// Near subjects first.
        case near = 1
        /// Far subjects first.
        case far = 2
    }

    /// Passed as the lens position to `setFocusModeLocked(lensPosition:completionHandler:)` to lock the
    /// lens where it is now. Apple's `AVCaptureLensPositionCurrent` is a sentinel outside [0, 1]; FLT_MAX
    /// is our choice of sentinel, as for `maxAvailableTorchLevel` [I].
    public static let currentLensPosition: Float = .greatestFiniteMagnitude

    /// Whether the camera can focus at all: false for fixed-focus cameras (profile `autofocus: none`).
    var hasAutoFocus: Bool { autoFocusSystemOfCamera != .none }

    /// Whether a focus mode is available: `.locked` everywhere, the automatic modes where the camera
    /// has autofocus (spec §2.4 [D]).
    public func isFocusModeSupported(_ focusMode: FocusMode) -> Bool {
        focusMode == .locked || hasAutoFocus
    }

    /// The focus mode (default `.continuousAutoFocus`, or `.locked` on a fixed-focus camera). Lock
    /// required; an unsupported mode raises `NSInvalidArgumentException` (spec §2.4 [D]). KVO.
    public var focusMode: FocusMode {
        get { hasAutoFocus ? controls.value.focusMode : .locked }
        set {
            // spec §2.4 [D]
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setFocusMode:").raise() }
            guard isFocusModeSupported(newValue) else {
                Violation.unsupportedMode("focusMode", rawValue: newValue.rawValue, check: "isFocusModeSupported:")
                    .raise()  // spec §2.4 [D]
            }
            let lens = lensPosition
            controls.update {
                // Locking keeps the lens where autofocus left it [D]; the automatic modes take over again.
                $0.lockedLensPosition = newValue == .locked ? lens : nil
                $0.focusMode = newValue
            }
            observers.didChange(\AVCaptureDevice.focusMode)
        }
    }

    /// Whether `focusPointOfInterest` may be set: where the camera has autofocus.
    public var isFocusPointOfInterestSupported: Bool { hasAutoFocus }

    /// The point autofocus looks at, in normalised sensor coordinates ((0, 0) top left, (1, 1)
    /// bottom right, landscape with the home button on the right), default (0.5, 0.5). Lock
    /// required; it takes effect when `focusMode` is next set (spec §2.4 [D]).
    public var focusPointOfInterest: CGPoint {
        get { controls.value.focusPointOfInterest }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setFocusPointOfInterest:").raise() }
            guard isFocusPointOfInterestSupported else {
                Violation.unsupportedFeature(
                    "setFocusPointOfInterest:", "focusPointOfInterest", check: "isFocusPointOfInterestSupported"
                ).raise()  // spec §2.4 [D]
            }
            controls.update { $0.focusPointOfInterest = newValue }
            observers.didChange(\AVCaptureDevice.focusPointOfInterest)
        }
    }

    /// The nearest distance the lens focuses at, millimetres, for a camera with autofocus: the profile's
    /// `minimum_focus_distance_mm` (100 mm where it gives none), from which the lens positions run to infinity
    /// (`AutoFocus.nearestFocusMetres(of:)`). -1, Apple's "unknown", for a fixed-focus camera (spec §2.4).
    public var minimumFocusDistance: Int {
        hasAutoFocus ? Int((AutoFocus.nearestFocusMetres(of: camera) * 1000).rounded()) : -1
    }

    /// Whether the lens is moving. Focus settles at once in the emulation, so always false [I].
    public var isAdjustingFocus: Bool { false }

    /// Where the lens sits, 0 (nearest) to 1 (farthest). Autofocus puts it at the position that
    /// focuses the subject at the point of interest (see `DeviceFocus`); a locked focus holds it. KVO.
    public var lensPosition: Float {
        if let locked = controls.value.lockedLensPosition { return locked }
        return DeviceFocus.autoFocusLensPosition(self)
    }

    /// Whether `setFocusModeLocked(lensPosition:completionHandler:)` may be called: cameras with
    /// autofocus that are not virtual (spec §2.1 [D]: multi-camera devices offer no manual focus).
    public var isLockingFocusWithCustomLensPositionSupported: Bool { hasAutoFocus && !camera.deviceType.isMultiCamera }

    /// Locks the focus at a lens position in [0, 1], or where it is with `currentLensPosition`, then
    /// calls `handler` with the time stamp of the first frame focused so (spec §2.4 [D]). Lock required.
    /// Only a position other than `currentLensPosition` needs `isLockingFocusWithCustomLensPositionSupported`:
    /// locking the lens where it is works on every camera, virtual and fixed-focus ones included (documented).
    public func setFocusModeLocked(
        lensPosition: Float, completionHandler handler: (@Sendable (CMTime) -> Void)? = nil
    ) {
        let selector = "setFocusModeLockedWithLensPosition:completionHandler:"
        guard isLockedForConfiguration else { Violation.deviceNotLocked(selector).raise() }  // spec §2.4 [D]
        let keepsCurrent = lensPosition == Self.currentLensPosition
        guard keepsCurrent || isLockingFocusWithCustomLensPositionSupported else {
            Violation.unsupportedFeature(
                selector, "a custom lens position", check: "isLockingFocusWithCustomLensPositionSupported"
            ).raise()  // spec §2.4 [D]
        }
        let position = keepsCurrent ? self.lensPosition : lensPosition
        guard (0...1).contains(position) else { Violation.lensPositionOutOfRange(lensPosition).raise() }  // spec §2.4
        controls.update {
            $0.focusMode = .locked
            $0.lockedLensPosition = position
        }
        observers.didChange(\AVCaptureDevice.focusMode)
        observers.didChange(\AVCaptureDevice.lensPosition)
        SettingCompletion.deliver(handler)
    }

    /// Whether smooth (slower, less visible) autofocus is available: on cameras with autofocus [I].
    public var isSmoothAutoFocusSupported: Bool { hasAutoFocus }

    /// Whether autofocus moves the lens slowly, for video. Lock required; only when supported (spec §2.4 [D]).
    public var isSmoothAutoFocusEnabled: Bool {
        get { controls.value.isSmoothAutoFocusEnabled }
        set {
            guard isLockedForConfiguration else { Violation.deviceNotLocked("setSmoothAutoFocusEnabled:").raise() }
            guard isSmoothAutoFocusSupported else {
                Violation.unsupportedFeature(
                    "setSmoothAutoFocusEnabled:", "smoothAutoFocusEnabled", check: "isSmoothAutoFocusSupported"
                ).raise()  // spec §2.4 [D]
            }
            controls.update { $0.isSmoothAutoFocusEnabled = newValue }
        }
    }

    /// Whether autofocus may be told where to search first: on cameras with autofocus [I].
    public var isAutoFocusRangeRestrictionSupported: Bool { hasAutoFocus }

    /// Where autofocus searches first (default `.none`). Lock required; only when supported (spec §2.4 [D]).
    public var autoFocusRangeRestriction: AutoFocusRangeRestriction {
        get { controls.value.autoFocusRangeRestriction }
        set {
            guard isLockedForConfiguration else {
                Violation.deviceNotLocked("setAutoFocusRangeRestriction:").raise()  // spec §2.4 [D]
            }
            guard isAutoFocusRangeRestrictionSupported else {
                Violation.unsupportedFeature(
                    "setAutoFocusRangeRestriction:", "autoFocusRangeRestriction",
                    check: "isAutoFocusRangeRestrictionSupported"
                ).raise()  // spec §2.4 [D]
            }
            controls.update { $0.autoFocusRangeRestriction = newValue }
        }
    }
}
