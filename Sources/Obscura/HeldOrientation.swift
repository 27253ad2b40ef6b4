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

extension Emulator {
    /// How the phone is held, process-wide.
    public static var deviceOrientation: DeviceOrientation {
        get {
            switch HeldOrientation.current {
            case .portrait: .portrait
            case .portraitUpsideDown: .portraitUpsideDown
            case .landscapeLeft: .landscapeLeft
            case .landscapeRight: .landscapeRight
            }
        }
        set {
            HeldOrientation.current =
                switch newValue {
                case .portrait: .portrait
                case .portraitUpsideDown: .portraitUpsideDown
                case .landscapeLeft: .landscapeLeft
                case .landscapeRight: .landscapeRight
                }
        }
    }
}
