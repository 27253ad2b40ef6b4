import Foundation
import ObscuraAV

// The requests of Vision's Swift interface. Each is a value whose settings are those of its `VN…` counterpart, and
// performing it runs that counterpart's detector (Capture rules §22.10): what is found, and where, is the same.

/// Finds faces (`DetectFaceRectanglesRequest`), as `VNDetectFaceRectanglesRequest` does.
public struct DetectFaceRectanglesRequest: ImageProcessingRequest, ClassicBackedRequest {
    public typealias Result = [FaceObservation]
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision3 }
    public static let supportedRevisions: [Revision] = [.revision3]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision3 }

    public var descriptor: RequestDescriptor { .detectFaceRectanglesRequest(revision) }
    public var description: String { "DetectFaceRectanglesRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNDetectFaceRectanglesRequest()
        request.revision = VNDetectFaceRectanglesRequestRevision3
        request.regionOfInterest = regionOfInterest.cgRect
        return request
    }

    func result(from observations: [VNObservation]) -> Result {
        observations.compactMap { $0 as? VNFaceObservation }.map(FaceObservation.init)
    }

    func visionResult(_ result: Result) -> VisionResult { .detectFaceRectangles(self, result) }
}

/// Finds the landmarks of faces (`DetectFaceLandmarksRequest`), as `VNDetectFaceLandmarksRequest` does: in the faces
/// given, or else in those the face detector finds (spec §22.11 rule 38).
public struct DetectFaceLandmarksRequest: ImageProcessingRequest, ClassicBackedRequest {
    public typealias Result = [FaceObservation]
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision3 }
    public static let supportedRevisions: [Revision] = [.revision3]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    /// The faces to place landmarks in; nil (the default) finds them first.
    public var inputFaceObservations: [FaceObservation]?

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision3 }

    public var descriptor: RequestDescriptor { .detectFaceLandmarksRequest(revision) }
    public var description: String { "DetectFaceLandmarksRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNDetectFaceLandmarksRequest()
        request.revision = VNDetectFaceLandmarksRequestRevision3
        request.regionOfInterest = regionOfInterest.cgRect
        request.inputFaceObservations = inputFaceObservations?.map { face in
            VNFaceObservation(
                requestRevision: VNDetectFaceRectanglesRequestRevision3, boundingBox: face.boundingBox.cgRect,
                confidence: face.confidence, roll: NSNumber(value: face.roll.converted(to: .radians).value),
                yaw: nil, pitch: nil)
        }
        return request
    }

    func result(from observations: [VNObservation]) -> Result {
        observations.compactMap { $0 as? VNFaceObservation }.map {
            FaceObservation($0, descriptor: descriptor)
        }
    }

    func visionResult(_ result: Result) -> VisionResult { .detectFaceLandmarks(self, result) }
}

/// Reads barcodes (`DetectBarcodesRequest`), as `VNDetectBarcodesRequest` does, with the capture API's reader.
public struct DetectBarcodesRequest: ImageProcessingRequest, ClassicBackedRequest {
    public typealias Result = [BarcodeObservation]
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision4 }
    public static let supportedRevisions: [Revision] = [.revision4]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    /// The symbologies looked for; by default all of them. Those the reader cannot read are never found.
    public var symbologies = BarcodeSymbology.allCases
    /// Kept; the reader reads no composite codes, so there is nothing to coalesce.
    public var coalescesCompositeSymbologies = false

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision4 }

    /// The symbologies the reader reads; empty where zxing-cpp did not load.
    public var supportedSymbologies: [BarcodeSymbology] {
        VNDetectBarcodesRequest.readableSymbologies.compactMap(BarcodeSymbology.init)
    }

    public var descriptor: RequestDescriptor { .detectBarcodesRequest(revision) }
    public var description: String { "DetectBarcodesRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNDetectBarcodesRequest()
        request.revision = VNDetectBarcodesRequestRevision4
        request.symbologies = symbologies.map(\.classic)
        request.regionOfInterest = regionOfInterest.cgRect
        return request
    }

    func result(from observations: [VNObservation]) -> Result {
        observations.compactMap { $0 as? VNBarcodeObservation }.map(BarcodeObservation.init)
    }

    func visionResult(_ result: Result) -> VisionResult { .detectBarcodes(self, result) }
}

