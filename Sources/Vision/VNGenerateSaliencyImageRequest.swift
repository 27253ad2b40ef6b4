import Foundation
import Imaging
import ObscuraAV

/// The first revision of attention-based saliency (`VNGenerateAttentionBasedSaliencyImageRequestRevision1`).
public let VNGenerateAttentionBasedSaliencyImageRequestRevision1 = 1
/// The second revision of attention-based saliency (iOS 17).
public let VNGenerateAttentionBasedSaliencyImageRequestRevision2 = 2
/// The first revision of objectness-based saliency (`VNGenerateObjectnessBasedSaliencyImageRequestRevision1`).
public let VNGenerateObjectnessBasedSaliencyImageRequestRevision1 = 1
/// The second revision of objectness-based saliency (iOS 17).
public let VNGenerateObjectnessBasedSaliencyImageRequestRevision2 = 2

/// Makes a heat map of where an image draws attention (`VNGenerateAttentionBasedSaliencyImageRequest`): one
/// `VNSaliencyImageObservation` whose pixel buffer is the map and whose `salientObjects` hold at most one region
/// (spec §22.7 rules 26 and 27).
///
/// The map is the objectness map of the picture's colour (`Saliency`), smoothed as fixations spread over an object
/// and weighed towards the picture's centre, where viewers look most; faces, text and meaning, which Apple's trained
/// model also weighs, do not count. Every revision runs the same model.
open class VNGenerateAttentionBasedSaliencyImageRequest: VNImageBasedRequest, @unchecked Sendable {
    /// The heat map the last perform made, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNSaliencyImageObservation]? {
        super.results as? [VNSaliencyImageObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet([
            VNGenerateAttentionBasedSaliencyImageRequestRevision1,
            VNGenerateAttentionBasedSaliencyImageRequestRevision2,
        ])
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        try [VNSaliencyImageObservation.made(.attention, of: image, region: regionOfInterest, revision: revision)]
    }
}

/// Makes a heat map of where an image's objects are (`VNGenerateObjectnessBasedSaliencyImageRequest`): one
/// `VNSaliencyImageObservation` whose pixel buffer is the map and whose `salientObjects` hold at most three regions
/// (spec §22.7 rules 25 and 27).
///
/// The map is Zhang and colleagues' minimum barrier distance of the picture's colour to its border (`Saliency`), so a
/// region set apart from everything around it, and clear of the picture's edges, is an object. Every revision runs
/// the same model.
open class VNGenerateObjectnessBasedSaliencyImageRequest: VNImageBasedRequest, @unchecked Sendable {
    /// The heat map the last perform made, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNSaliencyImageObservation]? {
        super.results as? [VNSaliencyImageObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet([
            VNGenerateObjectnessBasedSaliencyImageRequestRevision1,
            VNGenerateObjectnessBasedSaliencyImageRequestRevision2,
        ])
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        try [VNSaliencyImageObservation.made(.objectness, of: image, region: regionOfInterest, revision: revision)]
    }
}

/// An image a request produced (`VNPixelBufferObservation`).
open class VNPixelBufferObservation: VNObservation, @unchecked Sendable {
    /// The image.
    public let pixelBuffer: CVPixelBuffer
    /// The name of the model output the image came from; nil for the built-in requests.
    public let featureName: String?

    init(requestRevision: Int, pixelBuffer: CVPixelBuffer, featureName: String?) {
        self.pixelBuffer = pixelBuffer
        self.featureName = featureName
        super.init(requestRevision: requestRevision, confidence: 1)
    }
}

/// A saliency heat map (`VNSaliencyImageObservation`): a 68 × 68 buffer of one 32-bit float a pixel
/// (`kCVPixelFormatType_OneComponent32Float`), 0 where nothing stands out to 1 where the most does, over the
/// request's region of interest stretched to a square, top row first; and the regions that stand out.
open class VNSaliencyImageObservation: VNPixelBufferObservation, @unchecked Sendable {
    /// The regions of the map that stand out, as rectangles normalised to the region of interest with the origin at
    /// the bottom left, in no particular order (Apple promises none; here the most salient comes first).
    public let salientObjects: [VNRectangleObservation]?

    init(requestRevision: Int, pixelBuffer: CVPixelBuffer, salientObjects: [VNRectangleObservation]) {
        self.salientObjects = salientObjects
        super.init(requestRevision: requestRevision, pixelBuffer: pixelBuffer, featureName: nil)
    }

    /// The map of `kind` over `region` of `image`, with its regions: one for attention, up to three for objectness
    /// (the counts Apple's engineers gave when the requests were introduced).
    static func made(_ kind: Saliency.Kind, of image: VisionImage, region roi: CGRect, revision: Int) throws
        -> VNSaliencyImageObservation
    {
        // A working copy a few times finer than the map's own, averaged down by the map; in colour where the image
        // has it, as the metadata output's salient objects are found (spec §22.7 rule 25).
        let size = 4 * Saliency.workingSide
        let region = try image.colourRegion(roi, workingSize: size) ?? image.region(roi, workingSize: size)
        let map = Saliency.map(kind, of: region.plane)
        let side = SaliencyMap.side
        guard let buffer = CVPixelBuffer(width: side, height: side, pixelFormat: kCVPixelFormatType_OneComponent32Float)
        else { throw VisionFailure.error(.internalError, "The saliency heat map's buffer could not be made.") }
        let plane = buffer.planes[0]
        for y in 0..<side {
            let row = plane.base.advanced(by: y * plane.bytesPerRow).assumingMemoryBound(to: Float.self)
            for x in 0..<side { row[x] = map.values[y * side + x] }
        }
        let objects = map.regions(limit: kind == .attention ? 1 : 3).map { r in
            // Top-left origin to Vision's bottom-left (spec §22.1 rule 2).
            let (left, right) = (CGFloat(r.x), CGFloat(r.x + r.width))
            let (top, bottom) = (CGFloat(1 - r.y), CGFloat(1 - r.y - r.height))
            return VNRectangleObservation(
                requestRevision: revision, topLeft: CGPoint(x: left, y: top), topRight: CGPoint(x: right, y: top),
                bottomRight: CGPoint(x: right, y: bottom), bottomLeft: CGPoint(x: left, y: bottom),
                confidence: r.confidence)
        }
        return VNSaliencyImageObservation(requestRevision: revision, pixelBuffer: buffer, salientObjects: objects)
    }
}
