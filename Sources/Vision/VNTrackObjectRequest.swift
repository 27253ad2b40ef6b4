import Foundation
import Imaging
import ObscuraAV
import Synchronization

/// How a tracking request weighs speed against accuracy (`VNRequestTrackingLevel`).
public enum VNRequestTrackingLevel: UInt, Sendable {
    /// Looks for the object at its size and slightly smaller and larger.
    case accurate = 0
    /// Looks for the object at its size only.
    case fast = 1
}

/// The first revision of the object tracker (`VNTrackObjectRequestRevision1`).
public let VNTrackObjectRequestRevision1 = 1
/// The second revision of the object tracker (`VNTrackObjectRequestRevision2`).
public let VNTrackObjectRequestRevision2 = 2

/// The abstract base of requests that follow something from frame to frame (`VNTrackingRequest`), performed by a
/// `VNSequenceRequestHandler` on each frame in turn (spec §22.6).
///
/// An input observation that no tracker returned (one a detector made, or one the app made) begins a new tracker,
/// which takes the object's appearance from the first frame it is performed on; an observation a tracker returned
/// continues that tracker into the next frame. Trackers belong to the sequence handler, keyed by the observation's
/// `uuid`, which every result of a tracker shares.
open class VNTrackingRequest: VNImageBasedRequest, @unchecked Sendable {
    /// The region to follow: normalised, origin at the bottom left.
    public var inputObservation: VNDetectedObjectObservation
    /// Speed against accuracy; `.accurate` unless set.
    public var trackingLevel: VNRequestTrackingLevel = .accurate
    /// Set on the last frame an app tracks the object in: the tracker ends after that frame.
    public var isLastFrame = false

    init(observation: VNDetectedObjectObservation, completionHandler: VNRequestCompletionHandler?) {
        inputObservation = observation
        super.init(completionHandler: completionHandler)
    }

    /// A tracking request needs an observation to follow; this one follows the whole picture until the app sets one.
    public override init(completionHandler: VNRequestCompletionHandler?) {
        inputObservation = VNDetectedObjectObservation(boundingBox: VNNormalizedIdentityRect)
        super.init(completionHandler: completionHandler)
    }

    override func observations(in image: VisionImage, trackers: TrackerStore) throws -> [VNObservation] {
        let region = try image.region(VNNormalizedIdentityRect, workingSize: Self.workingSize)
        let (w, h) = (Double(region.plane.width), Double(region.plane.height))
        let box = inputObservation.boundingBox
        // The observation's box in the working copy's pixels (top-left origin), and back (spec §22.6 rule 22).
        let pixels = TemplateTracker.Region(
            x: Double(box.minX) * w, y: (1 - Double(box.maxY)) * h, width: Double(box.width) * w,
            height: Double(box.height) * h)
        let id = inputObservation.uuid
        let scales: [Double] = trackingLevel == .accurate ? [1 / 1.05, 1, 1.05] : [1]
        let (found, score) = trackers.advance(id, plane: region.plane, from: pixels, scales: scales)
        if isLastFrame { trackers.end(id) }
        let result = CGRect(
            x: found.x / w, y: 1 - (found.y + found.height) / h, width: found.width / w, height: found.height / h)
        return [
            VNDetectedObjectObservation(uuid: id, requestRevision: revision, boundingBox: result, confidence: score)
        ]
    }

    /// The longest side of the tracker's working copy of each frame.
    static let workingSize = 1280
}

/// Follows an object's bounding box through a sequence of frames (`VNTrackObjectRequest`): a correlation tracker
/// (`TemplateTracker`) on the frames' luma.
open class VNTrackObjectRequest: VNTrackingRequest, @unchecked Sendable {
    /// A request to follow the region of `observation`.
    public init(detectedObjectObservation observation: VNDetectedObjectObservation) {
        super.init(observation: observation, completionHandler: nil)
    }

    /// A request to follow the region of `observation`, calling `completionHandler` once performed.
    public init(
        detectedObjectObservation observation: VNDetectedObjectObservation,
        completionHandler: VNRequestCompletionHandler?
    ) {
        super.init(observation: observation, completionHandler: completionHandler)
    }

    /// The region followed in the last frame: one observation, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNDetectedObjectObservation]? {
        super.results as? [VNDetectedObjectObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet([VNTrackObjectRequestRevision1, VNTrackObjectRequestRevision2])
    }
}

/// The trackers of one sequence, keyed by the `uuid` their results carry.
final class TrackerStore: Sendable {
    private let trackers = Mutex<[UUID: TemplateTracker]>([:])

