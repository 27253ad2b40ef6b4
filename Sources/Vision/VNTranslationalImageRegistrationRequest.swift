import CoreImage
import Foundation
import ISP
import Imaging
import ObscuraAV
import Synchronization

/// The first revision of translational registration (`VNTranslationalImageRegistrationRequestRevision1`).
public let VNTranslationalImageRegistrationRequestRevision1 = 1

/// The abstract base of requests that compare the handler's image with a second, targeted one
/// (`VNTargetedImageRequest`). The targeted image is read when the request is performed.
open class VNTargetedImageRequest: VNImageBasedRequest, @unchecked Sendable {
    let targeted: VisionImageSource
    let targetedOrientation: CGImagePropertyOrientation

    init(
        targeted: VisionImageSource, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any],
        completionHandler: VNRequestCompletionHandler?
    ) {
        (self.targeted, targetedOrientation) = (targeted, orientation)
        super.init(completionHandler: completionHandler)
    }

    /// The targeted image as a request sees it.
    func targetedImage() throws -> VisionImage { try VisionImage(source: targeted, orientation: targetedOrientation) }

    // MARK: Pixel buffers

    public convenience init(
        targetedCVPixelBuffer pixelBuffer: CVPixelBuffer, options: [VNImageOption: Any] = [:],
        completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(
            targeted: .pixelBuffer(pixelBuffer), orientation: .up, options: options,
            completionHandler: completionHandler)
    }

    public convenience init(
        targetedCVPixelBuffer pixelBuffer: CVPixelBuffer, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(
            targeted: .pixelBuffer(pixelBuffer), orientation: orientation, options: options,
            completionHandler: completionHandler)
    }

    // MARK: Bitmaps

    public convenience init(
        targetedCGImage cgImage: CGImage, options: [VNImageOption: Any] = [:],
        completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(targeted: .cgImage(cgImage), orientation: .up, options: options, completionHandler: completionHandler)
    }

    public convenience init(
        targetedCGImage cgImage: CGImage, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(
            targeted: .cgImage(cgImage), orientation: orientation, options: options,
            completionHandler: completionHandler)
    }

    // MARK: Core Image

    public convenience init(
        targetedCIImage ciImage: CIImage, options: [VNImageOption: Any] = [:],
        completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(targetedCIImage: ciImage, orientation: .up, options: options, completionHandler: completionHandler)
    }

    public convenience init(
        targetedCIImage ciImage: CIImage, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(
            targeted: .rendering(ciImage), orientation: orientation, options: options,
            completionHandler: completionHandler)
    }

    // MARK: Sample buffers

    public convenience init(
        targetedCMSampleBuffer sampleBuffer: CMSampleBuffer, options: [VNImageOption: Any] = [:],
        completionHandler: VNRequestCompletionHandler? = nil
    ) {
        self.init(
            targetedCMSampleBuffer: sampleBuffer, orientation: .up, options: options,
            completionHandler: completionHandler)
    }

    public convenience init(
        targetedCMSampleBuffer sampleBuffer: CMSampleBuffer, orientation: CGImagePropertyOrientation,
        options: [VNImageOption: Any] = [:], completionHandler: VNRequestCompletionHandler? = nil
    ) {
        let source: VisionImageSource =
            CMSampleBufferGetImageBuffer(sampleBuffer).map { .pixelBuffer($0) }
            ?? .plane(PixelPlane(width: 0, height: 0))
        self.init(targeted: source, orientation: orientation, options: options, completionHandler: completionHandler)
    }
}

/// The abstract base of the requests that align two images (`VNImageRegistrationRequest`).
open class VNImageRegistrationRequest: VNTargetedImageRequest, @unchecked Sendable {}

/// Finds the translation that aligns the targeted (floating) image with the handler's (reference) image
/// (`VNTranslationalImageRegistrationRequest`): one `VNImageTranslationAlignmentObservation` (spec §22.9).
///
/// Both images' luma, inside the same region of interest, are box-averaged by one whole factor to at most
/// `workingSize` pixels on the longer side, and registered by the translation search the Constant Color capture
/// aligns its two frames with (`FrameRegistration`: an exhaustive search on a pyramid's coarsest level, then
/// Lucas–Kanade refinement to a fraction of a pixel), over shifts up to half the smaller side.
open class VNTranslationalImageRegistrationRequest: VNImageRegistrationRequest, @unchecked Sendable {
    /// The longest side the two images are registered at (our choice).
    static let workingSize = 1024

    /// The alignment the last perform found, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNImageTranslationAlignmentObservation]? {
        super.results as? [VNImageTranslationAlignmentObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet(integer: VNTranslationalImageRegistrationRequestRevision1)
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        let transform = try Self.alignment(of: targetedImage(), with: image, region: regionOfInterest)
        return [VNImageTranslationAlignmentObservation(requestRevision: revision, alignmentTransform: transform)]
    }

