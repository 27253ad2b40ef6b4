import CoreImage
import Foundation
import ObscuraAV

/// A request of Vision's Swift interface (`VisionRequest`): a value that says what to look for, and the type of
/// what it finds. Performing it runs the same detector as its `VN…` counterpart (Capture rules §22.10).
public protocol VisionRequest: CustomStringConvertible, Hashable, Sendable {
    /// One observation, or an array of them.
    associatedtype Result
    /// Which request this is, at which revision.
    var descriptor: RequestDescriptor { get }
}

/// A request that looks at one image, or at part of it (`ImageProcessingRequest`).
public protocol ImageProcessingRequest: VisionRequest {
    /// The part of the image looked at, normalised to the upright image with the origin at the lower left; by
    /// default `NormalizedRect.fullImage`. What the request finds is normalised to this region.
    var regionOfInterest: NormalizedRect { get set }
}

extension ImageProcessingRequest {
    /// Performs the request on a pixel buffer whose upright picture is the stored one turned by `orientation`
    /// (`.up` when nil).
    public func perform(on pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation? = nil) async throws
        -> Result
    {
        try await ImageRequestHandler(pixelBuffer, orientation: orientation).perform(self)
    }

    /// Performs the request on a bitmap image.
    public func perform(on image: CGImage, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try await ImageRequestHandler(image, orientation: orientation).perform(self)
    }

    /// Performs the request on a Core Image image, rendered over its extent.
    public func perform(on image: CIImage, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try await ImageRequestHandler(image, orientation: orientation).perform(self)
    }

    /// Performs the request on a sample buffer's image.
    public func perform(on sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation? = nil) async throws
        -> Result
    {
        try await ImageRequestHandler(sampleBuffer, orientation: orientation).perform(self)
    }

    /// Performs the request on an image file's data; without an orientation, the file's own is used.
    public func perform(on data: Data, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try await ImageRequestHandler(data, orientation: orientation).perform(self)
    }

    /// Performs the request on the image file at `url`; without an orientation, the file's own is used.
    public func perform(on url: URL, orientation: CGImagePropertyOrientation? = nil) async throws -> Result {
        try await ImageRequestHandler(url, orientation: orientation).perform(self)
    }
}

/// What a Swift request found (`VisionObservation`).
public protocol VisionObservation: CustomStringConvertible, Hashable, Sendable {
    /// This observation's identity.
    var uuid: UUID { get }
    /// How sure the request is, 0…1.
    var confidence: Float { get }
    /// The time of the frame observed; nil for a still image.
    var timeRange: CMTimeRange? { get }
    /// The request, and its revision, that made the observation.
    var originatingRequestDescriptor: RequestDescriptor? { get }
}

/// An observation with a bounding box (`BoundingBoxProviding`).
public protocol BoundingBoxProviding {
    /// The box, normalised to the processed image or region, origin at the lower left.
    var boundingBox: NormalizedRect { get }
}

/// An observation with four corners (`QuadrilateralProviding`), named as they lie in the upright image.
public protocol QuadrilateralProviding: BoundingBoxProviding {
    var topLeft: NormalizedPoint { get }
    var topRight: NormalizedPoint { get }
    var bottomRight: NormalizedPoint { get }
    var bottomLeft: NormalizedPoint { get }
}

