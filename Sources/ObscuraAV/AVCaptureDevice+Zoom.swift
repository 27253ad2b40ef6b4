import Foundation

extension AVCaptureDevice {
    // MARK: Zoom

    /// The zoom factor (1 = no zoom). Lock required (spec §2.4 [D]); outside
    /// [minAvailableVideoZoomFactor, maxAvailableVideoZoomFactor] raises `NSRangeException` (observed
    /// text). Setting it ends a ramp. Streamed frames show the centre 1/zoom of the field of view at
    /// full size, and their intrinsic matrix's fx and fy scale by the factor. While depth is computed
    /// on the dual camera the zoom stays locked at 2× and new values are ignored
    /// (spec §2.2 [T W17]; [I] ignored). KVO.
    public var videoZoomFactor: CGFloat {
        get {
            if isZoomLockedForDepth { return 2 }
            return advanceZoomRamp()
        }
        set {
            guard isConfigurationLocked else { Violation.deviceNotLocked("setVideoZoomFactor:").raise() }
            let (low, high) = (minAvailableVideoZoomFactor, maxAvailableVideoZoomFactor)
            guard newValue >= low, newValue <= high else {
                Violation.zoomFactorOutOfRange("setVideoZoomFactor:", newValue, min: low, max: high).raise()  // [O]
            }
            controls.update { $0.zoomRamp = nil }
            depthState.lock.withLock { depthState.zoomFactor = newValue }
            observers.didChange(\AVCaptureDevice.videoZoomFactor)
        }
    }

    /// The smallest zoom factor allowed now: 1 (the widest view of the device).
    public var minAvailableVideoZoomFactor: CGFloat { 1 }

    /// The largest zoom factor allowed now: the active format's `videoMaxZoomFactor`.
    public var maxAvailableVideoZoomFactor: CGFloat { activeFormat.videoMaxZoomFactor }

    /// Zooms smoothly towards `factor` at `rate` doublings (powers of two) per second of wall-clock
    /// time, as the hardware does in real time. Lock required; the factor must be available
    /// (`NSRangeException`, observed text) (spec §2.4). A rate of 0 or less does nothing [I].
    public func ramp(toVideoZoomFactor factor: CGFloat, withRate rate: Float) {
        let selector = "rampToVideoZoomFactor:withRate:"
        guard isConfigurationLocked else { Violation.deviceNotLocked(selector).raise() }  // spec §2.4 [D]
        let (low, high) = (minAvailableVideoZoomFactor, maxAvailableVideoZoomFactor)
        guard factor >= low, factor <= high else {
            Violation.zoomFactorOutOfRange(selector, factor, min: low, max: high).raise()  // [O]
        }
        guard rate > 0 else { return }
        let start = depthState.lock.withLock { depthState.zoomFactor }
        controls.update { $0.zoomRamp = ZoomRamp(from: start, to: factor, rate: rate, start: Self.now) }
        observers.didChange(\AVCaptureDevice.isRampingVideoZoom)
    }

    /// Stops a ramp where it is. Lock required (spec §2.4 [D]).
    public func cancelVideoZoomRamp() {
        guard isConfigurationLocked else { Violation.deviceNotLocked("cancelVideoZoomRamp").raise() }
        _ = advanceZoomRamp()
        let was = controls.update { v -> Bool in
            defer { v.zoomRamp = nil }
            return v.zoomRamp != nil
        }
        if was { observers.didChange(\AVCaptureDevice.isRampingVideoZoom) }
    }

    /// Whether a ramp is in progress. KVO.
    public var isRampingVideoZoom: Bool {
        _ = advanceZoomRamp()
        return controls.value.zoomRamp != nil
    }

    /// The zoom factors at which a virtual device switches to its next constituent: each later
    /// constituent's focal length over the first's (fx over reference width, i.e. the ratio of
    /// their fields of view); empty for physical cameras (spec §2.2 [D names; I derivation]).
    public var virtualDeviceSwitchOverVideoZoomFactors: [NSNumber] {
        let focal = constituentDevices.compactMap { $0.activeFormat.normalisedFocalLength }
        guard focal.count > 1, let first = focal.first, first > 0 else { return [] }
        return focal.dropFirst().map { NSNumber(value: Double(($0 / first * 100).rounded() / 100)) }
    }

    /// The factor by which an app shows zoom factors: the first constituent's focal length over
    /// the wide camera's (0.5 for a device whose widest view is an ultra-wide camera of half the wide
    /// focal length), 1 otherwise; so `videoZoomFactor × multiplier` is the familiar "0.5×, 1×, 3×".
    public var displayVideoZoomFactorMultiplier: CGFloat {
        guard isVirtualDevice, let first = constituentDevices.first?.activeFormat.normalisedFocalLength,
            let wide = constituentDevices.first(where: { $0.deviceType == .builtInWideAngleCamera })?
                .activeFormat.normalisedFocalLength,
            wide > 0
        else { return 1 }
        return CGFloat((first / wide * 100).rounded() / 100)
    }

    /// Moves a ramp on to where wall-clock time has taken it, ending it at its target; returns the
    /// zoom factor now.
    private func advanceZoomRamp() -> CGFloat {
        guard let ramp = controls.value.zoomRamp else { return depthState.lock.withLock { depthState.zoomFactor } }
        let (factor, done) = ramp.factor(at: Self.now)
        depthState.lock.withLock { depthState.zoomFactor = factor }
        if done {
            controls.update { $0.zoomRamp = nil }
            observers.didChange(\AVCaptureDevice.isRampingVideoZoom)
        }
        return factor
    }

    private static var now: Double { ProcessInfo.processInfo.systemUptime }
}

/// A zoom ramp: the factor changes exponentially, by `rate` doublings per second.
struct ZoomRamp: Sendable {
    let from: CGFloat
    let to: CGFloat
    let rate: Float
    let start: Double

    func factor(at time: Double) -> (CGFloat, done: Bool) {
        guard from > 0, to > 0 else { return (to, true) }
        let total = abs(log2(Double(to / from))) / Double(rate)
        let elapsed = time - start
        guard elapsed < total else { return (to, true) }
        let sign: Double = to > from ? 1 : -1
        return (from * CGFloat(pow(2, sign * elapsed * Double(rate))), false)
    }
}
