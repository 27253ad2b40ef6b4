import Foundation
import Imaging
import ObscuraAV

/// The first revision of the face landmarks request (`VNDetectFaceLandmarksRequestRevision1`).
public let VNDetectFaceLandmarksRequestRevision1 = 1
/// The second revision of the face landmarks request (`VNDetectFaceLandmarksRequestRevision2`).
public let VNDetectFaceLandmarksRequestRevision2 = 2
/// The third revision of the face landmarks request (`VNDetectFaceLandmarksRequestRevision3`).
public let VNDetectFaceLandmarksRequestRevision3 = 3

/// Which points a landmarks request is asked for (`VNRequestFaceLandmarksConstellation`).
public enum VNRequestFaceLandmarksConstellation: UInt, Sendable {
    case constellationNotDefined = 0
    case constellation65Points = 1
    case constellation76Points = 2
}

/// How a region's points are to be read (`VNPointsClassification`).
public enum VNPointsClassification: Int, Sendable {
    /// Separate points.
    case disconnected = 0
    /// A line through the points in order.
    case openPath = 1
    /// A line through the points in order, back to the first.
    case closedPath = 2
}

/// A request that starts from faces found earlier (`VNFaceObservationAccepting`).
public protocol VNFaceObservationAccepting: AnyObject {
    /// The faces to work on; when nil the request finds the faces itself.
    var inputFaceObservations: [VNFaceObservation]? { get set }
}

/// Finds the landmarks of faces (`VNDetectFaceLandmarksRequest`): one `VNFaceObservation` per face, whose
/// `landmarks` hold the outline of the jaw, the brows, the nose, the eyes, the pupils and the lips (spec §22.11
/// rule 38).
///
/// The faces are the `inputFaceObservations` where the app gives them, else those the face rectangles request finds.
/// The landmarks are the 68 points of Kazemi and Sullivan's regression trees (`FaceLandmarker`) with the model Debian's
/// `libdlib-data` package installs, placed in each face's box on the same luma the face detector reads; where the
/// model is missing, performing the request fails with `VNErrorCode.unsupportedRequest`, naming the package.
open class VNDetectFaceLandmarksRequest: VNImageBasedRequest, VNFaceObservationAccepting, @unchecked Sendable {
    /// The faces the last perform found, each with its landmarks, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNFaceObservation]? { super.results as? [VNFaceObservation] }

    /// The faces to place landmarks in; nil (the default) finds them first.
    public var inputFaceObservations: [VNFaceObservation]?

    /// The constellation asked for. The points follow the 68-point layout whatever it says (spec §22.11 rule 38).
    public var constellation: VNRequestFaceLandmarksConstellation = .constellationNotDefined

    open override class var supportedRevisions: IndexSet {
        IndexSet([
            VNDetectFaceLandmarksRequestRevision1, VNDetectFaceLandmarksRequestRevision2,
            VNDetectFaceLandmarksRequestRevision3,
        ])
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        let region = try image.region(regionOfInterest, workingSize: VNDetectFaceRectanglesRequest.workingSize)
        guard let landmarker = FaceLandmarker.shared else { throw VisionFailure.landmarkModelMissing() }
        let faces: [VNFaceObservation]
        if let given = inputFaceObservations {
            faces = given
        } else {
            let finder = VNDetectFaceRectanglesRequest()
            finder.regionOfInterest = regionOfInterest
            guard let found = try finder.observations(in: image) as? [VNFaceObservation] else { return [] }
            faces = found
        }
        let scale = Double(region.factor)
        let (w, h) = (Double(region.width), Double(region.height))
        return faces.map { face in
            // The face's box in the working plane's pixels (top-left origin).
            let box = face.boundingBox
            let inPlane = FaceDetector.Face(
                x: Double(box.minX) * w / scale, y: (1 - Double(box.maxY)) * h / scale,
                width: Double(box.width) * w / scale, height: Double(box.height) * h / scale, windows: 0)
            let points = landmarker.landmarks(in: region.plane, face: inPlane).map { p in
                // Normalised to the face's box, origin at its bottom left.
                CGPoint(
                    x: (p.x - inPlane.x) / max(inPlane.width, 1e-9),
                    y: 1 - (p.y - inPlane.y) / max(inPlane.height, 1e-9))
            }
            return VNFaceObservation(
                requestRevision: revision, boundingBox: box, confidence: face.confidence, roll: face.roll,
                yaw: face.yaw, pitch: face.pitch, landmarks: VNFaceLandmarks2D(points: points, faceBox: box))
        }
    }
}

/// A face's landmarks (`VNFaceLandmarks2D`), normalised to the face's bounding box with the origin at its bottom left.
///
/// The regions follow the 68-point layout of `FaceLandmarker`, left and right as the upright picture shows them (spec
/// §22.11 rule 38): the jaw's 17 points, five for each brow, four for the bridge of the nose and five for its base, six
/// for each eye, twelve for the outer lips and eight for the inner ones; each pupil is the mean of its eye's points,
/// and the median line runs down the nose, through the middle of the lips to the chin.
open class VNFaceLandmarks2D: NSObject, @unchecked Sendable {
    /// How sure the request is of the landmarks, 0…1 (1: the regression trees give no measure of their own).
    public let confidence: VNConfidence = 1
    let points: [CGPoint]
    let faceBox: CGRect

