import Foundation

/// A link from input ports to an output (spec §1.5).
open class AVCaptureConnection: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// The ports feeding the connection; fixed for its lifetime.
    public let inputPorts: [AVCaptureInput.Port]
    /// The output; fixed for its lifetime.
    public let output: AVCaptureOutput?
    let observers = ObserverRegistry()

    private struct Inner {
        var isEnabled = true
        var isActive = true
        var intrinsicDeliveryEnabled = false
    }

    private let lock = NSLock()
    private var inner = Inner()

    /// Connects ports to an output.
    public init(inputPorts ports: [AVCaptureInput.Port], output: AVCaptureOutput) {
        inputPorts = ports
        self.output = output
        super.init()
    }

    /// Whether data flows (default true; spec §1.5 [D]).
    public var isEnabled: Bool {
        get { lock.withLock { inner.isEnabled } }
        set { lock.withLock { inner.isEnabled = newValue } }
    }

    /// Whether the configuration lets the connection work (default true; KVO; spec §1.5 [D]).
    public var isActive: Bool { lock.withLock { inner.isActive } }

    func setActive(_ active: Bool) {
        let changed = lock.withLock { () -> Bool in
            defer { inner.isActive = active }
            return inner.isActive != active
        }
        if changed { observers.didChange(\AVCaptureConnection.isActive) }
    }

    /// True only on a video data output connection whose device supports it (spec §1.5 [D]).
    public var isCameraIntrinsicMatrixDeliverySupported: Bool {
        guard output is AVCaptureVideoDataOutput,
            let device = (inputPorts.first?.input as? AVCaptureDeviceInput)?.device
        else { return false }
        return device.camera.features.intrinsicMatrixDelivery
    }

    /// Attach the intrinsic matrix to each sample buffer (default false). Only when supported,
    /// and before the session runs (spec §1.5 [D]).
    public var isCameraIntrinsicMatrixDeliveryEnabled: Bool {
        get { lock.withLock { inner.intrinsicDeliveryEnabled } }
        set {
            if newValue && !isCameraIntrinsicMatrixDeliverySupported {
                Violation.connectionUnsupported(
                    "setCameraIntrinsicMatrixDeliveryEnabled:",
                    "Camera intrinsic matrix delivery is not supported on this connection"
                ).raise()
            }
            if newValue, let session = output?.session, session.isRunning {
                Violation.connectionUnsupported(
                    "setCameraIntrinsicMatrixDeliveryEnabled:",
                    "Camera intrinsic matrix delivery must be enabled before the session starts running"
                ).raise()
            }
            lock.withLock { inner.intrinsicDeliveryEnabled = newValue }
        }
    }

    var deviceInput: AVCaptureDeviceInput? { inputPorts.first?.input as? AVCaptureDeviceInput }
}
