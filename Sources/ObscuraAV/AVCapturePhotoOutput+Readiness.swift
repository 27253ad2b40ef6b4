import Foundation

/// Zero shutter lag, responsive capture and capture readiness (iOS 17; spec §3.1, §3.3).
///
/// A request is in flight from `capturePhoto` until `didFinishCapture`. It is first *capturing*
/// (until `didCapturePhoto`), then *processing*. Readiness follows the requests in flight:
///
///     session not running                      → .sessionNotRunning
///     nothing in flight                        → .ready
///     a request capturing                      → .notReadyWaitingForCapture
///     requests processing, responsive capture  → .ready (the next capture overlaps them)
///     requests processing, no responsive       → .notReadyWaitingForProcessing
///
/// With responsive capture enabled, a request's processing runs apart from the delegate queue,
/// so the next request's `willBeginCapture … didCapturePhoto` can arrive before the previous
/// request's photos; photos still arrive in request order (spec §3.3 [D]).
extension AVCapturePhotoOutput {
    /// Whether the output is ready for a new request (iOS 17).
    public enum CaptureReadiness: Int, Sendable, Hashable {
        case sessionNotRunning = 0
        case ready = 1
        case notReadyMomentarily = 2
        case notReadyWaitingForCapture = 3
        case notReadyWaitingForProcessing = 4
    }

    /// Zero shutter lag: the photo is taken from frames buffered before the shutter press. Our
    /// choice [I]: every camera with a video source supports it, as every camera on the iOS 17
    /// devices we model does; on the virtual clock the photo's frame is the frame at the press.
    public var isZeroShutterLagSupported: Bool { lock.withLock { inner.caps.device != nil } }

    /// On by default where supported (spec §3.3 [D]: apps linked on or after iOS 17); false
    /// while unsupported. Setting it true while unsupported raises.
    public var isZeroShutterLagEnabled: Bool {
        get { lock.withLock { inner.caps.device != nil && inner.zeroShutterLagEnabled } }
        set {
            setReadinessFeature(
                \.zeroShutterLagEnabled, newValue, supported: isZeroShutterLagSupported, "setZeroShutterLagEnabled:",
                "Zero shutter lag")
        }
    }

    /// Responsive capture needs zero shutter lag enabled (spec §3.3 [D]).
    public var isResponsiveCaptureSupported: Bool { isZeroShutterLagEnabled }

    /// Overlapping captures (default false): a new request may begin while earlier ones are
    /// still processing. False while unsupported; setting it true then raises.
    public var isResponsiveCaptureEnabled: Bool {
        get { isResponsiveCaptureSupported && lock.withLock { inner.responsiveCaptureEnabled } }
        set {
            setReadinessFeature(
                \.responsiveCaptureEnabled, newValue, supported: isResponsiveCaptureSupported,
                "setResponsiveCaptureEnabled:", "Responsive capture")
        }
    }

    /// Fast capture prioritization needs responsive capture enabled (spec §3.3 [D]).
    public var isFastCapturePrioritizationSupported: Bool { isResponsiveCaptureEnabled }

    /// Lower the quality of captures taken in quick succession to keep up (default false). In
    /// Obscura quality prioritization does not change pixels, so the effect shows only in the
    /// trace: an overlapping request is processed as `.speed` (spec §3.3 [I]).
    public var isFastCapturePrioritizationEnabled: Bool {
        get { isFastCapturePrioritizationSupported && lock.withLock { inner.fastCapturePrioritizationEnabled } }
        set {
            setReadinessFeature(
                \.fastCapturePrioritizationEnabled, newValue, supported: isFastCapturePrioritizationSupported,
                "setFastCapturePrioritizationEnabled:", "Fast capture prioritization")
        }
    }

    /// Whether a new request would be served now (see the table above). Key-value observable: observers
    /// hear each change, on the thread that made it (spec §3.3 [D]).
    public var captureReadiness: CaptureReadiness {
        let running = session?.isRunning ?? false
        let responsive = isResponsiveCaptureEnabled
        return lock.withLock { Self.readiness(running: running, responsive: responsive, inFlight: inner.inFlight) }
    }

    static func readiness(
        running: Bool, responsive: Bool, inFlight: [(id: Int64, phase: CapturePhase)]
    ) -> CaptureReadiness {
        guard running else { return .sessionNotRunning }
        if inFlight.contains(where: { $0.phase == .capturing }) { return .notReadyWaitingForCapture }
        if !inFlight.isEmpty && !responsive { return .notReadyWaitingForProcessing }
        return .ready
    }

    private func setReadinessFeature(
        _ key: WritableKeyPath<Inner, Bool>, _ value: Bool, supported: Bool, _ selector: String, _ feature: String
    ) {
        // spec §3.1 [O]: enabling an unsupported feature raises, as for the other opt-ins.
        if value && !supported { Violation.photoOutputUnsupported(selector, feature).raise() }
        lock.withLock { inner[keyPath: key] = value }
        readinessMayHaveChanged()
    }

    // MARK: Requests in flight

    /// Whether the request's processing runs apart from the delegate queue.
    var overlapsProcessing: Bool { isResponsiveCaptureEnabled }

    /// Records an accepted request; returns whether another request was already in flight.
    @discardableResult
    func requestAccepted(_ id: Int64) -> Bool {
        let overlapping = lock.withLock { () -> Bool in
            defer { inner.inFlight.append((id, .capturing)) }
            return !inner.inFlight.isEmpty
        }
        readinessMayHaveChanged()
        return overlapping
    }

    /// The request's exposure is over (`didCapturePhoto` was called).
    func requestCaptured(_ id: Int64) {
        lock.withLock {
            if let i = inner.inFlight.firstIndex(where: { $0.id == id }) { inner.inFlight[i].phase = .processing }
        }
        readinessMayHaveChanged()
    }

    /// The request is over (its `didFinishCapture` comes next).
    func requestFinished(_ id: Int64) {
        lock.withLock { inner.inFlight.removeAll { $0.id == id } }
        // A finished request stops counting as tracked before anyone recomputes readiness.
        for coordinator in readinessCoordinators.all { coordinator.outputFinished(id) }
        readinessMayHaveChanged()
    }

    /// Whether the output has accepted a request that has not finished.
    func isInFlight(_ id: Int64) -> Bool { lock.withLock { inner.inFlight.contains { $0.id == id } } }

    /// Tells the coordinators to recompute; each tells its delegate only of a change.
    func readinessMayHaveChanged() {
        // Reading, comparing and reporting happen under one lock, so two threads cannot report in the
        // opposite order to the one they read in (which would leave a stale value stored and the next
        // real change unheard). The lock is recursive: an observer may capture or stop from its handler.
        readinessReportLock.withLock {
            let now = captureReadiness
            let changed = lock.withLock { () -> Bool in
                defer { inner.reportedReadiness = now }
                return inner.reportedReadiness != now
            }
            if changed { observers.didChange(\AVCapturePhotoOutput.captureReadiness) }
            for coordinator in readinessCoordinators.all { coordinator.outputReadinessChanged() }
        }
    }
}
