import CoreImage
import CoreVideo
import Foundation
import ObscuraAV

/// Makes a heat map of where an image draws attention (`GenerateAttentionBasedSaliencyImageRequest`), as
/// `VNGenerateAttentionBasedSaliencyImageRequest` does.
public struct GenerateAttentionBasedSaliencyImageRequest: ImageProcessingRequest, SaliencyRequestValue {
    public typealias Result = SaliencyImageObservation
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision2 }
    public static let supportedRevisions: [Revision] = [.revision2]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision2 }

    public var descriptor: RequestDescriptor { .generateAttentionBasedSaliencyImageRequest(revision) }
    public var description: String { "GenerateAttentionBasedSaliencyImageRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNGenerateAttentionBasedSaliencyImageRequest()
        request.revision = VNGenerateAttentionBasedSaliencyImageRequestRevision2
        request.regionOfInterest = regionOfInterest.cgRect
        return request
    }

    func visionResult(_ result: Result) -> VisionResult { .generateAttentionBasedSaliencyImage(self, result) }
}

/// Makes a heat map of where an image's objects are (`GenerateObjectnessBasedSaliencyImageRequest`), as
/// `VNGenerateObjectnessBasedSaliencyImageRequest` does.
public struct GenerateObjectnessBasedSaliencyImageRequest: ImageProcessingRequest, SaliencyRequestValue {
    public typealias Result = SaliencyImageObservation
    public enum Revision: Comparable, Hashable, Sendable, Codable { case revision2 }
    public static let supportedRevisions: [Revision] = [.revision2]

    public let revision: Revision
    public var regionOfInterest = NormalizedRect.fullImage

    public init(_ revision: Revision? = nil) { self.revision = revision ?? .revision2 }

    public var descriptor: RequestDescriptor { .generateObjectnessBasedSaliencyImageRequest(revision) }
    public var description: String { "GenerateObjectnessBasedSaliencyImageRequest(\(revision))" }

    func classicRequest() -> VNImageBasedRequest {
        let request = VNGenerateObjectnessBasedSaliencyImageRequest()
        request.revision = VNGenerateObjectnessBasedSaliencyImageRequestRevision2
        request.regionOfInterest = regionOfInterest.cgRect
        return request
    }

    func visionResult(_ result: Result) -> VisionResult { .generateObjectnessBasedSaliencyImage(self, result) }
}

/// The two saliency requests: each makes one map.
protocol SaliencyRequestValue: ClassicBackedRequest where Result == SaliencyImageObservation {}

extension SaliencyRequestValue {
    func result(from observations: [VNObservation]) throws -> Result {
        guard let map = observations.first as? VNSaliencyImageObservation else {
            throw VisionError.internalError("\(self) made no map.")
        }
        return SaliencyImageObservation(map, descriptor: descriptor)
    }
}

/// A saliency heat map (`SaliencyImageObservation`): the map, and the regions of it that stand out, normalised to
/// the request's region of interest with the origin at the lower left.
public struct SaliencyImageObservation: VisionObservation {
    public let salientObjects: [RectangleObservation]
    public let heatMap: PixelBufferObservation
    public let uuid: UUID
    public let confidence: Float
    public let timeRange: CMTimeRange?
    public let originatingRequestDescriptor: RequestDescriptor?

    /// The observation of the `VN…` interface in this one's form.
    public init(_ observation: VNSaliencyImageObservation) {
        self.init(observation, descriptor: nil)
    }

    init(_ observation: VNSaliencyImageObservation, descriptor: RequestDescriptor?) {
        salientObjects = (observation.salientObjects ?? []).map { RectangleObservation($0, descriptor: descriptor) }
        heatMap = PixelBufferObservation(observation.pixelBuffer, descriptor: descriptor)
        uuid = observation.uuid
        confidence = observation.confidence
        timeRange = nil
        originatingRequestDescriptor = descriptor
    }

    public var description: String { "SaliencyImageObservation(\(salientObjects.count) salient objects)" }
}

/// An image a request made (`PixelBufferObservation`), such as a heat map of one float a pixel.
public struct PixelBufferObservation: VisionObservation, @unchecked Sendable {
    private let buffer: CVPixelBuffer
    public let uuid: UUID
    public let confidence: Float = 1
    public let timeRange: CMTimeRange? = nil
    public let originatingRequestDescriptor: RequestDescriptor?

    init(_ buffer: CVPixelBuffer, descriptor: RequestDescriptor?) {
        self.buffer = buffer
        uuid = UUID()
        originatingRequestDescriptor = descriptor
    }

    /// The image's size in pixels.
    public var size: CGSize {
        CGSize(width: CVPixelBufferGetWidth(buffer), height: CVPixelBufferGetHeight(buffer))
    }

    /// The image's pixel format (`kCVPixelFormatType_OneComponent32Float` for a heat map).
    public var pixelFormat: OSType { CVPixelBufferGetPixelFormatType(buffer) }

    /// The image as a bitmap, rendered by Core Image.
    public var cgImage: CGImage {
        get throws {
            let image = CIImage(cvPixelBuffer: buffer)
            guard let made = CIContext().createCGImage(image, from: image.extent) else {
                throw VisionError.invalidFormat("The observation's image could not be made into a CGImage.")
            }
            return made
        }
    }

    /// The value of a one-float image at a point normalised with the origin at the lower left (the pixel it falls
    /// in); 0 for an image of another format.
    public func pixel(at point: NormalizedPoint) -> Float {
        guard pixelFormat == kCVPixelFormatType_OneComponent32Float else { return 0 }
        let (width, height) = (CVPixelBufferGetWidth(buffer), CVPixelBufferGetHeight(buffer))
        let x = min(max(Int(point.x * CGFloat(width)), 0), width - 1)
        let row = min(max(Int((1 - point.y) * CGFloat(height)), 0), height - 1)
        let stride = CVPixelBufferGetBytesPerRow(buffer)
        return withUnsafePointer { base in base.load(fromByteOffset: row * stride + 4 * x, as: Float.self) }
    }

    /// Runs `body` with the image's first byte, its rows `CVPixelBufferGetBytesPerRow` apart.
    public func withUnsafePointer<R>(_ body: (UnsafeRawPointer) -> R) -> R {
        CVPixelBufferLockBaseAddress(buffer, .readOnly)
        defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
        guard let base = CVPixelBufferGetBaseAddress(buffer) else { return body(Self.noPixels) }
        return body(UnsafeRawPointer(base))
    }

    /// What a buffer without memory reads as: a few zero bytes.
    nonisolated(unsafe) private static let noPixels: UnsafeRawPointer = {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 16)
        return UnsafeRawPointer(bytes)
    }()

    public static func == (a: Self, b: Self) -> Bool { a.uuid == b.uuid }
    public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }

    public var description: String { "PixelBufferObservation(\(Int(size.width)) × \(Int(size.height)))" }
}
