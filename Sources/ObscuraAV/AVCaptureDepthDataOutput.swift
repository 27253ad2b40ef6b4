import Foundation

/// Receives depth maps and drops (spec §7 [D]); both methods are optional.
public protocol AVCaptureDepthDataOutputDelegate: NSObjectProtocol {
    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection)
    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection, reason: AVCaptureOutput.DataDroppedReason)
}

extension AVCaptureDepthDataOutputDelegate {
    public func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection
    ) {}
    public func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection, reason: AVCaptureOutput.DataDroppedReason
    ) {}
}

/// Delivers depth maps in the device's `activeDepthDataFormat` (spec §7).
///
/// Depth comes at the largest integer fraction of the video rate the depth format allows
/// (spec §2.5), with timestamps equal to those of the video frames they belong to. It is
/// produced only on depth-capable devices; elsewhere the output stays silent (spec §13 N17).
/// On the dual camera, being in a session zooms the device to 2× and locks the zoom
/// (spec §2.2 [T W17]).
open class AVCaptureDepthDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let lock = NSLock()
    private weak var delegateObject: AnyObject?
    private var queue: DispatchQueue?
    private var discardsLate = true
    private var filtering = true
    private weak var zoomedDevice: AVCaptureDevice?
    weak var synchronizer: AVCaptureDataOutputSynchronizer?

    public override init() { super.init() }

    /// Drop depth that arrives while the delegate is busy (spec §7 [D]: default true).
    public var alwaysDiscardsLateDepthData: Bool {
        get { lock.withLock { discardsLate } }
        set { lock.withLock { discardsLate = newValue } }
    }

    /// Temporal smoothing and hole filling; false leaves NaN holes (spec §7 [D]: default true).
    public var isFilteringEnabled: Bool {
        get { lock.withLock { filtering } }
        set { lock.withLock { filtering = newValue } }
    }

    /// Sets the delegate and its serial queue; a delegate without a queue raises (spec §7 [D]).
    open func setDelegate(_ delegate: AVCaptureDepthDataOutputDelegate?, callbackQueue: DispatchQueue?) {
        if delegate != nil, callbackQueue == nil {
            Violation.delegateWithoutQueue("-[AVCaptureDepthDataOutput setDelegate:callbackQueue:]").raise()
        }
        lock.withLock {
            delegateObject = delegate
            queue = callbackQueue
        }
    }

    /// The delegate, held weakly.
    public var delegate: AVCaptureDepthDataOutputDelegate? {
        lock.withLock { delegateObject as? AVCaptureDepthDataOutputDelegate }
    }

    /// The delegate's queue.
    public var delegateCallbackQueue: DispatchQueue? { lock.withLock { queue } }

    var target: (delegate: AVCaptureDepthDataOutputDelegate, queue: DispatchQueue)? {
        lock.withLock {
            guard let d = delegateObject as? AVCaptureDepthDataOutputDelegate, let queue else { return nil }
            return (d, queue)
        }
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .depthData }

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        // spec §2.2 [T W17]: depth on the dual camera holds the zoom at 2×.
        let connected = connections.contains { $0.deviceInput != nil } ? device : nil
        if let old = zoomedDevice, old !== connected { old.setDepthZoomLock(false, by: self) }
        connected?.setDepthZoomLock(true, by: self)
        zoomedDevice = connected
        if let session { StreamEngine.shared.register(session) }
    }
}