    init(points: [CGPoint], faceBox: CGRect) {
        (self.points, self.faceBox) = (points, faceBox)
        super.init()
    }

    private func region(_ indices: some Sequence<Int>, _ kind: VNPointsClassification) -> VNFaceLandmarkRegion2D {
        VNFaceLandmarkRegion2D(points: indices.map { points[$0] }, classification: kind, faceBox: faceBox)
    }

    private func pupil(_ eye: Range<Int>) -> VNFaceLandmarkRegion2D {
        let sum = eye.reduce(CGPoint.zero) { CGPoint(x: $0.x + points[$1].x, y: $0.y + points[$1].y) }
        let n = CGFloat(eye.count)
        return VNFaceLandmarkRegion2D(
            points: [CGPoint(x: sum.x / n, y: sum.y / n)], classification: .disconnected, faceBox: faceBox)
    }

    /// Every landmark point.
    public var allPoints: VNFaceLandmarkRegion2D? { region(0..<points.count, .disconnected) }
    /// The jaw's outline, from the cheek on the picture's left over the chin to the other cheek.
    public var faceContour: VNFaceLandmarkRegion2D? { region(0...16, .openPath) }
    /// The brow on the picture's left.
    public var leftEyebrow: VNFaceLandmarkRegion2D? { region(17...21, .openPath) }
    /// The brow on the picture's right.
    public var rightEyebrow: VNFaceLandmarkRegion2D? { region(22...26, .openPath) }
    /// The bridge of the nose, from between the eyes to its tip.
    public var noseCrest: VNFaceLandmarkRegion2D? { region(27...30, .openPath) }
    /// The base of the nose, from one nostril to the other.
    public var nose: VNFaceLandmarkRegion2D? { region(31...35, .openPath) }
    /// The eye on the picture's left.
    public var leftEye: VNFaceLandmarkRegion2D? { region(36...41, .closedPath) }
    /// The eye on the picture's right.
    public var rightEye: VNFaceLandmarkRegion2D? { region(42...47, .closedPath) }
    /// The outline of the lips.
    public var outerLips: VNFaceLandmarkRegion2D? { region(48...59, .closedPath) }
    /// The gap between the lips.
    public var innerLips: VNFaceLandmarkRegion2D? { region(60...67, .closedPath) }
    /// The middle of the eye on the picture's left.
    public var leftPupil: VNFaceLandmarkRegion2D? { pupil(36..<42) }
    /// The middle of the eye on the picture's right.
    public var rightPupil: VNFaceLandmarkRegion2D? { pupil(42..<48) }
    /// The face's middle, from between the eyes down the nose and through the lips to the chin.
    public var medianLine: VNFaceLandmarkRegion2D? { region([27, 28, 29, 30, 33, 51, 62, 66, 57, 8], .openPath) }
}

/// The points of one facial feature (`VNFaceLandmarkRegion2D`).
open class VNFaceLandmarkRegion2D: NSObject, @unchecked Sendable {
    /// The points, normalised to the face's bounding box with the origin at its bottom left.
    public let normalizedPoints: [CGPoint]
    /// How the points are to be read.
    public let pointsClassification: VNPointsClassification
    /// Per point, how far off it may be; nil, as the regression trees give no such measure.
    public let precisionEstimatesPerPoint: [NSNumber]? = nil
    let faceBox: CGRect

    init(points: [CGPoint], classification: VNPointsClassification, faceBox: CGRect) {
        (normalizedPoints, pointsClassification, self.faceBox) = (points, classification, faceBox)
        super.init()
    }

    /// How many points the region has.
    public var pointCount: Int { normalizedPoints.count }

    /// The points in an image of `imageSize` whose normalised coordinates the face's bounding box is in, origin at
    /// the bottom left.
    public func pointsInImage(imageSize: CGSize) -> [CGPoint] {
        normalizedPoints.map {
            VNImagePointForFaceLandmarkPoint(
                vector_float2(Float($0.x), Float($0.y)), faceBox, Int(imageSize.width), Int(imageSize.height))
        }
    }
}

/// A landmark point normalised to a face's bounding box (origin at its bottom left) in an image's pixels
/// (`VNImagePointForFaceLandmarkPoint`), origin at the bottom left.
public func VNImagePointForFaceLandmarkPoint(
    _ faceLandmarkPoint: vector_float2, _ faceBoundingBox: CGRect, _ imageWidth: Int, _ imageHeight: Int
) -> CGPoint {
    let x = faceBoundingBox.minX + CGFloat(faceLandmarkPoint.x) * faceBoundingBox.width
    let y = faceBoundingBox.minY + CGFloat(faceLandmarkPoint.y) * faceBoundingBox.height
    return CGPoint(x: x * CGFloat(imageWidth), y: y * CGFloat(imageHeight))
}
