import Foundation
import ObscuraAV

extension VNRectangleObservation {
    /// The four corners as the Swift interface's points, top left first, clockwise.
    var normalisedCorners: (NormalizedPoint, NormalizedPoint, NormalizedPoint, NormalizedPoint) {
        (
            NormalizedPoint(normalizedPoint: topLeft), NormalizedPoint(normalizedPoint: topRight),
            NormalizedPoint(normalizedPoint: bottomRight), NormalizedPoint(normalizedPoint: bottomLeft)
        )
    }
}

/// A face found (`FaceObservation`): its box, normalised to the processed image or region, origin at the lower left.
///
/// `roll` is the `VN…` observation's, measured from the eyes (Capture rules §22.5). The detector finds faces that
/// look at the camera, so `yaw` and `pitch` are zero, as is `roll` where the eyes are not found: the pose within
/// which it finds a face at all, not a measurement of it.
public struct FaceObservation: VisionObservation, BoundingBoxProviding {
    public let boundingBox: NormalizedRect
    public let roll: Measurement<UnitAngle>
    public let yaw: Measurement<UnitAngle>
    public let pitch: Measurement<UnitAngle>
    public let uuid: UUID
    public let confidence: Float
    public let timeRange: CMTimeRange?
    public let originatingRequestDescriptor: RequestDescriptor?
    /// The face's landmarks, where a landmarks request placed them; nil otherwise.
    public let landmarks: Landmarks2D?

    /// A face an app knows of, to start another request from, with full confidence.
    public init(boundingBox: NormalizedRect, revision: DetectFaceRectanglesRequest.Revision? = nil) {
        self.boundingBox = boundingBox
        (roll, yaw, pitch) = (Self.level, Self.level, Self.level)
        uuid = UUID()
        confidence = 1
        timeRange = nil
        originatingRequestDescriptor = revision.map { .detectFaceRectanglesRequest($0) }
        landmarks = nil
    }

    /// The observation of the `VN…` interface in this one's form.
    public init(_ observation: VNFaceObservation) {
        self.init(observation, descriptor: .detectFaceRectanglesRequest(.revision3))
    }

    init(_ observation: VNFaceObservation, descriptor: RequestDescriptor) {
        boundingBox = NormalizedRect(normalizedRect: observation.boundingBox)
        func angle(_ radians: NSNumber?) -> Measurement<UnitAngle> {
            Measurement(value: radians?.doubleValue ?? 0, unit: .radians)
        }
        (roll, yaw, pitch) = (angle(observation.roll), angle(observation.yaw), angle(observation.pitch))
        uuid = observation.uuid
        confidence = observation.confidence
        timeRange = nil
        originatingRequestDescriptor = descriptor
        let face = boundingBox
        landmarks = observation.landmarks.map { Landmarks2D($0, face: face, descriptor: descriptor) }
    }

    private static let level = Measurement<UnitAngle>(value: 0, unit: .radians)

    public var description: String { "FaceObservation(\(boundingBox), confidence: \(confidence))" }
}

/// A rectangle found (`RectangleObservation`): its corners as they lie in the upright image.
public struct RectangleObservation: VisionObservation, QuadrilateralProviding {
    public let topLeft: NormalizedPoint
    public let topRight: NormalizedPoint
    public let bottomRight: NormalizedPoint
    public let bottomLeft: NormalizedPoint
    public let uuid: UUID
    public let confidence: Float
    public let timeRange: CMTimeRange?
    public let originatingRequestDescriptor: RequestDescriptor?

    /// A rectangle an app knows of, with full confidence.
    public init(
        topLeft: NormalizedPoint, topRight: NormalizedPoint, bottomRight: NormalizedPoint, bottomLeft: NormalizedPoint
    ) {
        (self.topLeft, self.topRight, self.bottomRight, self.bottomLeft) = (topLeft, topRight, bottomRight, bottomLeft)
        uuid = UUID()
        confidence = 1
        timeRange = nil
        originatingRequestDescriptor = nil
    }

