import Foundation
import Imaging
import ObscuraAV

/// The first revision of the rectangle detector (`VNDetectRectanglesRequestRevision1`).
public let VNDetectRectanglesRequestRevision1 = 1

/// Finds projected rectangles in an image: cards, prints, documents, signs (`VNDetectRectanglesRequest`).
///
/// The detector is the one Obscura's print scanner uses (Imaging's `QuadrilateralDetector`): Otsu thresholds on
/// the luma at several levels, the objects that do not touch the image border, four lines fitted robustly to each
/// object's outline. Every distinct quadrilateral it finds is a candidate; the request's parameters then keep the
/// candidates that pass all of them, most confident first:
/// - the aspect ratio, the mean of the two sides that run one way over the mean of the other two, shorter over
///   longer, measured in the image's pixels, within `minimumAspectRatio…maximumAspectRatio`;
/// - the shorter of those two means at least `minimumSize` times the image's (or region of interest's) shorter
///   side;
/// - each corner's angle within `quadratureTolerance` degrees of 90°;
/// - the confidence (the fraction of the sides where the brightness really steps across the threshold, times how
///   well the threshold separates the two classes) at least `minimumConfidence`;
/// - at most `maximumObservations` of them (0 for all).
///
/// The parameters take Apple's documented meanings and defaults literally. Both aspect-ratio limits default to
/// 0.5, so a request left at its defaults keeps only rectangles twice as long as they are wide; apps set the range
/// they want, as scanner apps do.
open class VNDetectRectanglesRequest: VNImageBasedRequest, @unchecked Sendable {
    /// The smallest aspect ratio kept (shorter side over longer), 0…1; default 0.5.
    public var minimumAspectRatio: VNAspectRatio = 0.5
    /// The largest aspect ratio kept (shorter side over longer), 0…1; default 0.5.
    public var maximumAspectRatio: VNAspectRatio = 0.5
    /// How far, in degrees, a corner's angle may be from 90°, 0…45; default 30.
    public var quadratureTolerance: VNDegrees = 30
    /// The smallest rectangle kept, its shorter side as a fraction of the image's shorter side, 0…1; default 0.2.
    public var minimumSize: Float = 0.2
    /// The lowest confidence kept; default 0.
    public var minimumConfidence: VNConfidence = 0
    /// The most rectangles returned, most confident first; 0 for all of them. Default 1.
    public var maximumObservations = 1

    /// The rectangles the last perform found, most confident first, or nil before a perform and after a failed
    /// one: typed as the observations this request makes, as Apple's SDK declares it since iOS 15.
    @_nonoverride public var results: [VNRectangleObservation]? { super.results as? [VNRectangleObservation] }

    /// The longest side of the detector's working copy: the print scanner's.
    static let workingSize = QuadrilateralDetector().maximumWorkingSize

    open override class var supportedRevisions: IndexSet { IndexSet(integer: VNDetectRectanglesRequestRevision1) }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        // Every candidate that passes every limit, most confident first (spec §22.2 rule 5), measured in the
        // upright region's pixels (spec §22.2 rule 6).
        let region = try image.region(regionOfInterest, workingSize: Self.workingSize)
        let detector = QuadrilateralDetector(
            maximumWorkingSize: Self.workingSize, minimumSize: Double(max(0, minimumSize)),
            minimumConfidence: max(0, minimumConfidence))
        let shorterSide = Double(min(region.width, region.height))
        let scale = Double(region.factor)
        var kept: [VNRectangleObservation] = []
        for candidate in detector.candidates(in: region.plane) {
            let working = candidate.pixelCorners(width: region.plane.width, height: region.plane.height)
            let shape = QuadrilateralShape(corners: working.map { $0 * scale })
            guard shape.aspectRatio >= Double(minimumAspectRatio), shape.aspectRatio <= Double(maximumAspectRatio),
                shape.shorterSide >= Double(minimumSize) * shorterSide,
                shape.largestRightAngleDeviation <= Double(quadratureTolerance),
                candidate.confidence >= minimumConfidence
            else { continue }
            let corners = working.map(region.normalised)
            kept.append(
                VNRectangleObservation(
                    requestRevision: revision, topLeft: corners[0], topRight: corners[1], bottomRight: corners[2],
                    bottomLeft: corners[3], confidence: candidate.confidence))
            if maximumObservations > 0 && kept.count == maximumObservations { break }
        }
        return kept
    }
}

/// The measures of a quadrilateral the rectangle request filters on, from pixel corners in the order top-left,
/// top-right, bottom-right, bottom-left.
struct QuadrilateralShape {
    /// The mean of the top and bottom sides, and of the left and right sides, shorter over longer.
    let aspectRatio: Double
    /// The shorter of those two means, in pixels.
    let shorterSide: Double
    /// The largest difference, in degrees, between a corner's angle and 90°.
    let largestRightAngleDeviation: Double

    init(corners: [SIMD2<Double>]) {
        func length(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }
        let across = (length(corners[0], corners[1]) + length(corners[3], corners[2])) / 2
        let down = (length(corners[0], corners[3]) + length(corners[1], corners[2])) / 2
        let longer = max(across, down)
        shorterSide = min(across, down)
        aspectRatio = longer > 0 ? shorterSide / longer : 0
        var deviation = 0.0
        for k in 0..<4 {
            let corner = corners[k], previous = corners[(k + 3) % 4], next = corners[(k + 1) % 4]
            let u = previous - corner, v = next - corner
            let lengths = length(previous, corner) * length(next, corner)
            guard lengths > 0 else {
                deviation = 90
                break
            }
            let cosine = max(-1, min(1, (u * v).sum() / lengths))
            deviation = max(deviation, abs(acos(cosine) * 180 / .pi - 90))
        }
        largestRightAngleDeviation = deviation
    }
}
