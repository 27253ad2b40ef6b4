import Foundation
import Imaging
import ObscuraAV

/// The first revision of the text recogniser (`VNRecognizeTextRequestRevision1`).
public let VNRecognizeTextRequestRevision1 = 1
/// The second revision of the text recogniser (`VNRecognizeTextRequestRevision2`).
public let VNRecognizeTextRequestRevision2 = 2
/// The third revision of the text recogniser (`VNRecognizeTextRequestRevision3`).
public let VNRecognizeTextRequestRevision3 = 3

/// How a text request trades speed for accuracy (`VNRequestTextRecognitionLevel`).
public enum VNRequestTextRecognitionLevel: Int, Sendable, Hashable {
    /// The slower, more accurate recogniser; the default.
    case accurate = 0
    /// The faster recogniser.
    case fast = 1
}

/// Finds and reads printed text in an image (`VNRecognizeTextRequest`): one `VNRecognizedTextObservation` per line
/// of text read, in reading order (spec §22.4 rule 11).
///
/// The reader is Tesseract's LSTM recogniser (libtesseract 5, loaded when the program runs, with the trained data of
/// each language asked for), on the luma of the upright image or of its region of interest, so the text's size in
/// pixels, blur, angle and exposure decide what is read, as they do on a phone. Where libtesseract or English's
/// trained data is missing, `supportedRecognitionLanguages()` is empty and performing the request fails with
/// `VNErrorCode.unsupportedRequest`, whose message names the packages to install: a phone always reads text, so
/// an empty answer would be a false one.
///
/// Both recognition levels run the same recogniser; `.fast` reads a copy at most 1,536 pixels on its longer side,
/// `.accurate` one of at most 4,096, and neither reduces text of `minimumTextHeight` below 32 pixels. Without
/// `usesLanguageCorrection` the recogniser reads without its languages' word lists, and `customWords` join those
/// lists while correction is on (spec §22.4 rule 13).
open class VNRecognizeTextRequest: VNImageBasedRequest, VNRequestProgressProviding, @unchecked Sendable {
    /// Fast or accurate (the default).
    public var recognitionLevel: VNRequestTextRecognitionLevel = .accurate
    /// The languages to read, most likely first, as BCP 47 codes (`"en-US"`); English by default.
    public var recognitionLanguages: [String] = ["en-US"]
    /// Whether the recogniser corrects words by its language model; true by default.
    public var usesLanguageCorrection = true
    /// Words to favour beyond the language's own, while `usesLanguageCorrection` is on.
    public var customWords: [String] = []
    /// The smallest text height to read, as a fraction of the image's height (1/32 by default). The recogniser
    /// reads a copy reduced as far as keeps text of this height at least 32 pixels tall, so larger values read
    /// faster and lose smaller text.
    public var minimumTextHeight: Float = 1.0 / 32
    /// Whether the recogniser picks the language itself; false by default. Here it reads the languages asked for.
    public var automaticallyDetectsLanguage = false
    /// Called on the performing thread as the recogniser reads: the share of the words read, then 1 when the
    /// reading is done (spec §22.4 rule 17).
    public var progressHandler: VNRequestProgressHandler = { _, _, _ in }
    /// False: the reading reports how far it has come.
    public let indeterminate = false

    /// The lines the last perform read, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNRecognizedTextObservation]? {
        super.results as? [VNRecognizedTextObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet([VNRecognizeTextRequestRevision1, VNRecognizeTextRequestRevision2, VNRecognizeTextRequestRevision3])
    }

    /// The languages this request can read at its level and revision: those whose trained data is installed, as
    /// BCP 47 codes; empty where libtesseract does not load.
    public func supportedRecognitionLanguages() throws -> [String] {
        TextLanguages.supported(installed: TextReader.installedLanguages)
    }

    /// The languages a request of `recognitionLevel` and `requestRevision` can read (deprecated in iOS 15).
    @available(*, deprecated, message: "Use supportedRecognitionLanguages()")
    open class func supportedRecognitionLanguages(
        for recognitionLevel: VNRequestTextRecognitionLevel, revision requestRevision: Int
    ) throws -> [String] {
        TextLanguages.supported(installed: TextReader.installedLanguages)
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        let workingSize = recognitionLevel == .fast ? 1536 : 4096
        // Text of the minimum height is read at no less than 32 pixels, so a copy reduced that far is enough: larger
        // minimums read faster, and text smaller than the minimum shrinks below what the recogniser reads (spec §22.4
        // rule 12).
        let reduction = Int(Double(max(minimumTextHeight, 0)) * Double(image.uprightHeight) / 32)
        // The region is checked first, so a bad one fails the same way with or without the reader (spec §22.4
        // rule 15).
        let region = try image.region(regionOfInterest, workingSize: workingSize, minimumFactor: reduction)
        guard TextReader.isAvailable else { throw VisionFailure.textReaderMissing() }
        let languages = try TextLanguages.tesseractNames(recognitionLanguages, installed: TextReader.installedLanguages)
        let setup = TextReader.Setup(
            languages: languages, correctsWords: usesLanguageCorrection,
            customWords: usesLanguageCorrection ? customWords : [])
        let watch = TextReader.Watch(
            progress: { [unowned self] fraction in progressHandler(self, fraction, nil) },
            isCancelled: { [unowned self] in isCancelled })
        guard let lines = TextReader.confidentLines(in: region, setup: setup, watch: watch) else {
            throw VisionFailure.cancelled()
        }
        return lines.map { VNRecognizedTextObservation(line: $0, region: region, requestRevision: revision) }
    }
}

