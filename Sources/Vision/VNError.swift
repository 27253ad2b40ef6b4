import Foundation
import ObscuraAV

/// The domain of the errors Vision throws (`VNErrorDomain`): a request that fails throws an `NSError`
/// of this domain whose code is a `VNErrorCode`.
public let VNErrorDomain = "com.apple.Vision"

/// The codes of Vision's errors (`VNErrorCode`), with Apple's values.
public enum VNErrorCode: Int, Sendable, Hashable, CaseIterable {
    case turiCoreErrorCode = -1
    case OK = 0
    case requestCancelled = 1
    case invalidFormat = 2
    case operationFailed = 3
    case outOfBoundsError = 4
    case invalidOption = 5
    case ioError = 6
    case missingOption = 7
    case notImplemented = 8
    case internalError = 9
    case outOfMemory = 10
    case unknownError = 11
    case invalidOperation = 12
    case invalidImage = 13
    case invalidArgument = 14
    case invalidModel = 15
    case unsupportedRevision = 16
    case dataUnavailable = 17
    case timeStampNotFound = 18
    case unsupportedRequest = 19
    case timeout = 20
    case unsupportedComputeStage = 21
    case unsupportedComputeDevice = 22
}

/// The errors this module throws, each made in one place so that its code and wording stay together.
enum VisionFailure {
    static func error(_ code: VNErrorCode, _ message: String) -> NSError {
        NSError(domain: VNErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: message])
    }

    /// An image with no pixels (Apple's `invalidImage`: "an image with no dimensions").
    static func emptyImage(width: Int, height: Int) -> NSError {
        error(.invalidImage, "The image is empty (\(width) x \(height) pixels)")
    }

    /// A pixel layout the detector cannot read as an image of light: depth, disparity and raw Bayer buffers, or a
    /// bitmap layout that is not 8, 16 or 32-bit float grey or RGB.
    static func unreadableFormat(_ what: String) -> NSError {
        error(.invalidFormat, "The image's format is not supported: \(what)")
    }

    /// A region of interest outside the normalised image (the documented failure of `regionOfInterest`).
    static func regionOfInterestOutside(_ roi: CGRect) -> NSError {
        error(
            .invalidArgument,
            "The region of interest [\(roi.origin.x), \(roi.origin.y), \(roi.size.width), \(roi.size.height)] is not "
                + "within the normalized bounds of [0 0 1 1]")
    }

    /// A revision the request does not have.
    static func unsupportedRevision(_ revision: Int, of request: String) -> NSError {
        error(.unsupportedRevision, "\(request) does not support revision \(revision)")
    }

    /// Text recognition without its reader: libtesseract or English's trained data is not installed.
    static func cancelled() -> NSError { error(.requestCancelled, "The request was cancelled.") }

    static func textReaderMissing() -> NSError {
        error(
            .unsupportedRequest,
            "Text recognition needs libtesseract 5 and English's trained data: apt-get install libtesseract5 "
                + "tesseract-ocr-eng")
    }

    /// No face cascade to detect faces with.
    static func faceCascadeMissing() -> NSError {
        error(.unsupportedRequest, "Face detection needs OpenCV's Haar cascades: apt-get install opencv-data")
    }

    /// No model to place face landmarks with.
    static func landmarkModelMissing() -> NSError {
        error(
            .unsupportedRequest,
            "Face landmarks need dlib's 68-point shape predictor model: apt-get install libdlib-data")
    }

    /// A recognition language that is unknown or whose trained data is not installed.
    static func unsupportedLanguage(_ code: String, supported: [String]) -> NSError {
        error(
            .invalidArgument,
            "The recognition language \(code) is not supported; supported: \(supported.joined(separator: ", ")) "
                + "(more with the tesseract-ocr-* packages)")
    }

    /// A string range that does not lie within the recognised string.
    static func rangeOutsideString(_ range: Range<String.Index>, in string: String) -> NSError {
        error(.invalidArgument, "The range is not within the recognized string \"\(string)\"")
    }

    /// A request this handler cannot perform (one of the abstract base classes).
    static func unsupportedRequest(_ request: String) -> NSError {
        error(.unsupportedRequest, "\(request) cannot be performed: it is an abstract request class")
    }
}
