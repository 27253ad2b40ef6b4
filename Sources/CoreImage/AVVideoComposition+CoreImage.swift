import Foundation
import ObscuraAV

/// One frame of a video composition handed to a Core Image handler (AVFoundation's
/// `AVAsynchronousCIImageFilteringRequest`, Capture rules §25 rule 16): the first enabled video track's picture
/// turned by its `preferredTransform`, its composition time and the render size. The handler finishes it once, with
/// an image or an error, on any thread; the frame waits until it does.
open class AVAsynchronousCIImageFilteringRequest: NSObject, @unchecked Sendable {
    /// The frame's size, pixels.
    public let renderSize: CGSize
    /// The frame's composition time.
    public let compositionTime: CMTime
    /// The source picture, extent (0, 0) to the render size.
    public let sourceImage: CIImage
    private let lock = NSLock()
    private let finished = DispatchSemaphore(value: 0)
    private var outcome: Result<(CIImage, CIContext?), any Error>?

    init(renderSize: CGSize, compositionTime: CMTime, sourceImage: CIImage) {
        self.renderSize = renderSize
        self.compositionTime = compositionTime
        self.sourceImage = sourceImage
        super.init()
    }

    /// Hands back the filtered picture, rendered over the frame's rectangle with `context` (a context of its own
    /// when nil). Passing `sourceImage` leaves the frame as it was.
    open func finish(with filteredImage: CIImage, context: CIContext?) {
        finish(.success((filteredImage, context)))
    }

    /// Says the frame could not be filtered: what composes it (an export, a reader) fails.
    open func finish(with error: any Error) {
        finish(.failure(error))
    }

    private func finish(_ result: Result<(CIImage, CIContext?), any Error>) {
        let first = lock.withLock { () -> Bool in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { finished.signal() }
    }

    /// The filtered frame as a BGRA buffer of the render size, once the handler has finished the request.
    func filtered() throws -> CVPixelBuffer {
        finished.wait()
        guard let outcome = lock.withLock({ outcome }) else { throw AVError(.invalidVideoComposition) }
        let (image, context) = try outcome.get()
        var buffer: CVPixelBuffer?
        let width = Int(renderSize.width.rounded()), height = Int(renderSize.height.rounded())
        guard
            CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_32BGRA, nil, &buffer)
                == kCVReturnSuccess, let buffer
        else { throw AVError(.invalidVideoComposition) }
        (context ?? CIContext()).render(image, to: buffer)
        return buffer
    }
}

extension AVVideoComposition {
    /// A composition that hands every frame of `asset` to `applier` (Capture rules §25 rule 16): the first enabled
    /// video track turned upright, at the asset's frame rate, the frame the size the track turns to.
    public convenience init(
        asset: AVAsset,
        applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void
    ) {
        self.init()
        filter(asset, with: Self.filter(applier))
    }

    /// `init(asset:applyingCIFiltersWithHandler:)`, as iOS 16's asynchronous form.
    public class func videoComposition(
        with asset: AVAsset,
        applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void
    ) async throws -> Self {
        let composition = Self()
        composition.filter(asset, with: filter(applier))
        return composition
    }

    /// `init(asset:applyingCIFiltersWithHandler:)`, handed to `completionHandler`.
    public class func videoComposition(
        with asset: AVAsset,
        applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void,
        completionHandler: @escaping @Sendable (AVVideoComposition?, (any Error)?) -> Void
    ) {
        let composition = Self()
        composition.filter(asset, with: filter(applier))
        DispatchQueue.global().async { completionHandler(composition, nil) }
    }

    /// The compositor's frame filter for a handler: the source buffer as a Core Image image, a request, the result.
    private static func filter(_ applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void)
        -> FrameFilter
    {
        { source, time in
            let request = AVAsynchronousCIImageFilteringRequest(
                renderSize: CGSize(width: CVPixelBufferGetWidth(source), height: CVPixelBufferGetHeight(source)),
                compositionTime: time, sourceImage: CIImage(cvPixelBuffer: source))
            applier(request)
            return try request.filtered()
        }
    }
}
