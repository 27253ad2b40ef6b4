import Foundation

/// Told when a photo output's capture readiness changes (iOS 17). Optional to implement.
public protocol AVCapturePhotoOutputReadinessCoordinatorDelegate: NSObjectProtocol {
    func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator,
        captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness)
}

extension AVCapturePhotoOutputReadinessCoordinatorDelegate {
    public func readinessCoordinator(
        _ coordinator: AVCapturePhotoOutputReadinessCoordinator,
        captureReadinessDidChange captureReadiness: AVCapturePhotoOutput.CaptureReadiness
    ) {}
}

/// Follows a photo output's readiness for the user interface (spec §3.3 [D]).
///
/// Its readiness is the output's, combined with requests the app announced with
/// `startTrackingCaptureRequest(using:)` before handing them to the output on another queue: an
/// announced request the output has not accepted yet makes it `.notReadyMomentarily` [I]. An
/// announced request stops counting when the output finishes it or the app stops tracking it.
///
/// The delegate is called on the main queue, as Apple documents, with the value current when
/// the delegate is set and then with each change. The main queue must be serviced for the calls
/// to arrive (a UI app's run loop, `dispatchMain()`, or an async `main`, which is how Swift
/// Testing runs on Linux).
open class AVCapturePhotoOutputReadinessCoordinator: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving,
    ObservationHost
{
    let observers = ObserverRegistry()
    private let output: AVCapturePhotoOutput
    private let lock = NSLock()
    private let reportLock = NSRecursiveLock()
    private weak var delegateObject: AnyObject?
    private var tracked: [Int64] = []
    private var current: AVCapturePhotoOutput.CaptureReadiness
    private var sessionObservers: [NSObjectProtocol] = []
    /// Where delegate calls go: the main queue (spec §3.3 [D]).
    let callbackQueue: DispatchQueue

    /// A coordinator for an output.
    public init(photoOutput: AVCapturePhotoOutput) {
        output = photoOutput
        callbackQueue = .main
        current = photoOutput.captureReadiness
        super.init()
        photoOutput.readinessCoordinators.add(self)
        // Start and stop are the session's; the coordinator learns of them as any observer does.
        for name in [AVCaptureSession.didStartRunningNotification, AVCaptureSession.didStopRunningNotification] {
            let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) {
                [weak self] note in
                guard let self, let session = note.object as? AVCaptureSession, session === self.output.session
                else { return }
                self.outputReadinessChanged()
            }
            sessionObservers.append(token)
        }
    }

    deinit {
        for token in sessionObservers { NotificationCenter.default.removeObserver(token) }
    }

    /// The delegate, held weakly; setting it sends it the current readiness on the main queue.
    public weak var delegate: AVCapturePhotoOutputReadinessCoordinatorDelegate? {
        get { lock.withLock { delegateObject as? AVCapturePhotoOutputReadinessCoordinatorDelegate } }
        set {
            let value = lock.withLock { () -> AVCapturePhotoOutput.CaptureReadiness in
                delegateObject = newValue
                return current
            }
            if newValue != nil { tell(value) }
        }
    }

    /// The output's readiness combined with the tracked requests (KVO).
    public var captureReadiness: AVCapturePhotoOutput.CaptureReadiness {
        combined(output.captureReadiness)
    }

    /// Counts a request the app is about to hand to the output, so the shutter button can be
    /// disabled at once on the main thread.
    public func startTrackingCaptureRequest(using settings: AVCapturePhotoSettings) {
        lock.withLock { if !tracked.contains(settings.uniqueID) { tracked.append(settings.uniqueID) } }
        outputReadinessChanged()
    }

    /// Stops counting a tracked request.
    public func stopTrackingCaptureRequest(using settingsUniqueID: Int64) {
        lock.withLock { tracked.removeAll { $0 == settingsUniqueID } }
        outputReadinessChanged()
    }

    private func combined(_ readiness: AVCapturePhotoOutput.CaptureReadiness) -> AVCapturePhotoOutput.CaptureReadiness {
        guard readiness == .ready else { return readiness }
        let waiting = lock.withLock { tracked }.contains { !output.isInFlight($0) }
        return waiting ? .notReadyMomentarily : .ready
    }

    /// Recomputes the readiness and tells the delegate when it changed.
    func outputReadinessChanged() {
        // As in the output: read, compare and report under one (recursive) lock, in one order.
        reportLock.withLock {
            let now = captureReadiness
            let changed = lock.withLock { () -> Bool in
                defer { current = now }
                return current != now
            }
            guard changed else { return }
            observers.didChange(\AVCapturePhotoOutputReadinessCoordinator.captureReadiness)
            tell(now)
        }
    }

    /// The output finished a request: it no longer needs tracking.
    func outputFinished(_ id: Int64) {
        lock.withLock { tracked.removeAll { $0 == id } }
    }

    private func tell(_ readiness: AVCapturePhotoOutput.CaptureReadiness) {
        let box = UncheckedSendable(self)
        callbackQueue.async {
            let coordinator = box.value
            coordinator.delegate?.readinessCoordinator(coordinator, captureReadinessDidChange: readiness)
        }
    }
}
