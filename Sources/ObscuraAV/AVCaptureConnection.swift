import Foundation

/// A link from input ports to an output (spec §1.5).
open class AVCaptureConnection: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// The ports feeding the connection; fixed for its lifetime.
    public let inputPorts: [AVCaptureInput.Port]
    /// The output; fixed for its lifetime; nil for a preview layer's connection.
    public let output: AVCaptureOutput?
    /// The preview layer the connection feeds; nil for an output's connection (spec §1.5 [D]).
    public private(set) weak var videoPreviewLayer: AVCaptureVideoPreviewLayer?
    let observers = ObserverRegistry()

    private struct Inner {
        var isEnabled = true
        var isActive = true
        var intrinsicDeliveryEnabled = false
        /// Clockwise degrees applied to the sensor's landscape image.
        var rotationAngle: CGFloat = 0
        var automaticallyAdjustsMirroring = true
        /// The mirroring the client chose: in force once automatic mirroring is off, or once set while it
        /// is on (`hasClientMirroring`).
        var mirrored = false
        var hasClientMirroring = false
        var preferredStabilization = AVCaptureVideoStabilizationMode.off
        var scaleAndCropFactor: CGFloat = 1
    }

    private let lock = NSLock()
    private var inner = Inner()

    /// Connects ports to an output.
    public init(inputPorts ports: [AVCaptureInput.Port], output: AVCaptureOutput) {
        inputPorts = ports
        self.output = output
        super.init()
    }

    /// Connects a video port to a preview layer. A preview shows the video upright on a phone held in
    /// portrait, so its rotation starts at 90° (spec §1.5 [O]).
    public init(inputPort port: AVCaptureInput.Port, videoPreviewLayer layer: AVCaptureVideoPreviewLayer) {
        inputPorts = [port]
        output = nil
        videoPreviewLayer = layer
        super.init()
        inner.rotationAngle = 90
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
        // spec §1.5 [D]: unsupported while video stabilization is on.
        guard output is AVCaptureVideoDataOutput, activeVideoStabilizationMode == .off,
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

    // MARK: - Orientation, mirroring and stabilization (spec §1.5)

    /// Whether the connection carries pictures that can be turned and mirrored: a video port feeding an
    /// output or a preview layer, or a depth port feeding a depth data output (spec §1.5 [D]: Apple
    /// documents mirroring and rotation for depth data connections too).
    private var carriesVideo: Bool { inputPorts.contains { $0.mediaType == .video || $0.mediaType == .depthData } }

    /// The largest `videoScaleAndCropFactor`: the camera's `activeFormat.videoMaxZoomFactor` on a still-image
    /// output's video connection, the one output whose pictures the factor scales and crops; 1 on every other
    /// connection, whose pictures it leaves alone (spec §1.5 [D] range; which connections scale, [I]).
    public var videoMaxScaleAndCropFactor: CGFloat {
        guard output is AVCaptureStillImageOutput, inputPorts.contains(where: { $0.mediaType == .video }),
            let device = deviceInput?.device
        else { return 1 }
        return device.activeFormat.videoMaxZoomFactor
    }

    /// The scale and crop of a still-image output's pictures (default 1): a factor `s` enlarges the centre
    /// `1/s` of the picture to its full size, on top of the device's `videoZoomFactor` (the product held at
    /// the active format's `videoMaxZoomFactor`, [I]). A value outside `[1, videoMaxScaleAndCropFactor]` raises
    /// `NSInvalidArgumentException` (spec §1.5 [D]).
    public var videoScaleAndCropFactor: CGFloat {
        get { lock.withLock { inner.scaleAndCropFactor } }
        set {
            let max = videoMaxScaleAndCropFactor
            guard newValue >= 1, newValue <= max else {
                Violation.scaleAndCropFactorOutOfRange(newValue, max: max).raise()
            }
            lock.withLock { inner.scaleAndCropFactor = newValue }
        }
    }

    /// Whether `videoOrientation` may be set: on every connection that carries video or depth (spec §1.5 [D]).
    public var isVideoOrientationSupported: Bool { carriesVideo }

    /// The orientation of the delivered video (deprecated in iOS 17; it mirrors `videoRotationAngle`).
    /// An output's connection starts in the sensor's landscape orientation, `.landscapeRight`; a preview's in
    /// `.portrait` (spec §1.5 [O]).
    public var videoOrientation: AVCaptureVideoOrientation {
        get { AVCaptureVideoOrientation(rotationAngle: videoRotationAngle) }
        set {
            // spec §1.5 [D]: settable only when supported.
            if !isVideoOrientationSupported { Violation.orientationUnsupported().raise() }
            lock.withLock { inner.rotationAngle = newValue.rotationAngle }
        }
    }

    /// Whether `angle` may be set as `videoRotationAngle`: a multiple of 90° from 0 to 270 on a connection
    /// carrying video (spec §1.5 [D]).
    public func isVideoRotationAngleSupported(_ videoRotationAngle: CGFloat) -> Bool {
        guard carriesVideo, videoRotationAngle >= 0, videoRotationAngle < 360 else { return false }
        return videoRotationAngle.truncatingRemainder(dividingBy: 90) == 0
    }

    /// The clockwise rotation, in degrees, applied to the sensor's image. A video data output's buffers are
    /// physically rotated (spec §1.5 [D]).
    public var videoRotationAngle: CGFloat {
        get { lock.withLock { inner.rotationAngle } }
        set {
            if !isVideoRotationAngleSupported(newValue) { Violation.rotationAngleUnsupported(newValue).raise() }
            lock.withLock { inner.rotationAngle = newValue }
        }
    }

    /// Whether `isVideoMirrored` may be set: on every connection that carries video (spec §1.5 [D]).
    public var isVideoMirroringSupported: Bool { carriesVideo }

    /// Whether the connection mirrors automatically (default true; spec §1.5 [D]). Turning it off keeps the
    /// mirroring in force at that moment.
    public var automaticallyAdjustsVideoMirroring: Bool {
        get { lock.withLock { inner.automaticallyAdjustsMirroring } }
        set {
            let current = isVideoMirrored
            lock.withLock {
                if inner.automaticallyAdjustsMirroring && !newValue { inner.mirrored = current }
                inner.automaticallyAdjustsMirroring = newValue
            }
        }
    }

    /// Whether the video is flipped horizontally. While mirroring is automatic and the client has not
    /// chosen, a front camera's preview is mirrored, as the Camera app's is, and outputs are not
    /// (spec §1.5 [I]). Setting it while mirroring is automatic takes effect and does not raise: Apple
    /// documents no raise there, and its samples set it on a video data output's connection with
    /// automatic mirroring left on (spec §1.5 rule M, our choice from those sources).
    public var isVideoMirrored: Bool {
        get {
            let (automatic, chosen, mirrored) = lock.withLock {
                (inner.automaticallyAdjustsMirroring, inner.hasClientMirroring, inner.mirrored)
            }
            guard automatic && !chosen else { return mirrored }
            return videoPreviewLayer != nil && deviceInput?.device.position == .front
        }
        set {
            if !isVideoMirroringSupported { Violation.mirroringUnsupported().raise() }
            lock.withLock {
                inner.mirrored = newValue
                inner.hasClientMirroring = true
            }
        }
    }

    /// Whether stabilization can run: on a video data output's or a movie file output's connection from a
    /// camera whose active format has the margin for at least the standard mode. A preview's connection
    /// reports none: the emulated preview layer draws no picture to stabilise (spec §1.5 [I]).
    public var isVideoStabilizationSupported: Bool {
        guard carriesVideo, let device = deviceInput?.device,
            output is AVCaptureVideoDataOutput || output is AVCaptureMovieFileOutput
        else { return false }
        return device.activeFormat.isVideoStabilizationModeSupported(.standard)
    }

    /// The stabilization the client asks for (default `.off`; spec §1.5 [D]).
    public var preferredVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        get { lock.withLock { inner.preferredStabilization } }
        set { lock.withLock { inner.preferredStabilization = newValue } }
    }

    /// The stabilization in force: `.off` when unsupported or not asked for, `.standard` for `.auto`, the
    /// preferred mode when the active format offers it and `.off` when it does not; never `.auto`
    /// (spec §1.5 [D], `.auto` → `.standard` and the fallback [I]). Frames show its crop (`cropFactor`).
    public var activeVideoStabilizationMode: AVCaptureVideoStabilizationMode {
        let preferred = preferredVideoStabilizationMode
        guard isVideoStabilizationSupported, let format = deviceInput?.device.activeFormat else { return .off }
        let mode = preferred == .auto ? AVCaptureVideoStabilizationMode.standard : preferred
        return format.isVideoStabilizationModeSupported(mode) ? mode : .off
    }

    /// How a video data output's buffers, and a depth data output's maps, are reoriented: the rotation and
    /// mirroring above (spec §1.5 [D]).
    var videoTransform: ConnectionTransform {
        ConnectionTransform(rotationAngle: videoRotationAngle, mirrored: isVideoMirrored)
    }
}