    /// The observation of the `VN…` interface in this one's form.
    public init(_ observation: VNRectangleObservation) {
        self.init(observation, descriptor: .detectRectanglesRequest(.revision1))
    }

    init(_ observation: VNRectangleObservation, descriptor: RequestDescriptor?) {
        (topLeft, topRight, bottomRight, bottomLeft) = observation.normalisedCorners
        uuid = observation.uuid
        confidence = observation.confidence
        timeRange = nil
        originatingRequestDescriptor = descriptor
    }

    public var description: String { "RectangleObservation(\(boundingBox), confidence: \(confidence))" }
}

/// A barcode read (`BarcodeObservation`): its corners, named by the symbol's own orientation as the `VN…`
/// observation's are, its symbology and what it says. `isColorInverted` and `isGS1DataCarrier` are false, and there
/// are no supplemental payloads: the reader reports neither (Capture rules §22.10).
public struct BarcodeObservation: VisionObservation, QuadrilateralProviding {
    /// The kinds of composite code a supplemental payload belongs to.
    public enum CompositeType: Hashable, Sendable, Codable {
        case gs1TypeA, gs1TypeB, gs1TypeC, linked
    }

    public let payloadString: String?
    public let payloadData: Data?
    public let supplementalPayloadString: String? = nil
    public let supplementalPayloadData: Data? = nil
    public let supplementalCompositeType: CompositeType? = nil
    public let isGS1DataCarrier = false
    public let isColorInverted = false
    public let symbology: BarcodeSymbology
    public let topLeft: NormalizedPoint
    public let topRight: NormalizedPoint
    public let bottomRight: NormalizedPoint
    public let bottomLeft: NormalizedPoint
    public let uuid: UUID
    public let confidence: Float
    public let timeRange: CMTimeRange?
    public let originatingRequestDescriptor: RequestDescriptor?

    /// The observation of the `VN…` interface in this one's form.
    public init(_ observation: VNBarcodeObservation) {
        payloadString = observation.payloadStringValue
        payloadData = observation.payloadData
        symbology = BarcodeSymbology(observation.symbology) ?? .qr
        (topLeft, topRight, bottomRight, bottomLeft) = observation.normalisedCorners
        uuid = observation.uuid
        confidence = observation.confidence
        timeRange = nil
        originatingRequestDescriptor = .detectBarcodesRequest(.revision4)
    }

    public var description: String {
        "BarcodeObservation(\(symbology), \(payloadString.map { "\"\($0)\"" } ?? "no text"), \(boundingBox))"
    }
}

/// The barcode symbologies of the Swift interface (`BarcodeSymbology`), each the same as a `VNBarcodeSymbology`.
public enum BarcodeSymbology: CaseIterable, Hashable, Sendable, Codable {
    case aztec, code39, code39Checksum, code39FullASCII, code39FullASCIIChecksum, code93, code93i, code128
    case dataMatrix, ean8, ean13, i2of5, i2of5Checksum, itf14, pdf417, qr, upce, codabar
    case gs1DataBar, gs1DataBarExpanded, gs1DataBarLimited, microPDF417, microQR, msiPlessey

    /// The same symbology in the `VN…` interface.
    var classic: VNBarcodeSymbology {
        switch self {
        case .aztec: .aztec
        case .code39: .code39
        case .code39Checksum: .code39Checksum
        case .code39FullASCII: .code39FullASCII
        case .code39FullASCIIChecksum: .code39FullASCIIChecksum
        case .code93: .code93
        case .code93i: .code93i
        case .code128: .code128
        case .dataMatrix: .dataMatrix
        case .ean8: .ean8
        case .ean13: .ean13
        case .i2of5: .i2of5
        case .i2of5Checksum: .i2of5Checksum
        case .itf14: .itf14
        case .pdf417: .pdf417
        case .qr: .qr
        case .upce: .upce
        case .codabar: .codabar
        case .gs1DataBar: .gs1DataBar
        case .gs1DataBarExpanded: .gs1DataBarExpanded
        case .gs1DataBarLimited: .gs1DataBarLimited
        case .microPDF417: .microPDF417
        case .microQR: .microQR
        case .msiPlessey: .msiPlessey
        }
    }