    /// The region tracker `id` follows, moved into `plane`: a tracker that does not exist yet begins at `region` in
    /// this frame and finds it there, certain of it; one whose region holds nothing to follow reports it with no
    /// confidence.
    func advance(_ id: UUID, plane: PixelPlane<Float>, from region: TemplateTracker.Region, scales: [Double])
        -> (TemplateTracker.Region, Float)
    {
        if var tracker = trackers.withLock({ $0[id] }) {
            let (found, score) = tracker.track(plane, scales: scales)
            trackers.withLock { $0[id] = tracker }
            return (found, score)
        }
        guard let tracker = TemplateTracker(luma: plane, region: region) else { return (region, 0) }
        trackers.withLock { $0[id] = tracker }
        return (region, 1)
    }

    /// Ends tracker `id`.
    func end(_ id: UUID) { _ = trackers.withLock { $0.removeValue(forKey: id) } }
}

/// The first revision of the rectangle tracker (`VNTrackRectangleRequestRevision1`).
public let VNTrackRectangleRequestRevision1 = 1

/// Follows a rectangle's corners through a sequence of frames (`VNTrackRectangleRequest`, spec §22.6 rule 24): in
/// each frame the rectangle request's detector looks around where the rectangle was, and the quadrilateral nearest
/// it is where it now is.
open class VNTrackRectangleRequest: VNTrackingRequest, @unchecked Sendable {
    /// A request to follow the corners of `observation`.
    public init(rectangleObservation observation: VNRectangleObservation) {
        super.init(observation: observation, completionHandler: nil)
    }

    /// A request to follow the corners of `observation`, calling `completionHandler` once performed.
    public init(
        rectangleObservation observation: VNRectangleObservation, completionHandler: VNRequestCompletionHandler?
    ) {
        super.init(observation: observation, completionHandler: completionHandler)
    }

    /// The rectangle followed in the last frame: one observation, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNRectangleObservation]? { super.results as? [VNRectangleObservation] }

    open override class var supportedRevisions: IndexSet { IndexSet([VNTrackRectangleRequestRevision1]) }

    override func observations(in image: VisionImage, trackers: TrackerStore) throws -> [VNObservation] {
        let input = inputObservation
        let box = input.boundingBox
        let corners: [CGPoint] =
            (input as? VNRectangleObservation).map { [$0.topLeft, $0.topRight, $0.bottomRight, $0.bottomLeft] }
            ?? [
                CGPoint(x: box.minX, y: box.maxY), CGPoint(x: box.maxX, y: box.maxY),
                CGPoint(x: box.maxX, y: box.minY), CGPoint(x: box.minX, y: box.minY),
            ]
        // Around where the rectangle was: its box grown by half its size each way, within the picture.
        let around = box.insetBy(dx: -box.width / 2, dy: -box.height / 2).intersection(VNNormalizedIdentityRect)
        var best: (corners: [CGPoint], confidence: Float, distance: Double)?
        if !around.isNull, around.width > 0, around.height > 0 {
            let region = try image.region(around, workingSize: VNDetectRectanglesRequest.workingSize)
            // The rectangle fills about a fifth of the grown region or more, so candidates that much smaller are
            // other things.
            let detector = QuadrilateralDetector(
                maximumWorkingSize: VNDetectRectanglesRequest.workingSize, minimumSize: 0.2, minimumConfidence: 0)
            for candidate in detector.candidates(in: region.plane) {
                let found = candidate.pixelCorners(width: region.plane.width, height: region.plane.height)
                    .map(region.normalised)
                    .map { CGPoint(x: around.minX + $0.x * around.width, y: around.minY + $0.y * around.height) }
                let distance = zip(found, corners).map { Double(hypot($0.x - $1.x, $0.y - $1.y)) }.reduce(0, +)
                if distance < best?.distance ?? .infinity { best = (found, candidate.confidence, distance) }
            }
        }
        // A quadrilateral whose corners moved by more than half the rectangle's size is another one: the rectangle
        // is lost, and reported where it was with no confidence.
        let size = Double(max(box.width, box.height))
        let kept = best.flatMap { $0.distance / 4 <= size / 2 ? $0 : nil }
        let c = kept?.corners ?? corners
        if isLastFrame { trackers.end(input.uuid) }
        return [
            VNRectangleObservation(
                requestRevision: revision, topLeft: c[0], topRight: c[1], bottomRight: c[2], bottomLeft: c[3],
                confidence: kept?.confidence ?? 0, uuid: input.uuid)
        ]
    }
}
