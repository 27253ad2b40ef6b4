import CaptureRules
import Scenes
import Foundation

/// Receives detected objects (`AVCaptureMetadataOutputObjectsDelegate`); optional.
public protocol AVCaptureMetadataOutputObjectsDelegate: NSObjectProtocol {
    func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
        from connection: AVCaptureConnection)
}

extension AVCaptureMetadataOutputObjectsDelegate {
    public func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
        from connection: AVCaptureConnection
    ) {}
}

/// Delivers faces, objects and barcodes found in the video. Faces are found in the frame the camera
/// captured by the face detector Vision runs (`FaceReader`), salient objects by the objectness map of Vision's
/// saliency request (`SalientObjectReader`), and barcodes are read from it with zxing-cpp where the scene
/// prints them (spec §16 [I]), so what the camera imaged decides what is reported. Bodies come from the scene's
/// annotations: the parts the scene marks as its person's are one human body [I]. Detection
/// lags: objects of a frame arrive `latencyFrames` frames later (late by up to a few frames; our figure
/// is 2, within Apple's "up to 4"). Only the types in `metadataObjectTypes` are delivered, and an empty
/// result is not delivered.
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

    /// The types this output can detect once connected to a camera: faces, human bodies, salient objects and
    /// the machine-readable codes (spec §16). Faces are found with OpenCV's face cascade and codes read with
    /// zxing-cpp; where the cascade or the library is missing, its types are not offered, and asking for one
    /// raises as any unavailable type does.
    public var availableMetadataObjectTypes: [AVMetadataObject.ObjectType] {
        guard !connections.isEmpty else { return [] }
        return (FaceReader.isAvailable ? [.face] : []) + [.humanBody, .salientObject]
            + (CodeSymbol.isAvailable ? AVMetadataObject.ObjectType.machineReadableCodes : [])
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

    /// The objects of one frame, filtered by the requested types and the rect of interest: faces, salient
    /// objects and codes as found in `reader`, the frame the camera captured (see `faceObjects`,
    /// `salientObjects` and `codeObjects`), bodies from `picture`'s annotations.
    func objects(
        in picture: StreamRendering.VideoPicture?, reader: () -> StreamRendering.VideoPicture?, frame: Int,
        time: CMTime, duration: CMTime
    ) -> [AVMetadataObject] {
        let wanted = lock.withLock { types }
        guard let picture, !wanted.isEmpty else { return [] }
        var out: [AVMetadataObject] = []
        if wanted.contains(.face) {
            out += faceObjects(people: picture.objects.filter(\.isPerson), reader: reader, frame: frame)
                .map { face in
                    AVMetadataFaceObject(
                        faceID: face.id, time: time, duration: duration, bounds: face.bounds, name: face.name,
                        roll: face.roll)
                }
        }
        if wanted.contains(.salientObject) {
            out += salientObjects(named: picture.objects, reader: reader, frame: frame).map { object in
                AVMetadataSalientObject(
                    objectID: object.id, time: time, duration: duration, bounds: object.bounds, name: object.name)
            }
        }
        // The scene's person is one body: the parts it marks (skin, hair, clothes, …) that are in view, together.
        let parts = picture.objects.filter { $0.isPerson }
        if wanted.contains(.humanBody), let first = parts.first {
            let bounds = parts.dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
            if bounds.intersects(rectOfInterest) {
                let body = AVMetadataHumanBodyObject(
                    bodyID: 1, time: time, duration: duration, bounds: bounds, name: "person")
                out.append(body)
            }
        }
        out += codeObjects(
            printed: picture.codes, reader: reader, frame: frame, wanted: wanted, time: time, duration: duration)
        return out
    }

    /// How many frames pass between two reads of the captured frame: a reader runs at a fraction of the
    /// frame rate, and between reads the last codes, faces and salient objects found stand (spec §16).
    static let readInterval = 3
    private var lastRead: (frame: Int, region: CGRect, types: [AVMetadataObject.ObjectType], codes: [ReadCode])?
    private var faceReads = TrackedReads(interval: readInterval)
    /// The roll of each face of the last read, by its identifier (nil where its eyes were not both found).
    private var faceRolls: [Int: Double] = [:]
    private var salientReads = TrackedReads(interval: readInterval)

    /// The regions a reader finds inside `rectOfInterest` of the captured frame, each with the identifier it keeps
    /// while in view: read anew when `reads` says its last findings no longer stand.
    private func tracked(
        _ reads: ReferenceWritableKeyPath<AVCaptureMetadataOutput, TrackedReads>, frame: Int,
        find: (CGRect) -> [CGRect]
    ) -> [(id: Int, bounds: CGRect)] {
        let region = rectOfInterest
        if let standing = lock.withLock({
            self[keyPath: reads].stands(frame: frame, region: region) ? self[keyPath: reads].tracks.regions : nil
        }) {
            return standing
        }
        let found = find(region)
        return lock.withLock { self[keyPath: reads].update(frame: frame, region: region, found: found) }
    }

    /// The salient objects found inside `rectOfInterest` of the captured frame (`SalientObjectReader`), each with
    /// the identifier it keeps while in view and the name of the scene object it overlaps most ("" when none).
    private func salientObjects(
        named objects: [(name: String, bounds: CGRect, isPerson: Bool)], reader: () -> StreamRendering.VideoPicture?,
        frame: Int
    ) -> [(id: Int, bounds: CGRect, name: String)] {
        let found = tracked(\.salientReads, frame: frame) { region in
            reader().map { $0.reads.salientObjects(in: $0.rgb, region: region) } ?? []
        }
        return found.map { object in
            let scored = objects.map { (name: $0.name, overlap: RegionTracks.overlap($0.bounds, object.bounds)) }
            let best = scored.max { $0.overlap < $1.overlap }
            return (object.id, object.bounds, best.flatMap { $0.overlap > 0 ? $0.name : nil } ?? "")
        }
    }

    /// The faces found inside `rectOfInterest` of the captured frame (`FaceReader`), each with the identifier
    /// it keeps while in view, its roll as that read measured it, and the name of the person's part it shows: of the
    /// parts whose bounds hold its centre, the one whose centre is nearest ("" when none holds it).
    private func faceObjects(
        people: [(name: String, bounds: CGRect, isPerson: Bool)], reader: () -> StreamRendering.VideoPicture?,
        frame: Int
    ) -> [(id: Int, bounds: CGRect, name: String, roll: Double?)] {
        var fresh: [FaceReader.Found]?
        let faces = tracked(\.faceReads, frame: frame) { region in
            let found = reader().map { $0.reads.faces(in: $0.rgb, region: region) } ?? []
            fresh = found
            return found.map(\.bounds)
        }
        // A new read's faces come back in the order found; between reads the last rolls stand, as the boxes do.
        let rolls = lock.withLock {
            if let fresh {
                faceRolls = [:]
                for (face, found) in zip(faces, fresh) { faceRolls[face.id] = found.roll }
            }
            return faceRolls
        }
        return faces.map { face in
            let centre = CGPoint(x: face.bounds.midX, y: face.bounds.midY)
            func distance(_ r: CGRect) -> Double { hypot(Double(r.midX - centre.x), Double(r.midY - centre.y)) }
            let part = people.filter { $0.bounds.contains(centre) }.min { distance($0.bounds) < distance($1.bounds) }
            return (face.id, face.bounds, part?.name ?? "", rolls[face.id])
        }
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .metadataObject }

    /// The wanted codes zxing-cpp reads inside `rectOfInterest` of the captured frame (spec §16):
    /// a code is reported only where its symbol, as the camera imaged it, can be decoded. Corners are where
    /// it was read, in the order printed; bounds are the corners' axis-aligned hull.
    private func codeObjects(
        printed: [String: PrintedCode], reader: () -> StreamRendering.VideoPicture?, frame: Int,
        wanted: [AVMetadataObject.ObjectType], time: CMTime, duration: CMTime
    ) -> [AVMetadataMachineReadableCodeObject] {
        let codeTypes = wanted.filter { AVMetadataObject.ObjectType.machineReadableCodes.contains($0) }
        guard !codeTypes.isEmpty else { return [] }
        let region = rectOfInterest
        let codes: [ReadCode]
        if let last = lock.withLock({ lastRead }), last.region == region, last.types == codeTypes,
            frame >= last.frame, frame - last.frame < Self.readInterval
        {
            codes = last.codes
        } else {
            let picture = reader()
            codes = picture.map { $0.reads.codes(in: $0.rgb, region: region, types: codeTypes) } ?? []
            lock.withLock { lastRead = (frame, region, codeTypes, codes) }
        }
        return codes.map { code in
            AVMetadataMachineReadableCodeObject(
                type: code.type, time: time, duration: duration, bounds: Self.hull(code.corners),
                corners: code.corners, stringValue: code.text, name: Self.printer(of: code, among: printed))
        }
    }

    /// The smallest axis-aligned rectangle holding `points`.
    private static func hull(_ points: [CGPoint]) -> CGRect {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let (minX, minY) = (xs.min() ?? 0, ys.min() ?? 0)
        return CGRect(x: minX, y: minY, width: (xs.max() ?? minX) - minX, height: (ys.max() ?? minY) - minY)
    }

    /// The scene object whose printed code was read: the one of the same type whose imaged outline
    /// holds the read code's centre; "" when none does.
    private static func printer(of code: ReadCode, among printed: [String: PrintedCode]) -> String {
        let centre = CGPoint(
            x: code.corners.map(\.x).reduce(0, +) / 4, y: code.corners.map(\.y).reduce(0, +) / 4)
        let hit = printed.sorted { $0.key < $1.key }.first { _, p in
            let type = AVMetadataObject.ObjectType(p.code.symbology)
            let sameType = type == code.type || (type == .itf14 && code.type == .interleaved2of5)
            return sameType && hull(p.corners).insetBy(dx: -1e-9, dy: -1e-9).contains(centre)
        }
        return hit?.key ?? ""
    }

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        if let session { StreamEngine.shared.register(session) }
    }
}
