import Foundation
import ObscuraAV

/// What a request found (`VNObservation`): the abstract base of every result, with an identity and a confidence.
open class VNObservation: NSObject, @unchecked Sendable {
    /// A unique identifier of this observation.
    public let uuid: UUID
    /// How sure the request is of the observation, 0…1.
    public let confidence: VNConfidence
    /// The revision of the request that made the observation.
    public let requestRevision: Int

    init(requestRevision: Int, confidence: VNConfidence, uuid: UUID = UUID()) {
        self.uuid = uuid
        self.confidence = confidence
        self.requestRevision = requestRevision
        super.init()
    }

    /// An observation of revision 1 with full confidence, as an app makes one to seed a request.
    public override convenience init() { self.init(requestRevision: 1, confidence: 1) }
}

/// An observation with a position in the image (`VNDetectedObjectObservation`).
open class VNDetectedObjectObservation: VNObservation, @unchecked Sendable {
    /// The region the observation covers, normalised to the processed image (or to the request's region of
    /// interest), origin at the bottom left.
    public let boundingBox: CGRect

    init(requestRevision: Int, boundingBox: CGRect, confidence: VNConfidence) {
        self.boundingBox = boundingBox
        super.init(requestRevision: requestRevision, confidence: confidence)
    }

    /// An observation that continues another's identity: a tracker's results share its `uuid`.
    init(uuid: UUID, requestRevision: Int, boundingBox: CGRect, confidence: VNConfidence) {
        self.boundingBox = boundingBox
        super.init(requestRevision: requestRevision, confidence: confidence, uuid: uuid)
    }

    /// An observation of a region (normalised, origin at the bottom left), with full confidence.
    public convenience init(boundingBox: CGRect) {
        self.init(requestRevision: 1, boundingBox: boundingBox, confidence: 1)
    }

    /// An observation of a region made by a given revision of a request.
    public convenience init(requestRevision: Int, boundingBox: CGRect) {
        self.init(requestRevision: requestRevision, boundingBox: boundingBox, confidence: 1)
    }
}

/// The four corners of a rectangle found in an image (`VNRectangleObservation`).
///
/// Corners are normalised to the processed image (or to the request's region of interest): x from 0 at the left
/// edge to 1 at the right, y from 0 at the bottom edge to 1 at the top. "Top left" and the others name the corners
/// as they appear in the upright image, going clockwise from the one nearest the top-left. A rectangle seen in
/// perspective is a general quadrilateral, and its corners may lie slightly outside the image. `boundingBox` is
/// the smallest axis-aligned rectangle holding the four corners.
open class VNRectangleObservation: VNDetectedObjectObservation, @unchecked Sendable {
    /// The upper-left corner.
    public let topLeft: CGPoint
    /// The upper-right corner.
    public let topRight: CGPoint
    /// The lower-right corner.
    public let bottomRight: CGPoint
    /// The lower-left corner.
    public let bottomLeft: CGPoint

    init(
        requestRevision: Int, topLeft: CGPoint, topRight: CGPoint, bottomRight: CGPoint, bottomLeft: CGPoint,
        confidence: VNConfidence, uuid: UUID = UUID()
    ) {
        self.topLeft = topLeft
        self.topRight = topRight
        self.bottomRight = bottomRight
        self.bottomLeft = bottomLeft
        let xs = [topLeft.x, topRight.x, bottomRight.x, bottomLeft.x]
        let ys = [topLeft.y, topRight.y, bottomRight.y, bottomLeft.y]
        let box = CGRect(
            x: xs.min() ?? 0, y: ys.min() ?? 0, width: (xs.max() ?? 0) - (xs.min() ?? 0),
            height: (ys.max() ?? 0) - (ys.min() ?? 0))
        super.init(uuid: uuid, requestRevision: requestRevision, boundingBox: box, confidence: confidence)
    }

    /// A rectangle observation from its corners, clockwise from the top left (normalised, origin at the bottom left),
    /// with full confidence.
    public convenience init(
        requestRevision: Int, topLeft: CGPoint, topRight: CGPoint, bottomRight: CGPoint, bottomLeft: CGPoint
    ) {
        self.init(
            requestRevision: requestRevision, topLeft: topLeft, topRight: topRight, bottomRight: bottomRight,
            bottomLeft: bottomLeft, confidence: 1)
    }

    /// A rectangle observation from its corners in the older, counter-clockwise argument order.
    @available(*, deprecated, message: "Use init(requestRevision:topLeft:topRight:bottomRight:bottomLeft:)")
    public convenience init(
        requestRevision: Int, topLeft: CGPoint, bottomLeft: CGPoint, bottomRight: CGPoint, topRight: CGPoint
    ) {
        self.init(
            requestRevision: requestRevision, topLeft: topLeft, topRight: topRight, bottomRight: bottomRight,
            bottomLeft: bottomLeft, confidence: 1)
    }
}
