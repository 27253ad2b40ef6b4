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
        let pair = try WorkingPair(reference: reference, floating: floating, region: roi, workingSize: workingSize)
        let shift = FrameRegistration.translation(
            reference: pair.reference.packedElements, moving: pair.floating.packedElements, width: pair.width,
            height: pair.height, maximumShift: Double(min(pair.width, pair.height)) / 2)
        // moving(x + d) ≈ reference(x): the floating image's content lies d further along, so it moves back by d;
        // in pixels of the full image, with y counting up from each image's bottom edge as Core Image's does.
        let scale = Double(pair.factor)
        let rise = Double(pair.referenceHeight - pair.floatingHeight)
        return CGAffineTransform(translationX: -shift.x * scale, y: shift.y * scale + rise)
    }
}

/// The two images of a registration as it compares them: both regions' luma box-averaged by one whole factor (from
/// the larger region) to at most a working size, and brought to one size by repeating each copy's last column and
/// row out to the larger one's.
struct WorkingPair {
    let reference: PixelPlane<Float>
    let floating: PixelPlane<Float>
    let factor: Int
    /// The regions' heights in their images' pixels: y counted up starts at each one's own bottom edge.
    let referenceHeight: Int
    let floatingHeight: Int
    /// The floating copy's own size within the common one: beyond it, only its repeated edges.
    let floatingExtent: SIMD2<Int>
    var width: Int { reference.width }
    var height: Int { reference.height }

    init(reference: VisionImage, floating: VisionImage, region roi: CGRect, workingSize: Int) throws {
        let crops = [try reference.crop(roi), try floating.crop(roi)]
        let longest = crops.map { max($0.width, $0.height) }.max() ?? 1
        factor = max(1, (longest + workingSize - 1) / workingSize)
        let still = try reference.region(roi, workingSize: workingSize, minimumFactor: factor).plane
        let moved = try floating.region(roi, workingSize: workingSize, minimumFactor: factor).plane
        let (w, h) = (max(still.width, moved.width), max(still.height, moved.height))
        func padded(_ p: PixelPlane<Float>) -> PixelPlane<Float> {
            PixelPlane<Float>(width: w, height: h) { x, y, _ in p[min(x, p.width - 1), min(y, p.height - 1)] }
        }
        (self.reference, self.floating) = (padded(still), padded(moved))
        (referenceHeight, floatingHeight) = (crops[0].height, crops[1].height)
        floatingExtent = SIMD2(moved.width, moved.height)
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

    /// A frame is registered against the one before, so the first gives nothing.
    open override var minimumLatencyFrameCount: Int { 1 }

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
        let pair = try WorkingPair(reference: image, floating: floating, region: roi, workingSize: Self.workingSize)
        // The translation (floating moved back, y up, full pixels) as the first warp (reference → floating, y down,
        // working pixels): the floating image shows the reference's point x at x + d.
        let f = Double(pair.factor)
        let rise = Double(pair.referenceHeight - pair.floatingHeight)
        let d = SIMD2(-Double(shift.tx) / f, (Double(shift.ty) - rise) / f)
        let first = Homography(entries: [1, 0, d.x, 0, 1, d.y, 0, 0, 1])
        let warp = HomographyRegistration.refine(
            reference: pair.reference, moving: pair.floating, initial: first, movingExtent: pair.floatingExtent)
        // Reported the other way, floating → reference, in full-size pixels with y counting up.
        guard let back = warp.inverse else {
            throw VisionFailure.error(.operationFailed, "The images could not be registered.")
        }
        // y up ↔ y down over each region's own height.
        func flip(_ height: Int) -> Homography { Homography(entries: [1, 0, 0, 0, -1, Double(height), 0, 0, 1]) }
        let scale = Homography(entries: [f, 0, 0, 0, f, 0, 0, 0, 1])
        guard let unscale = scale.inverse else { return [] }
        let full = flip(pair.referenceHeight).concatenating(scale).concatenating(back).concatenating(unscale)
            .concatenating(flip(pair.floatingHeight))
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
