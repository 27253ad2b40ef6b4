import Foundation
import ObscuraAV

/// The first revision of the text detector (`VNDetectTextRectanglesRequestRevision1`).
public let VNDetectTextRectanglesRequestRevision1 = 1

/// Finds where text is printed in an image (`VNDetectTextRectanglesRequest`): one `VNTextObservation` per word, in
/// reading order, with its characters' boxes when `reportCharacterBoxes` is on (spec §22.4 rule 16).
///
/// The words are those the text request's recogniser reads (`VNRecognizeTextRequest`, in English, at its accurate
/// level), so text is found only where the camera imaged it well enough to be read. Where libtesseract is missing
/// the request fails as the text request does.
open class VNDetectTextRectanglesRequest: VNImageBasedRequest, @unchecked Sendable {
    /// Whether each observation carries its characters' boxes; false by default.
    public var reportCharacterBoxes = false

    /// The words the last perform found, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNTextObservation]? { super.results as? [VNTextObservation] }

    open override class var supportedRevisions: IndexSet { IndexSet([VNDetectTextRectanglesRequestRevision1]) }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        let region = try image.region(regionOfInterest, workingSize: 4096)
        guard TextReader.isAvailable else { throw VisionFailure.textReaderMissing() }
        let lines = TextReader.confidentLines(in: region, setup: TextReader.Setup(languages: ["eng"])) ?? []
        return lines.flatMap { line in
            line.words.compactMap { characters -> VNTextObservation? in
                guard let box = PixelBox.union(characters) else { return nil }
                let boxes = characters.map {
                    region.observation(of: $0, requestRevision: revision, confidence: line.confidence)
                }
                return VNTextObservation(
                    corners: region.corners(of: box), confidence: line.confidence, requestRevision: revision,
                    characterBoxes: reportCharacterBoxes ? boxes : nil)
            }
        }
    }
}

/// Where a word of text lies (`VNTextObservation`): its corners, and its characters' boxes when the request asked
/// for them.
open class VNTextObservation: VNRectangleObservation, @unchecked Sendable {
    /// The characters' boxes, left to right, normalised like the word's; nil unless the request's
    /// `reportCharacterBoxes` was on.
    public let characterBoxes: [VNRectangleObservation]?

    init(
        corners c: (topLeft: CGPoint, topRight: CGPoint, bottomRight: CGPoint, bottomLeft: CGPoint),
        confidence: VNConfidence, requestRevision: Int, characterBoxes: [VNRectangleObservation]?
    ) {
        self.characterBoxes = characterBoxes
        super.init(
            requestRevision: requestRevision, topLeft: c.topLeft, topRight: c.topRight, bottomRight: c.bottomRight,
            bottomLeft: c.bottomLeft, confidence: confidence)
    }
}
