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

/// The first revision of homographic registration (`VNHomographicImageRegistrationRequestRevision1`).
public let VNHomographicImageRegistrationRequestRevision1 = 1

/// Finds the perspective warp that carries the targeted (floating) image onto the handler's (reference) image
/// (`VNHomographicImageRegistrationRequest`): one `VNImageHomographicAlignmentObservation` (spec §22.9 rule 34).
///
/// The translation `VNTranslationalImageRegistrationRequest` finds is the first guess; both images' luma, box-averaged
/// by one whole factor to at most `workingSize` pixels on the longer side, then refine it to a homography by
/// Lucas–Kanade iterations on a pyramid (`HomographyRegistration`).
open class VNHomographicImageRegistrationRequest: VNImageRegistrationRequest, @unchecked Sendable {
    /// The longest side the warp is refined at (our choice).
    static let workingSize = 512

    /// The warp the last perform found, or nil before a perform and after a failed one.
    @_nonoverride public var results: [VNImageHomographicAlignmentObservation]? {
        super.results as? [VNImageHomographicAlignmentObservation]
    }

    open override class var supportedRevisions: IndexSet {
        IndexSet(integer: VNHomographicImageRegistrationRequestRevision1)
    }

    override func observations(in image: VisionImage) throws -> [VNObservation] {
        let floating = try targetedImage()
        let roi = regionOfInterest
        let shift = try VNTranslationalImageRegistrationRequest.alignment(of: floating, with: image, region: roi)
        let crops = [try image.crop(roi), try floating.crop(roi)]
        let longest = crops.map { max($0.width, $0.height) }.max() ?? 1
        let factor = max(1, (longest + Self.workingSize - 1) / Self.workingSize)
        let reference = try image.region(roi, workingSize: Self.workingSize, minimumFactor: factor).plane
        let moving = try floating.region(roi, workingSize: Self.workingSize, minimumFactor: factor).plane
        guard reference.width == moving.width, reference.height == moving.height else {
            throw VisionFailure.error(
                .invalidArgument, "A homographic registration needs two images of one size (or regions of one size).")
        }
        // The translation (floating moved back, y up, full pixels) as the first warp (reference → floating, y down,
        // working pixels): the floating image shows the reference's point x at x + d.
        let f = Double(factor)
        let d = SIMD2(-Double(shift.tx) / f, Double(shift.ty) / f)
        let first = Homography(entries: [1, 0, d.x, 0, 1, d.y, 0, 0, 1])
        let warp = HomographyRegistration.refine(reference: reference, moving: moving, initial: first)
        // Reported the other way, floating → reference, in full-size pixels with y counting up.
        guard let back = warp.inverse else {
            throw VisionFailure.error(.operationFailed, "The images could not be registered.")
        }
        // y up ↔ y down over the region's height (rounding in the working copy aside, both images have it).
        let fullHeight = Double(crops[0].height)
        let flip = Homography(entries: [1, 0, 0, 0, -1, fullHeight, 0, 0, 1])
        let scale = Homography(entries: [f, 0, 0, 0, f, 0, 0, 0, 1])
        guard let unscale = scale.inverse else { return [] }
        let full = flip.concatenating(scale).concatenating(back).concatenating(unscale).concatenating(flip)
        let m = full.entries.map { $0 / full.entries[8] }
        let matrix = simd_float3x3(
            SIMD3(Float(m[0]), Float(m[3]), Float(m[6])), SIMD3(Float(m[1]), Float(m[4]), Float(m[7])),
            SIMD3(Float(m[2]), Float(m[5]), Float(m[8])))
        return [VNImageHomographicAlignmentObservation(requestRevision: revision, warpTransform: matrix)]
    }
}

/// The perspective warp that carries the floating image onto the reference (`VNImageHomographicAlignmentObservation`).
open class VNImageHomographicAlignmentObservation: VNImageAlignmentObservation, @unchecked Sendable {
    /// A 3 × 3 matrix (column-major, as simd's) mapping a point (x, y, 1) of the floating image, in pixels with y
    /// counting up, to the homogeneous coordinates of the same point in the reference.
    public let warpTransform: matrix_float3x3

    init(requestRevision: Int, warpTransform: matrix_float3x3) {
        self.warpTransform = warpTransform
        super.init(requestRevision: requestRevision, confidence: 1)
    }
}