    /// The symbology that is `classic`; nil for none.
    init?(_ classic: VNBarcodeSymbology) {
        guard let match = Self.allCases.first(where: { $0.classic == classic }) else { return nil }
        self = match
    }
}

/// A line of text read (`RecognizedTextObservation`): its corners and its candidate readings.
public struct RecognizedTextObservation: VisionObservation, QuadrilateralProviding {
    public let topLeft: NormalizedPoint
    public let topRight: NormalizedPoint
    public let bottomRight: NormalizedPoint
    public let bottomLeft: NormalizedPoint
    public let uuid: UUID
    public let confidence: Float
    public let timeRange: CMTimeRange?
    public let originatingRequestDescriptor: RequestDescriptor?
    private let candidates: [RecognizedText]

    /// The observation of the `VN…` interface in this one's form.
    public init(_ observation: VNRecognizedTextObservation) {
        (topLeft, topRight, bottomRight, bottomLeft) = observation.normalisedCorners
        uuid = observation.uuid
        confidence = observation.confidence
        timeRange = nil
        originatingRequestDescriptor = .recognizeTextRequest(.revision3)
        candidates = observation.topCandidates(10).map(RecognizedText.init)
    }

    /// At most `maxCandidateCount` readings (up to 10), most confident first; the recogniser gives one per line.
    public func topCandidates(_ maxCandidateCount: Int) -> [RecognizedText] {
        Array(candidates.prefix(max(0, min(maxCandidateCount, 10))))
    }

    public var description: String {
        "RecognizedTextObservation(\"\(candidates.first?.string ?? "")\", \(boundingBox))"
    }
}

/// One reading of a line of text (`RecognizedText`).
public struct RecognizedText: Hashable, @unchecked Sendable, CustomStringConvertible {
    private let classic: VNRecognizedText

    init(_ classic: VNRecognizedText) { self.classic = classic }

    /// The text read.
    public var string: String { classic.string }
    /// The recogniser's confidence, 0…1.
    public var confidence: Float { classic.confidence }

    /// Where the characters of `range` lie, normalised like the line; nil for a range of spaces only, or one
    /// outside the string.
    public func boundingBox(for range: Range<String.Index>) -> RectangleObservation? {
        guard let box = try? classic.boundingBox(for: range) else { return nil }
        return RectangleObservation(box, descriptor: .recognizeTextRequest(.revision3))
    }

    public static func == (a: RecognizedText, b: RecognizedText) -> Bool { a.classic === b.classic }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(classic)) }

    public var description: String { "RecognizedText(\"\(string)\", confidence: \(confidence))" }
}

/// A region of text found (`TextObservation`): its corners, and its characters' boxes where asked for.
public struct TextObservation: VisionObservation, QuadrilateralProviding {
    public let boundingBox: NormalizedRect
    public let characterBoxes: [RectangleObservation]?
    public let topLeft: NormalizedPoint
    public let topRight: NormalizedPoint
    public let bottomRight: NormalizedPoint
    public let bottomLeft: NormalizedPoint
    public let uuid: UUID
    public let confidence: Float
    public let timeRange: CMTimeRange?
    public let originatingRequestDescriptor: RequestDescriptor?

    /// The observation of the `VN…` interface in this one's form.
    public init(_ observation: VNTextObservation) {
        let descriptor = RequestDescriptor.detectTextRectanglesRequest(.revision1)
        (topLeft, topRight, bottomRight, bottomLeft) = observation.normalisedCorners
        boundingBox = NormalizedRect(normalizedRect: observation.boundingBox)
        characterBoxes = observation.characterBoxes?.map { RectangleObservation($0, descriptor: descriptor) }
        uuid = observation.uuid
        confidence = observation.confidence
        timeRange = nil
        originatingRequestDescriptor = descriptor
    }

    public var description: String { "TextObservation(\(boundingBox), confidence: \(confidence))" }
}