extension TextReader {
    /// The lines read from a region's working copy that the recogniser is at least 60 % sure of: a line it is less
    /// sure of is what it makes of texture and noise, where a phone's reader finds no text at all (spec §22.4
    /// rule 11).
    /// Nil when `watch` says the reading was cancelled.
    static func confidentLines(in region: WorkingRegion, setup: Setup, watch: Watch? = nil) -> [ReadTextLine]? {
        read(
            luma: region.lumaBytes(), width: region.plane.width, height: region.plane.height, setup: setup, watch: watch
        )?
        .filter { $0.confidence >= 0.6 }
    }
}

/// Apple's language codes and Tesseract's trained-data names.
enum TextLanguages {
    /// The languages with both names, Apple's first. Tesseract's names are ISO 639-2/T with script suffixes.
    static let names: [(apple: String, tesseract: String)] = [
        ("en-US", "eng"), ("fr-FR", "fra"), ("it-IT", "ita"), ("de-DE", "deu"), ("es-ES", "spa"), ("pt-BR", "por"),
        ("zh-Hans", "chi_sim"), ("zh-Hant", "chi_tra"), ("yue-Hans", "chi_sim"), ("yue-Hant", "chi_tra"),
        ("ko-KR", "kor"), ("ja-JP", "jpn"), ("ru-RU", "rus"), ("uk-UA", "ukr"), ("th-TH", "tha"), ("vi-VT", "vie"),
        ("ar-SA", "ara"), ("ars-SA", "ara"),
    ]

    /// Apple's codes for the installed languages, in Apple's order.
    static func supported(installed: Set<String>) -> [String] {
        names.filter { installed.contains($0.tesseract) }.map(\.apple)
    }

    /// Tesseract's names for the languages asked for, without repeats; an empty list means English. A language
    /// that is unknown or not installed fails with `invalidArgument`, naming it.
    static func tesseractNames(_ languages: [String], installed: Set<String>) throws -> [String] {
        var out: [String] = []
        for code in languages.isEmpty ? ["en-US"] : languages {
            let match =
                names.first { $0.apple.caseInsensitiveCompare(code) == .orderedSame }
                ?? names.first { $0.apple.split(separator: "-").first?.lowercased() == code.lowercased() }
            guard let name = match?.tesseract, installed.contains(name) else {
                throw VisionFailure.unsupportedLanguage(code, supported: supported(installed: installed))
            }
            if !out.contains(name) { out.append(name) }
        }
        return out
    }
}

/// A line of text a text request read (`VNRecognizedTextObservation`): its corners, and its candidate readings.
open class VNRecognizedTextObservation: VNRectangleObservation, @unchecked Sendable {
    private let candidates: [VNRecognizedText]

    init(line: ReadTextLine, region: WorkingRegion, requestRevision: Int) {
        let c = region.corners(of: line.box)
        candidates = [VNRecognizedText(line: line, region: region, requestRevision: requestRevision)]
        super.init(
            requestRevision: requestRevision, topLeft: c.topLeft, topRight: c.topRight, bottomRight: c.bottomRight,
            bottomLeft: c.bottomLeft, confidence: line.confidence)
    }

    /// At most `maxCandidateCount` readings (up to 10), most confident first. The recogniser gives one reading
    /// per line.
    public func topCandidates(_ maxCandidateCount: Int) -> [VNRecognizedText] {
        Array(candidates.prefix(max(0, min(maxCandidateCount, 10))))
    }
}

/// One reading of a line of text (`VNRecognizedText`).
open class VNRecognizedText: NSObject, @unchecked Sendable {
    /// The text read.
    public let string: String
    /// The recogniser's confidence, 0…1.
    public let confidence: VNConfidence
    private let characterBoxes: [PixelBox?]
    private let region: WorkingRegion
    private let requestRevision: Int

    init(line: ReadTextLine, region: WorkingRegion, requestRevision: Int = VNRecognizeTextRequestRevision3) {
        string = line.text
        confidence = line.confidence
        characterBoxes = line.characterBoxes
        self.region = region
        self.requestRevision = requestRevision
        super.init()
    }

    /// Where the characters of `range` lie: the box holding them, as a rectangle observation normalised like the
    /// line's; nil for a range of spaces only. A range outside the string fails with `invalidArgument`.
    public func boundingBox(for range: Range<String.Index>) throws -> VNRectangleObservation? {
        guard range.lowerBound >= string.startIndex, range.upperBound <= string.endIndex else {
            throw VisionFailure.rangeOutsideString(range, in: string)
        }
        let first = string.distance(from: string.startIndex, to: range.lowerBound)
        let count = string.distance(from: range.lowerBound, to: range.upperBound)
        let boxes = characterBoxes[first..<min(first + count, characterBoxes.count)].compactMap { $0 }
        guard let box = PixelBox.union(boxes) else { return nil }
        return region.observation(of: box, requestRevision: requestRevision, confidence: confidence)
    }
}

extension WorkingRegion {
    /// A box of the working copy's pixels as an observation's corners, normalised to the region (spec §22.1 rule 4).
    func corners(of box: PixelBox) -> (topLeft: CGPoint, topRight: CGPoint, bottomRight: CGPoint, bottomLeft: CGPoint) {
        let corner = { (x: Int, y: Int) in normalised(SIMD2(Double(x), Double(y))) }
        return (
            corner(box.left, box.top), corner(box.right, box.top), corner(box.right, box.bottom),
            corner(box.left, box.bottom)
        )
    }

    /// A box of the working copy's pixels as a rectangle observation of the region.
    func observation(of box: PixelBox, requestRevision: Int, confidence: VNConfidence) -> VNRectangleObservation {
        let c = corners(of: box)
        return VNRectangleObservation(
            requestRevision: requestRevision, topLeft: c.topLeft, topRight: c.topRight, bottomRight: c.bottomRight,
            bottomLeft: c.bottomLeft, confidence: confidence)
    }
}
