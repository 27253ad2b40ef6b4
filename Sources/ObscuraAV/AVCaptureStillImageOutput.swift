import CaptureRules
import Foundation

/// The still-image output deprecated since iOS 10 (`AVCaptureStillImageOutput`), still compiled by
/// older apps. It cannot share a session with a photo output (spec §1.2 [D]).
///
/// Each capture is a photo request made on the app's behalf: the same rendering, flash decision
/// and files as `AVCapturePhotoOutput`, with the flash mode taken from the device's own
/// `flashMode`, the one setting that governed it on iOS 9.
open class AVCaptureStillImageOutput: AVCaptureOutput, @unchecked Sendable {
    /// The photo output that takes the pictures, wired to this output's connections.
    let engine = AVCapturePhotoOutput()
    private let lock = NSLock()
    private var settings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.jpeg]
    private var capturing = 0
    private var autoStabilization = true

    public override init() {
        super.init()
        engine.connectionsOwner = self
    }

    /// The deprecated output predates deferred start, and always starts with the session (spec §1.7).
    open override var isDeferredStartSupported: Bool { false }

    /// What each capture delivers: `[AVVideoCodecKey: codec]` for compressed data (default JPEG),
    /// or `[kCVPixelBufferPixelFormatTypeKey as String: format]` for pixels. Keys and values must come from
    /// the available lists; anything else raises `NSInvalidArgumentException`, as Apple documents.
    open var outputSettings: [String: Any] {
        get { lock.withLock { settings } }
        set {
            let codec = newValue[AVVideoCodecKey].flatMap(Self.codec)
            let format = newValue[kCVPixelBufferPixelFormatTypeKey as String].flatMap(Self.pixelFormat)
            let valid =
                (codec.map { availableImageDataCodecTypes.contains($0) } ?? false)
                || (format.map { availableImageDataCVPixelFormatTypes.contains($0) } ?? false)
            guard valid else {
                Violation.invalidArgument(
                    "-[AVCaptureStillImageOutput setOutputSettings:]",
                    "Unsupported output settings: use availableImageDataCodecTypes or "
                        + "availableImageDataCVPixelFormatTypes",
                    CaptureRule("§1.2", .documented, "still-image output settings name an available codec or format")
                ).raise()
            }
            lock.withLock { settings = newValue }
        }
    }

    /// The pixel formats `outputSettings` may name, as the photo output offers them.
    open var availableImageDataCVPixelFormatTypes: [OSType] {
        [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_32BGRA,
        ]
    }

    /// The codecs `outputSettings` may name: JPEG, as on the iOS versions that had this output.
    open var availableImageDataCodecTypes: [AVVideoCodecType] { [.jpeg] }

    /// Whether stills are taken at the active format's `highResolutionStillImageDimensions` rather than its smallest
    /// photo size (default false).
    open var isHighResolutionStillImageOutputEnabled: Bool {
        get { engine.isHighResolutionCaptureEnabled }
        set { engine.isHighResolutionCaptureEnabled = newValue }
    }

    /// Whether several frames are merged against shake: no emulated camera does, so false.
    open var isStillImageStabilizationSupported: Bool { false }

    /// Whether stabilisation is used where supported (default true); it never is here.
    open var automaticallyEnablesStillImageStabilizationWhenAvailable: Bool {
        get { lock.withLock { autoStabilization } }
        set { lock.withLock { autoStabilization = newValue } }
    }

    /// Whether the next still is stabilised: never, as it is not supported.
    open var isStillImageStabilizationActive: Bool { false }

    /// Whether a capture is under way: true from `captureStillImageAsynchronously` until its
    /// handler has been called. KVO.
    open var isCapturingStillImage: Bool { lock.withLock { capturing > 0 } }

    /// Takes a picture from `connection`, one of this output's, and calls `handler` with it: a
    /// sample buffer holding the JPEG bytes (Exif included) as its data buffer, or the pixels as its
    /// image buffer. The flash fires as the device's `flashMode` says. A connection that is not this
    /// output's active and enabled one raises `NSInvalidArgumentException` (observed text).
    open func captureStillImageAsynchronously(
        from connection: AVCaptureConnection, completionHandler handler: @escaping (CMSampleBuffer?, Error?) -> Void
    ) {
        checkConnection(
            connection, method: "-[AVCaptureStillImageOutput captureStillImageAsynchronouslyFromConnection:completionHandler:]")
        let photoSettings = AVCapturePhotoSettings(format: processedFormat)
        photoSettings.isHighResolutionPhotoEnabled = isHighResolutionStillImageOutputEnabled
        if let device = connection.deviceInput?.device {
            let mode = device.flashMode
            photoSettings.flashMode = engine.supportedFlashModes.contains(mode) ? mode : .off
        }
        setCapturing(+1)
        let receiver = StillImageReceiver(handler: UncheckedSendable(handler)) { [weak self] in
            self?.setCapturing(-1)
        }
        engine.capturePhoto(with: photoSettings, delegate: receiver)
    }

    /// The JPEG file of a JPEG sample buffer from this output: its bytes, Exif included. Nil for a
    /// sample buffer that holds no JPEG.
    open class func jpegStillImageNSDataRepresentation(_ jpegSampleBuffer: CMSampleBuffer) -> Data? {
        AVCapturePhotoOutput.jpegPhotoDataRepresentation(
            forJPEGSampleBuffer: jpegSampleBuffer, previewPhotoSampleBuffer: nil)
    }

    /// A capture's connection must be this output's, active and enabled; another raises `NSInvalidArgumentException`
    /// (observed text).
    func checkConnection(_ connection: AVCaptureConnection, method: String) {
        guard connection.output === self, connection.isActive, connection.isEnabled else {
            Violation.invalidArgument(
                method, "Inactive/invalid connection passed.",
                CaptureRule("§1.2", .observed, "a still image is taken from the output's active, enabled connection")
            ).raise()
        }
    }

    /// The photo output's format for `outputSettings`: the codec's, or the pixel format's.
    var processedFormat: [String: Any] {
        let asked = outputSettings
        if let format = asked[kCVPixelBufferPixelFormatTypeKey as String].flatMap(Self.pixelFormat) {
            return [kCVPixelBufferPixelFormatTypeKey as String: format]
        }
        return asked
    }

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        engine.session = session
        engine.sessionDidResolve(device: device, preset: preset)
    }

    func setCapturing(_ delta: Int) {
        lock.withLock { capturing += delta }
        observers.didChange(\AVCaptureStillImageOutput.isCapturingStillImage)
    }

    private static func codec(_ value: Any) -> AVVideoCodecType? {
        if let codec = value as? AVVideoCodecType { return codec }
        return (value as? String).map(AVVideoCodecType.init(rawValue:))
    }

    private static func pixelFormat(_ value: Any) -> OSType? {
        if let format = value as? OSType { return format }
        if let format = value as? Int { return OSType(exactly: format) }
        return (value as? NSNumber)?.uint32Value
    }
}

/// Receives the photo request a still-image capture makes and hands its photo to the app's handler.
private final class StillImageReceiver: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    let handler: UncheckedSendable<(CMSampleBuffer?, Error?) -> Void>
    let finished: () -> Void
    /// The output holds its delegates weakly; the request keeps its receiver until it is over.
    private var keepAlive: StillImageReceiver?

    init(handler: UncheckedSendable<(CMSampleBuffer?, Error?) -> Void>, finished: @escaping () -> Void) {
        self.handler = handler
        self.finished = finished
        super.init()
        keepAlive = self
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        // The handler is the last word of the capture: the output is no longer capturing.
        finished()
        handler.value(photo.photoSampleBuffer(), error)
    }

    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        keepAlive = nil
    }
}
