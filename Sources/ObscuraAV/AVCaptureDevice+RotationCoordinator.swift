import Foundation

/// How the emulated phone is held (UIKit's `UIDeviceOrientation` meanings): upright in portrait unless a test
/// or tool says otherwise (spec §19.3 [I]).
package enum HeldOrientation: Sendable, CaseIterable {
    /// Upright, home button (or its place) at the bottom.
    case portrait
    /// Upside down.
    case portraitUpsideDown
    /// Turned so that the home button is on the right.
    case landscapeLeft
    /// Turned so that the home button is on the left.
    case landscapeRight

    private static let lock = NSLock()
    nonisolated(unsafe) private static var held = HeldOrientation.portrait
    /// A task's own orientation, so that concurrent tests can hold their phones differently.
    @TaskLocal package static var taskOrientation: HeldOrientation?

    /// The orientation the phone is held in now: the task's, else the process-wide one.
    package static var current: HeldOrientation {
        get { taskOrientation ?? lock.withLock { held } }
        set {
            lock.withLock { held = newValue }
            turned()
        }
    }

    /// Tells the observers of every rotation coordinator's angles that the phone may have turned
    /// (KVO, spec §19.3 [D]); each hears only of an angle that changed.
    package static func turned() {
        for coordinator in coordinators.all { coordinator.observers.refresh() }
    }

    /// The live rotation coordinators, held weakly, whose observers hear of a turn.
    static let coordinators = WeakObjects<AVCaptureDevice.RotationCoordinator>()

    /// The clockwise rotation of the sensor image that shows the world upright (AVCaptureVideoOrientation's
    /// meaning: the sensor image is upright with the phone in `landscapeLeft`).
    var horizonLevelAngle: CGFloat {
        switch self {
        case .portrait: 90
        case .portraitUpsideDown: 270
        case .landscapeLeft: 0
        case .landscapeRight: 180
        }
    }
}

extension AVCaptureDevice {
    /// Tells which rotation keeps previews and captures level with the horizon as the phone turns
    /// (`AVCaptureDevice.RotationCoordinator`, iOS 17; spec §19.3).
    open class RotationCoordinator: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
        /// The camera.
        public private(set) weak var device: AVCaptureDevice?
        /// The layer showing the camera's preview, if any.
        public private(set) weak var previewLayer: CALayer?
        /// Observers of the two angles, which change as the phone turns (KVO, spec §19.3 [D]).
        let observers = ObserverRegistry()

        public init(device: AVCaptureDevice, previewLayer: CALayer?) {
            self.device = device
            self.previewLayer = previewLayer
            super.init()
            HeldOrientation.coordinators.add(self)
        }

        /// The angle for the preview layer's connection. The emulated interface turns with the phone, so the
        /// preview needs the same rotation as a capture (spec §19.3 [I]).
        open var videoRotationAngleForHorizonLevelPreview: CGFloat { HeldOrientation.current.horizonLevelAngle }

        /// The angle for an output's connection so that captured images are upright: 90° with the phone in
        /// portrait, 0° in landscape with the home button on the right (spec §19.3 [D]).
        open var videoRotationAngleForHorizonLevelCapture: CGFloat { HeldOrientation.current.horizonLevelAngle }
    }
}
