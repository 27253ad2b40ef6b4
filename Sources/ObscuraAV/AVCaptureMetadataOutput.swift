import CaptureRules
import Foundation

/// Receives detected objects (`AVCaptureMetadataOutputObjectsDelegate`); optional.
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection)
}

extension AVCaptureMetadataOutputObjectsDelegate {
    public func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection
    ) {}
}

/// Delivers faces, objects and barcodes found in the video, from the scene's annotations: every
/// named scene object seen in the frame is reported with its bounds, as a barcode when the scene
/// prints a `code` on it (spec §16), as a face when its name says `face` or `head`, otherwise as a
/// salient object [I]. Detection lags: objects of a frame
/// arrive `latencyFrames` frames later (DESIGN.md, Time: late by up to a few frames; our figure
/// is 2, within Apple's "up to 4"). Only the types in `metadataObjectTypes` are delivered,
/// and an empty result is not delivered.
open class AVCaptureMetadataOutput: AVCaptureOutput, @unchecked Sendable {
    /// How many video frames detections lag behind.
    static let latencyFrames = 2

    private let lock = NSLock()
    private weak var delegateObject: AnyObject?
    private var queue: DispatchQueue?
    private var types: [AVMetadataObject.ObjectType] = []
    weak var synchronizer: AVCaptureDataOutputSynchronizer?

    public override init() { super.init() }

    /// Where to look, normalised (default the whole frame).
    public var rectOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)

    /// The types this output can detect once connected to a camera: faces, salient objects and
    /// the machine-readable codes (spec §16 [D]).
    public var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] {
        connections.isEmpty ? [] : [.face, .salientObject] + AVMetadataObject.ObjectType.machineReadableCodes
    }

    /// The types to deliver (default none). A type not available raises.
    public var metadataObjectTypes: [AVMetadataObject.ObjectType]! {
        get { lock.withLock { types } }
        set {
            let wanted = newValue ?? []
            let available = availableMetadataObjectTypes
            if let bad = wanted.first(where: { !available.contains($0) }) {
                Violation.invalidArgument(
                    "-[AVCaptureMetadataOutput setMetadataObjectTypes:]",
                    "Unsupported type found - use -availableMetadataObjectTypes (\(bad.rawValue))",
                    CaptureRule("§8", .observed, "metadataObjectTypes come from availableMetadataObjectTypes")
                ).raise()
            }
            lock.withLock { types = wanted }
        }
    }

    /// Sets the delegate and its serial queue; a delegate without a queue raises.
    open func setMetadataObjectsDelegate(
        _ objectsDelegate: AVCaptureMetadataOutputObjectsDelegate?, queue objectsCallbackQueue: DispatchQueue?
    ) {
        if objectsDelegate != nil, objectsCallbackQueue == nil {
            Violation.delegateWithoutQueue("-[AVCaptureMetadataOutput setMetadataObjectsDelegate:queue:]").raise()
        }
        lock.withLock {
            delegateObject = objectsDelegate
            queue = objectsCallbackQueue
        }
    }

    /// The delegate, held weakly.
    public var metadataObjectsDelegate: AVCaptureMetadataOutputObjectsDelegate? {
        lock.withLock { delegateObject as? AVCaptureMetadataOutputObjectsDelegate }
    }

    /// The delegate's queue.
    public var metadataObjectsCallbackQueue: DispatchQueue? { lock.withLock { queue } }

    var target: (delegate: AVCaptureMetadataOutputObjectsDelegate, queue: DispatchQueue)? {
        lock.withLock {
            guard let d = delegateObject as? AVCaptureMetadataOutputObjectsDelegate, let queue else { return nil }
            return (d, queue)
        }
    }

    /// The objects of one frame, filtered by the requested types and the rect of interest.
    func objects(in picture: StreamRendering.VideoPicture?, time: CMTime, duration: CMTime) -> [AVMetadataObject] {
        let wanted = lock.withLock { types }
        guard let picture, !wanted.isEmpty else { return [] }
        var out: [AVMetadataObject] = []
        for (index, object) in picture.objects.enumerated() where object.bounds.intersects(rectOfInterest) {
            if let printed = picture.codes[object.name] {
                if let code = codeObject(printed, name: object.name, wanted: wanted, time: time, duration: duration) {
                    out.append(code)
                }
                continue
            }
            let name = object.name.lowercased()
            if name.contains("face") || name.contains("head") {
                if wanted.contains(.face) {
                    out.append(
                        AVMetadataFaceObject(
                            faceID: index + 1, time: time, duration: duration, bounds: object.bounds, name: object.name))
                }
            } else if wanted.contains(.salientObject) {
                out.append(
                    AVMetadataObject(
                        type: .salientObject, time: time, duration: duration, bounds: object.bounds, name: object.name))
            }
        }
        return out
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .metadataObject }

    /// A printed code, when its type is wanted and it can be read: all four corners in the frame
    /// and the whole code inside `rectOfInterest` (spec §16 [I]: a reader decodes only codes it
    /// sees whole in the region it scans).
    private func codeObject(
        _ printed: PrintedCode, name: String, wanted: [AVMetadataObject.ObjectType], time: CMTime, duration: CMTime
    ) -> AVMetadataMachineReadableCodeObject? {
        let type = AVMetadataObject.ObjectType(printed.code.symbology)
        guard wanted.contains(type) else { return nil }
        let frame = CGRect(x: 0, y: 0, width: 1, height: 1)
        guard printed.corners.allSatisfy({ frame.contains($0) }) else { return nil }
        let xs = printed.corners.map(\.x)
        let ys = printed.corners.map(\.y)
        let hull = CGRect(
            x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0),
            height: (ys.max() ?? 0) - (ys.min() ?? 0))
        guard rectOfInterest.insetBy(dx: -1e-9, dy: -1e-9).contains(hull) else { return nil }
        return AVMetadataMachineReadableCodeObject(
            type: type, time: time, duration: duration, bounds: hull, corners: printed.corners,
            stringValue: printed.code.value, name: name)
    }

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        if let session { StreamEngine.shared.register(session) }
    }
}