    /// The translation that moves `floating` onto `reference`, in the reference's pixels with y counting up.
    static func alignment(of floating: VisionImage, with reference: VisionImage, region roi: CGRect) throws
        -> CGAffineTransform
    {
        // One factor for both, from the larger of the two regions.
        let crops = [try reference.crop(roi), try floating.crop(roi)]
        let longest = crops.map { max($0.width, $0.height) }.max() ?? 1
        let factor = max(1, (longest + workingSize - 1) / workingSize)
        let still = try reference.region(roi, workingSize: workingSize, minimumFactor: factor).plane
        let moved = try floating.region(roi, workingSize: workingSize, minimumFactor: factor).plane
        // A common size: each copy's last column and row repeated out to the larger one's.
        let (w, h) = (max(still.width, moved.width), max(still.height, moved.height))
        func padded(_ p: PixelPlane<Float>) -> [Float] {
            (0..<(w * h)).map { k in p[min(k % w, p.width - 1), min(k / w, p.height - 1)] }
        }
        let shift = FrameRegistration.translation(
            reference: padded(still), moving: padded(moved), width: w, height: h,
            maximumShift: Double(min(w, h)) / 2)
        // moving(x + d) ≈ reference(x): the floating image's content lies d further along, so it moves back by d;
        // in pixels of the full image, with y counting up as Core Image's does.
        let scale = Double(factor)
        return CGAffineTransform(translationX: -shift.x * scale, y: shift.y * scale)
    }
}

/// The abstract base of requests that keep what they saw of earlier frames (`VNStatefulRequest`), performed frame
/// after frame through one `VNSequenceRequestHandler`.
open class VNStatefulRequest: VNImageBasedRequest, @unchecked Sendable {
    /// How far apart in time the frames analysed are meant to be; kept, every frame given is analysed (our choice).
    public let frameAnalysisSpacing: CMTime
    /// How many frames a result lags behind the frame that completes it.
    open var minimumLatencyFrameCount: Int { 0 }
    /// The request's identity.
    public let requestUUID = UUID()

    public init(frameAnalysisSpacing: CMTime, completionHandler: VNRequestCompletionHandler?) {
        self.frameAnalysisSpacing = frameAnalysisSpacing
        super.init(completionHandler: completionHandler)
    }
}

/// Registers each frame against the one before (`VNTrackTranslationalImageRegistrationRequest`, iOS 17): the
/// translation that aligns the new frame with the previous, as `VNTranslationalImageRegistrationRequest` finds it
/// (spec §22.9 rule 33). The first frame has nothing before it and gives no observation.
open class VNTrackTranslationalImageRegistrationRequest: VNStatefulRequest, @unchecked Sendable {
    /// The last frame's luma, kept without the buffer it came from (a camera's buffers go back to its pool).
    private let previous = Mutex<VisionImage?>(nil)

    public convenience init() { self.init(completionHandler: nil) }

    public convenience init(completionHandler: VNRequestCompletionHandler?) {
        self.init(frameAnalysisSpacing: .zero, completionHandler: completionHandler)
    }

    /// The alignment the last perform found (none for the first frame), or nil before a perform and after a failed
    /// one.
    @_nonoverride public var results: [VNImageTranslationAlignmentObservation]? {
        super.results as? [VNImageTranslationAlignmentObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet(integer: VNTrackTranslationalImageRegistrationRequestRevision1)
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        var kept = image
        kept.source = nil
        guard
            let before = previous.withLock({ last in
                defer { last = kept }; return last
            })
        else { return [] }
        let transform = try VNTranslationalImageRegistrationRequest.alignment(
            of: image, with: before, region: regionOfInterest)
        return [VNImageTranslationAlignmentObservation(requestRevision: revision, alignmentTransform: transform)]
    }
}

/// The first revision of translational tracking (`VNTrackTranslationalImageRegistrationRequestRevision1`).
public let VNTrackTranslationalImageRegistrationRequestRevision1 = 1

/// What an image registration found (`VNImageAlignmentObservation`).
open class VNImageAlignmentObservation: VNObservation, @unchecked Sendable {}

/// The translation that aligns the floating image with the reference (`VNImageTranslationAlignmentObservation`).
open class VNImageTranslationAlignmentObservation: VNImageAlignmentObservation, @unchecked Sendable {
    /// A translation, in the reference image's pixels with y counting up (Core Image's coordinates), that moves the
    /// floating image onto the reference: `floating.transformed(by: alignmentTransform)` lines up with it.
    public let alignmentTransform: CGAffineTransform

    init(requestRevision: Int, alignmentTransform: CGAffineTransform) {
        self.alignmentTransform = alignmentTransform
        super.init(requestRevision: requestRevision, confidence: 1)
    }
}
