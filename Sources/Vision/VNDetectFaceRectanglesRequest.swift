import Foundation
import Imaging
import ObscuraAV

/// The first revision of the face detector (`VNDetectFaceRectanglesRequestRevision1`).
public let VNDetectFaceRectanglesRequestRevision1 = 1
/// The second revision of the face detector (`VNDetectFaceRectanglesRequestRevision2`).
public let VNDetectFaceRectanglesRequestRevision2 = 2
/// The third revision of the face detector (`VNDetectFaceRectanglesRequestRevision3`).
public let VNDetectFaceRectanglesRequestRevision3 = 3

/// Finds faces in an image (`VNDetectFaceRectanglesRequest`): one `VNFaceObservation` per face, with its bounding
/// box (spec §22.5).
///
/// The detector is a Viola–Jones cascade (`FaceDetector`) with the frontal-face cascade of Lienhart and Maydt that
/// Debian's `opencv-data` package installs, read when a request first needs it, run on the luma of the upright image
/// (or of its region of interest) box-averaged to at most 640 pixels on its longer side. So what a face looks like in
/// the pixels decides whether it is found: upright, frontal faces at least a thirtieth of the picture's longer side
/// across are; turned, tilted, small or badly lit ones may not be. Where the cascade file is missing, performing the
/// request fails with `VNErrorCode.unsupportedRequest`, naming the package to install. Every revision runs the same
/// detector; each measures a face's roll from its eyes where both are found, and none its yaw or pitch, which stay
/// nil.
open class VNDetectFaceRectanglesRequest: VNImageBasedRequest, @unchecked Sendable {
    /// The faces the last perform found, most certain first, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNFaceObservation]? { super.results as? [VNFaceObservation] }

    /// The longest side of the detector's working copy.
    static let workingSize = FaceDetector.workingSize

    open override class var supportedRevisions: IndexSet {
        IndexSet([
            VNDetectFaceRectanglesRequestRevision1, VNDetectFaceRectanglesRequestRevision2,
            VNDetectFaceRectanglesRequestRevision3,
        ])
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        // The region is checked first, so a bad one fails the same way with or without the cascade (spec §22.1
        // rule 4).
        let region = try image.region(regionOfInterest, workingSize: Self.workingSize)
        guard let detector = FaceDetector.frontal else { throw VisionFailure.faceCascadeMissing() }
        let scale = Double(region.factor)
        return detector.faces(in: region.plane).map { face in
            // Normalised to the region, origin at the bottom left (spec §22.5 rule 19).
            let box = CGRect(
                x: face.x * scale / Double(region.width),
                y: 1 - (face.y + face.height) * scale / Double(region.height),
                width: face.width * scale / Double(region.width), height: face.height * scale / Double(region.height))
            return VNFaceObservation(
                requestRevision: revision, boundingBox: box, confidence: face.confidence,
                roll: Self.roll(of: face, in: region.plane).map { NSNumber(value: $0) }, yaw: nil, pitch: nil)
        }
    }
}

extension VNDetectFaceRectanglesRequest {
    /// The face's roll, radians counterclockwise in the upright picture: the slope of the line from the eye on the
    /// picture's left to the one on its right (`EyeFinder`), nil unless both are found (spec §22.5 rule 19).
    static func roll(of face: FaceDetector.Face, in plane: PixelPlane<Float>) -> Double? {
        let eyes = EyeFinder.eyes(in: plane, face: face)
        guard let left = eyes.left, let right = eyes.right else { return nil }
        return EyeFinder.roll(left: left, right: right)
    }
}

/// A face found in an image (`VNFaceObservation`): where it is, and, where measured, how it is turned.
open class VNFaceObservation: VNDetectedObjectObservation, @unchecked Sendable {
    /// The face's rotation in the image plane, radians; nil when not measured.
    public let roll: NSNumber?
    /// The face's rotation about the vertical axis, radians; nil when not measured.
    public let yaw: NSNumber?
    /// The face's rotation about the horizontal axis, radians; nil when not measured.
    public let pitch: NSNumber?
    /// How good the face is for a capture, 0…1; nil unless a capture-quality request measured it.
    public let faceCaptureQuality: Float? = nil
    /// The face's landmarks, where a landmarks request found them (spec §22.11 rule 38); nil otherwise.
    public let landmarks: VNFaceLandmarks2D?

    init(
        requestRevision: Int, boundingBox: CGRect, confidence: VNConfidence, roll: NSNumber?, yaw: NSNumber?,
        pitch: NSNumber?, landmarks: VNFaceLandmarks2D? = nil
    ) {
        (self.roll, self.yaw, self.pitch, self.landmarks) = (roll, yaw, pitch, landmarks)
        super.init(requestRevision: requestRevision, boundingBox: boundingBox, confidence: confidence)
    }

    /// A face observation an app makes, to hand to a request that starts from faces.
    public class func faceObservation(
        requestRevision: Int, boundingBox: CGRect, roll: NSNumber?, yaw: NSNumber?, pitch: NSNumber?
    ) -> VNFaceObservation {
        VNFaceObservation(
            requestRevision: requestRevision, boundingBox: boundingBox, confidence: 1, roll: roll, yaw: yaw,
            pitch: pitch)
    }

    /// A face observation an app makes, without a pitch.
    public class func faceObservation(requestRevision: Int, boundingBox: CGRect, roll: NSNumber?, yaw: NSNumber?)
        -> VNFaceObservation
    {
        faceObservation(requestRevision: requestRevision, boundingBox: boundingBox, roll: roll, yaw: yaw, pitch: nil)
    }
}
