import Foundation
import ObscuraAV
import Synchronization

/// The abstract base of Vision's requests (`VNRequest`): what to look for, and, once performed, what was found.
///
/// A request is performed by a request handler's `perform(_:)`, synchronously on the caller's thread, as Apple's
/// are. Performing sets `results` (or leaves them nil when the request failed) and then calls the completion
/// handler, on the same thread, before `perform(_:)` returns. A request holds no lock: as with Apple's, performing
/// one request on two threads at once is not supported.
open class VNRequest: NSObject, @unchecked Sendable {
    /// Called after the request has been performed, with the request or the error that stopped it.
    public let completionHandler: VNRequestCompletionHandler?
    /// What the last perform found: nil before a perform and after a failed one.
    public internal(set) var results: [VNObservation]?
    /// The revision of the algorithm the request runs; by default the newest the class supports.
    public var revision: Int
    /// A hint that the request may run slowly in the background; the result is the same either way.
    public var preferBackgroundProcessing = false

    /// A request with no completion handler.
    public override convenience init() { self.init(completionHandler: nil) }

    /// A request that calls `completionHandler` once performed.
    public init(completionHandler: VNRequestCompletionHandler?) {
        self.completionHandler = completionHandler
        revision = 0
        super.init()
        revision = Self.defaultRevision
    }

    /// The revisions the request class knows.
    open class var supportedRevisions: IndexSet { IndexSet() }
    /// The revision a new request runs.
    open class var defaultRevision: Int { supportedRevisions.last ?? 0 }
    /// The newest revision the request class knows.
    open class var currentRevision: Int { supportedRevisions.last ?? 0 }

    /// Asks a request that is being performed, on another thread, to stop. A request that stops fails with
    /// `VNErrorCode.requestCancelled`, its results nil; text recognition stops between words, and the other requests
    /// here finish too quickly to stop (spec §22.4 rule 17).
    public func cancel() { cancellation.withLock { $0 = true } }

    /// Whether `cancel()` was called since the request's perform began.
    var isCancelled: Bool { cancellation.withLock { $0 } }

    /// Forgets an earlier `cancel()`, as a perform begins.
    func clearCancellation() { cancellation.withLock { $0 = false } }

    private let cancellation = Mutex(false)

    /// The observations the request makes of an image; overridden by each concrete request.
    func observations(in image: VisionImage) throws -> [VNObservation] {
        throw VisionFailure.unsupportedRequest(String(describing: type(of: self)))
    }

    /// The observations the request makes of an image that is one of a sequence whose trackers `trackers` holds;
    /// the requests that track override it, the others look at the image alone.
    func observations(in image: VisionImage, trackers: TrackerStore) throws -> [VNObservation] {
        try observations(in: image)
    }

    /// Checks the revision, then finds the observations.
    final func perform(on image: VisionImage, trackers: TrackerStore) throws -> [VNObservation] {
        clearCancellation()
        guard Self.supportedRevisions.contains(revision) else {
            throw VisionFailure.unsupportedRevision(revision, of: String(describing: type(of: self)))
        }
        return try observations(in: image, trackers: trackers)
    }
}

/// The abstract base of requests that look at part of an image (`VNImageBasedRequest`).
open class VNImageBasedRequest: VNRequest, @unchecked Sendable {
    /// The part of the image the request looks at, normalised to the upright image, origin at the bottom left; by
    /// default the whole image. The request's observations are normalised to this region, not to the whole image
    /// (`VNImageRectForNormalizedRectUsingRegionOfInterest` turns them into the image's pixels). A region outside
    /// the unit square makes the request fail with `VNErrorCode.invalidArgument`, as Apple documents that it fails.
    public var regionOfInterest = VNNormalizedIdentityRect
}
