/// How the emulated phone is held, which decides `AVCaptureDevice.RotationCoordinator`'s angles. UIKit's
/// `UIDeviceOrientation` meanings; the phone starts upright in portrait.
public enum DeviceOrientation: Sendable, CaseIterable {
    /// Upright, home button (or its place) at the bottom.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// Turned so that the home button is on the right.
    case landscapeLeft
    /// Turned so that the home button is on the left.
    case landscapeRight
}

extension DeviceOrientation {
    fileprivate init(_ held: HeldOrientation) {
        switch held {
        case .portrait: self = .portrait
        case .portraitUpsideDown: self = .portraitUpsideDown
        case .landscapeLeft: self = .landscapeLeft
        case .landscapeRight: self = .landscapeRight
        }
    }

    fileprivate var held: HeldOrientation {
        switch self {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeLeft
        case .landscapeRight: .landscapeRight
        }
    }
}

extension Emulator {
    /// How the phone is held: the current task's orientation inside `withDeviceOrientation`, else the
    /// process-wide one, which setting this changes.
    public static var deviceOrientation: DeviceOrientation {
        get { DeviceOrientation(HeldOrientation.current) }
        set { HeldOrientation.current = newValue.held }
    }

    /// Runs `body` with the phone held in `orientation` for this task and the tasks it starts.
    public static func withDeviceOrientation<T>(_ orientation: DeviceOrientation, _ body: () throws -> T) rethrows -> T
    {
        // Turning the phone moves the rotation coordinators' angles; their observers hear of it, on the
        // way in and, once the task's orientation is gone again, on the way out.
        defer { HeldOrientation.turned() }
        return try HeldOrientation.$taskOrientation.withValue(orientation.held) {
            HeldOrientation.turned()
            return try body()
        }
    }
}