/// Reads lines of text (`RecognizeTextRequest`), as `VNRecognizeTextRequest` does.
public struct RecognizeTextRequest: ImageProcessingRequest, ClassicBackedRequest {
    public typealias Result = [RecognizedTextObservation]
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision3 }
    /// How hard the recogniser works.
    public enum RecognitionLevel: CaseIterable, Hashable, Sendable, Codable { case accurate, fast }
    public static let supportedRevisions: [Revision] = [.revision3]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    public var recognitionLevel = RecognitionLevel.accurate
    /// The languages read, most likely first; English by default.
    public var recognitionLanguages = [Locale.Language(identifier: "en-US")]
    public var usesLanguageCorrection = true
    /// Words the correction should know; ignored without it.
    public var customWords: [String] = []
    /// The height of the smallest text read, as a share of the image's height.
    public var minimumTextHeightFraction: Float = 1.0 / 32
    /// Kept; the languages asked for are the ones read.
    public var automaticallyDetectsLanguage = false

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision3 }

    /// The languages with installed trained data; empty where libtesseract did not load.
    public var supportedRecognitionLanguages: [Locale.Language] {
        ((try? VNRecognizeTextRequest().supportedRecognitionLanguages()) ?? []).map { Locale.Language(identifier: $0) }
    }

    public var descriptor: RequestDescriptor { .recognizeTextRequest(revision) }
    public var description: String { "RecognizeTextRequest(\(revision), \(recognitionLevel))" }

    /// A language as the `VN…` interface names it: the name of the reader's language it is equivalent to ("en" and
    /// "en-US" are both "en-US"), or its own shortest identifier, which the `VN…` request matches by language code.
    static func code(_ language: Locale.Language) -> String {
        TextLanguages.names.first { Locale.Language(identifier: $0.apple).isEquivalent(to: language) }?.apple
            ?? language.minimalIdentifier
    }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNRecognizeTextRequest()
        request.revision = VNRecognizeTextRequestRevision3
        request.regionOfInterest = regionOfInterest.cgRect
        request.recognitionLevel = recognitionLevel == .fast ? .fast : .accurate
        request.recognitionLanguages = recognitionLanguages.map(Self.code)
        request.usesLanguageCorrection = usesLanguageCorrection
        request.customWords = customWords
        request.minimumTextHeight = minimumTextHeightFraction
        request.automaticallyDetectsLanguage = automaticallyDetectsLanguage
        return request
    }

    func result(from observations: [VNObservation]) -> Result {
        observations.compactMap { $0 as? VNRecognizedTextObservation }.map(RecognizedTextObservation.init)
    }

    func visionResult(_ result: Result) -> VisionResult { .recognizeText(self, result) }
}

/// Finds rectangles (`DetectRectanglesRequest`), as `VNDetectRectanglesRequest` does.
public struct DetectRectanglesRequest: ImageProcessingRequest, ClassicBackedRequest {
    public typealias Result = [RectangleObservation]
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision1 }
    public static let supportedRevisions: [Revision] = [.revision1]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    /// The narrowest shorter-over-longer side ratio found, 0…1.
    public var minimumAspectRatio: Float = 0.5
    /// The widest shorter-over-longer side ratio found, 0…1.
    public var maximumAspectRatio: Float = 1
    /// How far a corner may be from a right angle, degrees.
    public var quadratureToleranceDegrees: Float = 30
    /// The smallest rectangle found, as a share of the image's shorter side.
    public var minimumSize: Float = 0.2
    public var minimumConfidence: Float = 0
    /// How many rectangles at most; 0 for no limit.
    public var maximumObservations = 1

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision1 }

    public var descriptor: RequestDescriptor { .detectRectanglesRequest(revision) }
    public var description: String { "DetectRectanglesRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNDetectRectanglesRequest()
        request.regionOfInterest = regionOfInterest.cgRect
        request.minimumAspectRatio = minimumAspectRatio
        request.maximumAspectRatio = maximumAspectRatio
        request.quadratureTolerance = quadratureToleranceDegrees
        request.minimumSize = minimumSize
        request.minimumConfidence = minimumConfidence
        request.maximumObservations = maximumObservations
        return request
    }

    func result(from observations: [VNObservation]) -> Result {
        observations.compactMap { $0 as? VNRectangleObservation }.map {
            RectangleObservation($0, descriptor: descriptor)
        }
    }

    func visionResult(_ result: Result) -> VisionResult { .detectRectangles(self, result) }
}

/// Finds regions of text (`DetectTextRectanglesRequest`), as `VNDetectTextRectanglesRequest` does.
public struct DetectTextRectanglesRequest: ImageProcessingRequest, ClassicBackedRequest {
    public typealias Result = [TextObservation]
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision1 }
    public static let supportedRevisions: [Revision] = [.revision1]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage
    /// Whether each region carries its characters' boxes.
    public var reportCharacterBoxes = false

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision1 }

    public var descriptor: RequestDescriptor { .detectTextRectanglesRequest(revision) }
    public var description: String { "DetectTextRectanglesRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNDetectTextRectanglesRequest()
        request.regionOfInterest = regionOfInterest.cgRect
        request.reportCharacterBoxes = reportCharacterBoxes
        return request
    }

    func result(from observations: [VNObservation]) -> Result {
        observations.compactMap { $0 as? VNTextObservation }.map(TextObservation.init)
    }

    func visionResult(_ result: Result) -> VisionResult { .detectTextRectangles(self, result) }
}