extension QuadrilateralProviding {
    /// The smallest upright rectangle holding the four corners.
    public var boundingBox: NormalizedRect {
        let xs = [topLeft.x, topRight.x, bottomRight.x, bottomLeft.x]
        let ys = [topLeft.y, topRight.y, bottomRight.y, bottomLeft.y]
        let (x0, x1, y0, y1) = (xs.min() ?? 0, xs.max() ?? 0, ys.min() ?? 0, ys.max() ?? 0)
        return NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Which request, at which revision (`RequestDescriptor`).
public enum RequestDescriptor: Hashable, Sendable, Codable, CustomStringConvertible {
    case detectFaceRectanglesRequest(DetectFaceRectanglesRequest.Revision)
    case detectFaceLandmarksRequest(DetectFaceLandmarksRequest.Revision)
    case detectBarcodesRequest(DetectBarcodesRequest.Revision)
    case recognizeTextRequest(RecognizeTextRequest.Revision)
    case detectRectanglesRequest(DetectRectanglesRequest.Revision)
    case detectTextRectanglesRequest(DetectTextRectanglesRequest.Revision)
    case generateAttentionBasedSaliencyImageRequest(GenerateAttentionBasedSaliencyImageRequest.Revision)
    case generateObjectnessBasedSaliencyImageRequest(GenerateObjectnessBasedSaliencyImageRequest.Revision)

    public var description: String {
        switch self {
        case let .detectFaceRectanglesRequest(r): "DetectFaceRectanglesRequest(\(r))"
        case let .detectFaceLandmarksRequest(r): "DetectFaceLandmarksRequest(\(r))"
        case let .detectBarcodesRequest(r): "DetectBarcodesRequest(\(r))"
        case let .recognizeTextRequest(r): "RecognizeTextRequest(\(r))"
        case let .detectRectanglesRequest(r): "DetectRectanglesRequest(\(r))"
        case let .detectTextRectanglesRequest(r): "DetectTextRectanglesRequest(\(r))"
        case let .generateAttentionBasedSaliencyImageRequest(r): "GenerateAttentionBasedSaliencyImageRequest(\(r))"
        case let .generateObjectnessBasedSaliencyImageRequest(r): "GenerateObjectnessBasedSaliencyImageRequest(\(r))"
        }
    }
}

/// The errors of Vision's Swift interface (`VisionError`), each with a message; the `VN…` interface's errors
/// (`VNErrorCode`) map onto them one for one.
public enum VisionError: Error, LocalizedError, Sendable, Equatable {
    case dataUnavailable(String)
    case internalError(String)
    case invalidArgument(String)
    case invalidFormat(String)
    case invalidImage(String)
    case invalidModel(String)
    case invalidOperation(String)
    case ioError(String)
    case operationFailed(String)
    case outOfBoundsError(String)
    case outOfMemory(String)
    case pixelBufferCreationFailed(CVReturn)
    case requestCancelled(String)
    case timeout(String)
    case timeStampNotFound(String)
    case unsupportedComputeDevice(String)
    case unsupportedComputeStage(String)
    case unsupportedRequest(String)
    case unsupportedRevision(String)

    public var errorDescription: String? {
        switch self {
        case let .dataUnavailable(m), let .internalError(m), let .invalidArgument(m), let .invalidFormat(m),
            let .invalidImage(m), let .invalidModel(m), let .invalidOperation(m), let .ioError(m),
            let .operationFailed(m), let .outOfBoundsError(m), let .outOfMemory(m), let .requestCancelled(m),
            let .timeout(m), let .timeStampNotFound(m), let .unsupportedComputeDevice(m),
            let .unsupportedComputeStage(m), let .unsupportedRequest(m), let .unsupportedRevision(m):
            m
        case let .pixelBufferCreationFailed(status): "A pixel buffer could not be made (CVReturn \(status))."
        }
    }

    /// The Swift error for an error of the `VN…` interface (an `NSError` in `VNErrorDomain`); any other error
    /// becomes `operationFailed` with its description.
    init(_ error: any Error) {
        let ns = error as NSError
        let message = ns.localizedDescription
        guard ns.domain == VNErrorDomain, let code = VNErrorCode(rawValue: ns.code) else {
            self = .operationFailed(message)
            return
        }
        switch code {
        case .requestCancelled: self = .requestCancelled(message)
        case .invalidFormat: self = .invalidFormat(message)
        case .outOfBoundsError: self = .outOfBoundsError(message)
        case .ioError: self = .ioError(message)
        case .internalError: self = .internalError(message)
        case .outOfMemory: self = .outOfMemory(message)
        case .invalidOperation: self = .invalidOperation(message)
        case .invalidImage: self = .invalidImage(message)
        case .invalidArgument, .invalidOption, .missingOption: self = .invalidArgument(message)
        case .invalidModel: self = .invalidModel(message)
        case .unsupportedRevision: self = .unsupportedRevision(message)
        case .dataUnavailable: self = .dataUnavailable(message)
        case .timeStampNotFound: self = .timeStampNotFound(message)
        case .unsupportedRequest, .notImplemented: self = .unsupportedRequest(message)
        case .timeout: self = .timeout(message)
        case .unsupportedComputeStage: self = .unsupportedComputeStage(message)
        case .unsupportedComputeDevice: self = .unsupportedComputeDevice(message)
        case .turiCoreErrorCode, .OK, .operationFailed, .unknownError: self = .operationFailed(message)
        }
    }
}

/// A request of the Swift interface that runs through its `VN…` counterpart: it makes the classic request,
/// configured as it is, and turns the classic observations into its own.
protocol ClassicBackedRequest: ImageProcessingRequest {
    /// The classic request, with this request's revision, region and options.
    func classicRequest() -> VNImageBasedRequest
    /// This request's result from the classic request's observations.
    func result(from observations: [VNObservation]) throws -> Result
    /// The result as one element of `ImageRequestHandler.performAll(_:)`.
    func visionResult(_ result: Result) -> VisionResult
}

/// One request's outcome in `ImageRequestHandler.performAll(_:)` (`VisionResult`).
public enum VisionResult: Sendable, CustomStringConvertible {
    case detectFaceRectangles(DetectFaceRectanglesRequest, [FaceObservation])
    case detectFaceLandmarks(DetectFaceLandmarksRequest, [FaceObservation])
    case detectBarcodes(DetectBarcodesRequest, [BarcodeObservation])
    case recognizeText(RecognizeTextRequest, [RecognizedTextObservation])
    case detectRectangles(DetectRectanglesRequest, [RectangleObservation])
    case detectTextRectangles(DetectTextRectanglesRequest, [TextObservation])
    case generateAttentionBasedSaliencyImage(GenerateAttentionBasedSaliencyImageRequest, SaliencyImageObservation)
    case generateObjectnessBasedSaliencyImage(GenerateObjectnessBasedSaliencyImageRequest, SaliencyImageObservation)
    case error(any VisionRequest, any Error)

    public var description: String {
        switch self {
        case let .detectFaceRectangles(r, o): "\(r): \(o.count) faces"
        case let .detectFaceLandmarks(r, o): "\(r): \(o.count) faces"
        case let .detectBarcodes(r, o): "\(r): \(o.count) barcodes"
        case let .recognizeText(r, o): "\(r): \(o.count) lines"
        case let .detectRectangles(r, o): "\(r): \(o.count) rectangles"
        case let .detectTextRectangles(r, o): "\(r): \(o.count) text regions"
        case let .generateAttentionBasedSaliencyImage(r, o): "\(r): \(o.salientObjects.count) salient objects"
        case let .generateObjectnessBasedSaliencyImage(r, o): "\(r): \(o.salientObjects.count) salient objects"
        case let .error(r, e): "\(r): \(e)"
        }
    }
}

/// Performs requests of the Swift interface on one image (`ImageRequestHandler`).
///
/// The handler keeps the image and its orientation (nil: `.up`, or a file's own orientation for data and URLs) and
/// performs each request with the same detectors, on the same upright picture, as `VNImageRequestHandler` does
/// (Capture rules §22.10). A request that fails throws a `VisionError`.
public final class ImageRequestHandler: @unchecked Sendable {
    private let classic: VNImageRequestHandler

    private init(_ classic: VNImageRequestHandler) { self.classic = classic }

    public convenience init(_ imageURL: URL, orientation: CGImagePropertyOrientation? = nil) {
        self.init(
            orientation.map { VNImageRequestHandler(url: imageURL, orientation: $0) }
                ?? VNImageRequestHandler(url: imageURL))
    }

    public convenience init(_ data: Data, orientation: CGImagePropertyOrientation? = nil) {
        self.init(
            orientation.map { VNImageRequestHandler(data: data, orientation: $0) } ?? VNImageRequestHandler(data: data))
    }

    public convenience init(_ image: CGImage, orientation: CGImagePropertyOrientation? = nil) {
        self.init(VNImageRequestHandler(cgImage: image, orientation: orientation ?? .up))
    }

    public convenience init(_ image: CIImage, orientation: CGImagePropertyOrientation? = nil) {
        self.init(VNImageRequestHandler(ciImage: image, orientation: orientation ?? .up))
    }

    /// A handler for a pixel buffer; the depth data is kept by no request here (none reads depth).
    public convenience init(
        _ pixelBuffer: CVPixelBuffer, depthData: AVDepthData? = nil, orientation: CGImagePropertyOrientation? = nil
    ) {
        self.init(VNImageRequestHandler(cvPixelBuffer: pixelBuffer, orientation: orientation ?? .up))
    }

    /// A handler for a sample buffer's image; the depth data is kept by no request here (none reads depth).
    public convenience init(
        _ sampleBuffer: CMSampleBuffer, depthData: AVDepthData? = nil, orientation: CGImagePropertyOrientation? = nil
    ) {
        self.init(VNImageRequestHandler(cmSampleBuffer: sampleBuffer, orientation: orientation ?? .up))
    }

    /// Performs one request on the image and returns what it found.
    public func perform<T: VisionRequest>(_ request: T) async throws -> T.Result {
        guard let backed = request as? any ClassicBackedRequest else {
            throw Self.unsupported(request)
        }
        // A request's own result type: the cast cannot fail.
        guard let result = try run(backed) as? T.Result else {
            throw VisionError.internalError("\(request) gave a result of another type.")
        }
        return result
    }

    /// Performs several requests on the image and returns their results in the same order, once all have finished.
    public func perform<each T: VisionRequest>(_ request: repeat each T) async throws -> (repeat (each T).Result) {
        (repeat try await perform(each request))
    }

    /// Performs the requests one after another, each result delivered as soon as it is ready; a request that fails
    /// is delivered as `.error`. It returns at once: the requests run in a task of their own, which ends early when
    /// the sequence is no longer iterated.
    public func performAll(_ requests: some Collection<any VisionRequest>) -> some AsyncSequence<VisionResult, Never> {
        let requests = Array(requests)
        return AsyncStream<VisionResult> { continuation in
            let work = Task {
                for request in requests where !Task.isCancelled {
                    continuation.yield(outcome(of: request))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    /// The error for a request no detector here performs.
    private static func unsupported(_ request: any VisionRequest) -> VisionError {
        .unsupportedRequest("\(request) is not performed by this handler.")
    }

    /// One request's result, or its failure, as `performAll(_:)` delivers it.
    private func outcome(of request: any VisionRequest) -> VisionResult {
        guard let backed = request as? any ClassicBackedRequest else {
            return .error(request, Self.unsupported(request))
        }
        do {
            return try result(of: backed)
        } catch {
            return .error(request, error)
        }
    }

    private func run<R: ClassicBackedRequest>(_ request: R) throws -> R.Result {
        let classicRequest = request.classicRequest()
        do {
            try classic.perform([classicRequest])
        } catch {
            throw VisionError(error)
        }
        return try request.result(from: classicRequest.results ?? [])
    }

    private func result<R: ClassicBackedRequest>(of request: R) throws -> VisionResult {
        request.visionResult(try run(request))
    }
}
