import Foundation

/// The device's depth configuration and zoom, guarded by its own lock.
final class DeviceDepthState: @unchecked Sendable {
    let lock = NSLock()
    /// The client's choice; used while it belongs to the active format.
    var format: AVCaptureDevice.Format?
    /// The client's cap on the depth rate; `.invalid` means the format's default.
    var minFrameDuration = CMTime.invalid
    var zoomFactor: CGFloat = 1
    /// Outputs that lock the zoom at 2× while they compute depth (spec §2.2 [T W17]).
    var zoomLocks = Set<ObjectIdentifier>()
}

extension AVCaptureDevice {
    // MARK: Depth (spec §2.5)

    /// The depth format in use: one of `activeFormat.supportedDepthDataFormats`, or nil on a
    /// device or format without depth. Setting it requires the lock and a supported format, and
    /// resets `activeDepthDataMinFrameDuration` (spec §2.5 [D]). Until the client picks one the
    /// first supported format is active [I].
    public var activeDepthDataFormat: Format? {
        get {
            let supported = activeFormat.supportedDepthDataFormats
            let chosen = depthState.lock.withLock { depthState.format }
            if let chosen, supported.contains(where: { $0 === chosen }) { return chosen }
            return supported.first
        }
        set {
            guard isConfigurationLocked else { Violation.deviceNotLocked("setActiveDepthDataFormat:").raise() }
            if let newValue, !activeFormat.supportedDepthDataFormats.contains(where: { $0 === newValue }) {
                Violation.unsupportedDepthDataFormat().raise()  // spec §2.5 [D]
            }
            let before = activeDepthDataFormat
            depthState.lock.withLock {
                depthState.format = newValue
                depthState.minFrameDuration = .invalid  // spec §2.5 [D]: resets with the depth format
            }
            observers.didChange(\AVCaptureDevice.activeDepthDataFormat)
            if activeDepthDataFormat !== before { postPortFormatDescriptionChange(.depthData) }
        }
    }

    /// The shortest depth frame duration: caps the depth rate. Lock required; must lie in the
    /// depth format's range; `.invalid` restores the default; `.positiveInfinity` stops depth
    /// (spec §2.5 [D]). Reads back the resolved value.
    public var activeDepthDataMinFrameDuration: CMTime {
        get {
            let stored = depthState.lock.withLock { depthState.minFrameDuration }
            if stored.isValid { return stored }
            return AVFrameRateRange.duration(fps: activeDepthDataFormat?.maxFPS ?? 30)
        }
        set {
            guard isConfigurationLocked else {
                Violation.deviceNotLocked("setActiveDepthDataMinFrameDuration:").raise()
            }
            if newValue.isNumeric, let depth = activeDepthDataFormat,
                !depth.videoSupportedFrameRateRanges.contains(where: { $0.contains(duration: newValue) })
            {
                Violation.unsupportedDepthFrameDuration(newValue).raise()  // spec §2.5 [D]
            }
            depthState.lock.withLock { depthState.minFrameDuration = newValue }
        }
    }

    /// Called when the active (video) format changes: the depth choice and cap reset (spec §2.3 [D]).
    func resetDepthConfiguration() {
        depthState.lock.withLock {
            depthState.format = nil
            depthState.minFrameDuration = .invalid
        }
    }

    /// Depth frames per second for the current video rate (spec §2.5 [I]): the largest integer
    /// fraction of the video rate Rv that does not exceed min(Rv, depth format max,
    /// 1 / activeDepthDataMinFrameDuration), i.e. Rv / ceil(Rv / cap). 0 without depth.
    var depthFramesPerSecond: Double {
        guard let depth = activeDepthDataFormat else { return 0 }
        let cap = activeDepthDataMinFrameDuration
        if cap.isPositiveInfinity { return 0 }
        let video = 1 / activeVideoMinFrameDuration.seconds
        var limit = min(video, depth.maxFPS)
        if cap.isNumeric, cap.seconds > 0 { limit = min(limit, 1 / cap.seconds) }
        guard limit > 0 else { return 0 }
        return video / (video / limit - 1e-9).rounded(.up)
    }

    /// Every how many video frames a depth frame comes: Rv / depth rate; 0 for no depth.
    var depthFrameStride: Int {
        let fps = depthFramesPerSecond
        guard fps > 0 else { return 0 }
        return Int((1 / activeVideoMinFrameDuration.seconds / fps).rounded())
    }

    // MARK: Zoom locked by depth (videoZoomFactor: AVCaptureDevice+Zoom.swift)

    /// Whether depth currently holds the zoom at 2× (the dual camera's telephoto field of view).
    var isZoomLockedForDepth: Bool { depthState.lock.withLock { !depthState.zoomLocks.isEmpty } }

    /// Locks or releases the zoom for one depth consumer; only the dual camera zooms (spec §2.2 [T]).
    func setDepthZoomLock(_ locked: Bool, by owner: AnyObject) {
        guard camera.deviceType == .builtInDualCamera else { return }
        let changed = depthState.lock.withLock { () -> Bool in
            let before = depthState.zoomLocks.isEmpty
            if locked {
                depthState.zoomLocks.insert(ObjectIdentifier(owner))
            } else {
                depthState.zoomLocks.remove(ObjectIdentifier(owner))
            }
            return before != depthState.zoomLocks.isEmpty
        }
        if changed { observers.didChange(\AVCaptureDevice.videoZoomFactor) }
    }
}
