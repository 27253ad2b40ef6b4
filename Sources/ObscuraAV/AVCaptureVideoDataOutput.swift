import CaptureRules
import Foundation

/// Receives video frames and drops (spec §1.5 for the intrinsic-matrix attachment). Both
/// methods are optional.
public protocol AVCaptureVideoDataOutputSampleBufferDelegate: NSObjectProtocol {
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureVideoDataOutputSampleBufferDelegate {
    public func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {}
    public func captureOutput(
        _ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {}
}

/// Delivers the session's video frames as sample buffers on the virtual clock (Testing on Linux, “Control the clock”).
///
/// Frames come at the device's active frame duration, at the active format's size, in
/// `videoSettings`' pixel format (the format's own by default). With the connection's
/// `isCameraIntrinsicMatrixDeliveryEnabled`, each buffer carries
/// `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix` (spec §1.5 [D]).
open class AVCaptureVideoDataOutput: AVCaptureOutput, @unchecked Sendable {
    private let lock = NSLock()
    private weak var delegateObject: AnyObject?
    private var queue: DispatchQueue?
    private var settings: [String: Any]?
    /// The synchronizer that owns delivery while its delegate is set (spec §8 [D]).
    weak var synchronizer: AVCaptureDataOutputSynchronizer?

    /// Drop frames that arrive while the delegate is still busy (default true).
    public var alwaysDiscardsLateVideoFrames: Bool {
        get { lock.withLock { discardsLate } }
        set { lock.withLock { discardsLate = newValue } }
    }
    private var discardsLate = true

    public override init() { super.init() }

    /// Whether the output sizes its buffers itself (default true). It may then deliver them preview-sized; on the
    /// emulated devices it never does, as every format's video dimensions are already those a phone streams at
    /// (the photo preset's among them), so `deliversPreviewSizedOutputBuffers` reads false (spec §15.1).
    public var automaticallyConfiguresOutputBufferDimensions: Bool {
        get { lock.withLock { automaticDimensions } }
        set { lock.withLock { automaticDimensions = newValue } }
    }
    private var automaticDimensions = true

    /// Whether the buffers are preview-sized (`previewDimensions(of:)`) rather than the active format's size. It
    /// may be set only while `automaticallyConfiguresOutputBufferDimensions` is false; set before that, it changes
    /// nothing (spec §15.1).
    public var deliversPreviewSizedOutputBuffers: Bool {
        get { lock.withLock { !automaticDimensions && previewSized } }
        set {
            let applied = lock.withLock { () -> Bool in
                guard !automaticDimensions else { return false }
                previewSized = newValue
                return true
            }
            if !applied {
                Emulation.shared.record(
                    TraceEntry(
                        section: "§15.1", rule: nil, outcome: .decided,
                        sentence: "deliversPreviewSizedOutputBuffers was set while the output configures its buffer "
                            + "dimensions automatically, and changed nothing"))
            }
        }
    }
    private var previewSized = false

    /// Whether frames keep their dynamic HDR metadata as a pixel-buffer attachment, for an asset writer recording
    /// HDR (iOS 26; default false). The emulated frames are standard dynamic range (a 10-bit format holds the same
    /// picture), so there is no such metadata to keep either way (spec §15.1).
    public var preservesDynamicHDRMetadata: Bool {
        get { lock.withLock { keepsHDRMetadata } }
        set { lock.withLock { keepsHDRMetadata = newValue } }
    }
    private var keepsHDRMetadata = false

    /// Whether the output warns the cellular radio of a network request to come, as an app reading a URL from a
    /// code asks (iOS 26; default false). The emulated device has no radio to prepare: frames come the same either
    /// way (spec §15.1).
    public var preparesCellularRadioForNetworkConnection: Bool {
        get { lock.withLock { preparesRadio } }
        set { lock.withLock { preparesRadio = newValue } }
    }
    private var preparesRadio = false

    /// How large a preview-sized buffer is: the frame scaled down, its aspect kept, until its shorter side is at
    /// most 1080 pixels (our choice: about the width of the iPhones' screens, 1170–1179 pixels), each side even.
    static func previewDimensions(of frame: CMVideoDimensions) -> CMVideoDimensions {
        let short = Double(min(frame.width, frame.height))
        guard short > 1080 else { return frame }
        let scale = 1080 / short
        func side(_ n: Int32) -> Int32 { max(2, Int32((Double(n) * scale / 2).rounded()) * 2) }
        return CMVideoDimensions(width: side(frame.width), height: side(frame.height))
    }

    /// The size of the buffers delivered for frames of the active format's `frame` size, before the connection's
    /// rotation.
    func bufferDimensions(of frame: CMVideoDimensions) -> CMVideoDimensions {
        deliversPreviewSizedOutputBuffers ? Self.previewDimensions(of: frame) : frame
    }

    /// Sets the delegate and its serial queue; a delegate without a queue raises (spec §8 [D]).
    open func setSampleBufferDelegate(
        _ sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate?, queue sampleBufferCallbackQueue: DispatchQueue?
    ) {
        if sampleBufferDelegate != nil, sampleBufferCallbackQueue == nil {
            Violation.delegateWithoutQueue("-[AVCaptureVideoDataOutput setSampleBufferDelegate:queue:]").raise()
        }
        lock.withLock {
            delegateObject = sampleBufferDelegate
            queue = sampleBufferCallbackQueue
        }
    }

    /// The delegate, held weakly.
    public var sampleBufferDelegate: AVCaptureVideoDataOutputSampleBufferDelegate? {
        lock.withLock { delegateObject as? AVCaptureVideoDataOutputSampleBufferDelegate }
    }

    /// The delegate's queue.
    public var sampleBufferCallbackQueue: DispatchQueue? { lock.withLock { queue } }

    var target: (delegate: AVCaptureVideoDataOutputSampleBufferDelegate, queue: DispatchQueue)? {
        lock.withLock {
            guard let d = delegateObject as? AVCaptureVideoDataOutputSampleBufferDelegate, let queue else { return nil }
            return (d, queue)
        }
    }

    /// Pixel formats frames may be delivered in, the most efficient first: the 8-bit ones, and while the connected
    /// camera's active format is a 10-bit one, its 10-bit Y'CbCr in both ranges first (spec §1.5).
    public var availableVideoPixelFormatTypes: [OSType] {
        let eightBit = [
            kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr8BiPlanarFullRange,
            kCVPixelFormatType_32BGRA,
        ]
        guard let device = connections.first?.deviceInput?.device,
            YCbCrCoding.of(device.activeFormat.formatDescription.mediaSubType.rawValue)?.bits == 10
        else { return eightBit }
        return [kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange, kCVPixelFormatType_420YpCbCr10BiPlanarFullRange]
            + eightBit
    }

    /// Output settings: `kCVPixelBufferPixelFormatTypeKey` picks the pixel format. Nil or empty
    /// means the device format's own. An unavailable format raises.
    public var videoSettings: [String: Any]! {
        get {
            var current = lock.withLock { settings } ?? [kCVPixelBufferPixelFormatTypeKey as String: Int(defaultPixelFormat)]
            // Connected to a camera, the settings also give the buffers' exact size (spec §15.1 [D]).
            if let connection = connections.first, let device = connection.deviceInput?.device {
                let size = connection.videoTransform.dimensions(bufferDimensions(of: device.activeFormat.dimensions))
                current[kCVPixelBufferWidthKey as String] = Int(size.width)
                current[kCVPixelBufferHeightKey as String] = Int(size.height)
            }
            return current
        }
        set {
            if let format = Self.pixelFormat(in: newValue), !availableVideoPixelFormatTypes.contains(format) {
                Violation.invalidArgument(
                    "-[AVCaptureVideoDataOutput setVideoSettings:]",
                    "Unsupported pixel format type - use -availableVideoPixelFormatTypes",
                    CaptureRule("§1.5", .documented, "videoSettings pixel formats come from availableVideoPixelFormatTypes")
                ).raise()
            }
            lock.withLock { settings = newValue }
        }
    }

    static func pixelFormat(in settings: [String: Any]?) -> OSType? {
        let v = settings?[kCVPixelBufferPixelFormatTypeKey as String]
        if let v = v as? OSType { return v }
        if let v = v as? Int { return OSType(truncatingIfNeeded: v) }
        if let v = v as? NSNumber { return v.uint32Value }
        return nil
    }

    private var defaultPixelFormat: OSType {
        connections.first?.deviceInput?.device.activeFormat.formatDescription.mediaSubType.rawValue
            ?? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
    }

    /// The pixel format frames are delivered in now.
    var deliveredPixelFormat: OSType {
        let format = Self.pixelFormat(in: lock.withLock { settings }) ?? defaultPixelFormat
        return availableVideoPixelFormatTypes.contains(format) ? format : kCVPixelFormatType_420YpCbCr8BiPlanarFullRange
    }

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        if let session { StreamEngine.shared.register(session) }
    }
}
