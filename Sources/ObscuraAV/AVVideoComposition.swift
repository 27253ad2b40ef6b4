import Foundation
import Imaging

/// What a video composition's instruction tells the compositor (AVFoundation's
/// `AVVideoCompositionInstructionProtocol`): the time it covers and the tracks it needs.
public protocol AVVideoCompositionInstructionProtocol: AnyObject {
    /// The composition time the instruction covers.
    var timeRange: CMTimeRange { get }
    /// Whether the frames go through post-processing (an animation tool's layers); nothing is post-processed here.
    var enablePostProcessing: Bool { get }
    /// Whether frames change while the sources hold still (ramps, a filter that follows time).
    var containsTweening: Bool { get }
    /// The tracks the instruction composes, as numbers; nil for every track.
    var requiredSourceTrackIDs: [NSValue]? { get }
    /// A track whose frames pass through unchanged, `kCMPersistentTrackID_Invalid` for none.
    var passthroughTrackID: CMPersistentTrackID { get }
}

/// One stretch of a video composition (AVFoundation's `AVVideoCompositionInstruction`): over `timeRange`, the layers
/// drawn over the background colour, the first layer on top (Capture rules §25 rule 16).
open class AVVideoCompositionInstruction: NSObject, AVVideoCompositionInstructionProtocol, NSCopying,
    NSMutableCopying, @unchecked Sendable
{
    let lock = NSLock()
    var range = CMTimeRange.invalid
    var background: CGColor?
    var layers: [AVVideoCompositionLayerInstruction] = []
    var postProcessing = true

    public required override init() { super.init() }

    /// The composition time covered.
    open var timeRange: CMTimeRange { lock.withLock { range } }
    /// The colour under the layers; nil means opaque black.
    open var backgroundColor: CGColor? { lock.withLock { background } }
    /// The layers, the first on top.
    open var layerInstructions: [AVVideoCompositionLayerInstruction] { lock.withLock { layers } }
    /// Whether an animation tool's layers are drawn over the frames (true by default).
    open var enablePostProcessing: Bool { lock.withLock { postProcessing } }
    /// True: the layers' ramps may change a frame while its sources hold still.
    open var containsTweening: Bool { true }
    /// The layers' tracks.
    open var requiredSourceTrackIDs: [NSValue]? { layerInstructions.map { NSNumber(value: $0.trackID) } }
    /// None: every frame is composed.
    open var passthroughTrackID: CMPersistentTrackID { kCMPersistentTrackID_Invalid }

    public func copy(with zone: NSZone? = nil) -> Any { copy(as: AVVideoCompositionInstruction.self) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copy(as: AVMutableVideoCompositionInstruction.self) }

    /// A copy of the kind asked for, its layer instructions copied too.
    func copy<T: AVVideoCompositionInstruction>(as type: T.Type) -> T {
        let copy = T()
        lock.withLock {
            (copy.range, copy.background, copy.postProcessing) = (range, background, postProcessing)
            copy.layers = layers.map { $0.copy(as: AVVideoCompositionLayerInstruction.self) }
        }
        return copy
    }
}

/// An instruction apps build (AVFoundation's `AVMutableVideoCompositionInstruction`).
open class AVMutableVideoCompositionInstruction: AVVideoCompositionInstruction, @unchecked Sendable {
    public required init() { super.init() }

    override open var timeRange: CMTimeRange {
        get { super.timeRange }
        set { lock.withLock { range = newValue } }
    }
    override open var backgroundColor: CGColor? {
        get { super.backgroundColor }
        set { lock.withLock { background = newValue } }
    }
    override open var layerInstructions: [AVVideoCompositionLayerInstruction] {
        get { super.layerInstructions }
        set { lock.withLock { layers = newValue } }
    }
    override open var enablePostProcessing: Bool {
        get { super.enablePostProcessing }
        set { lock.withLock { postProcessing = newValue } }
    }
}

/// How one track is drawn within an instruction (AVFoundation's `AVVideoCompositionLayerInstruction`): its
/// transform from the track's pixels to the render's, its opacity and its crop, each held or ramped over time
/// (Capture rules §25 rule 16).
open class AVVideoCompositionLayerInstruction: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let lock = NSLock()
    var track = kCMPersistentTrackID_Invalid
    var transforms = Ramps<CGAffineTransform>(initial: .identity)
    var opacities = Ramps<Float>(initial: 1)
    var crops = Ramps<CGRect>(initial: .infinite)

    public required override init() { super.init() }

    /// The track drawn.
    open var trackID: CMPersistentTrackID { lock.withLock { track } }

    /// The transform at `time`: the ramp (or held value) that covers it, with the range it covers; false past the
    /// last ramp's end, where the last value holds.
    open func getTransformRamp(
        for time: CMTime, start startTransform: UnsafeMutablePointer<CGAffineTransform>?,
        end endTransform: UnsafeMutablePointer<CGAffineTransform>?, timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        lock.withLock { transforms }.ramp(at: time, start: startTransform, end: endTransform, range: timeRange)
    }

    /// The opacity at `time`, as `getTransformRamp` gives the transform.
    open func getOpacityRamp(
        for time: CMTime, startOpacity: UnsafeMutablePointer<Float>?, endOpacity: UnsafeMutablePointer<Float>?,
        timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        lock.withLock { opacities }.ramp(at: time, start: startOpacity, end: endOpacity, range: timeRange)
    }

    /// The crop at `time`, as `getTransformRamp` gives the transform (`CGRect.infinite` before any: no crop).
    open func getCropRectangleRamp(
        for time: CMTime, startCropRectangle: UnsafeMutablePointer<CGRect>?,
        endCropRectangle: UnsafeMutablePointer<CGRect>?, timeRange: UnsafeMutablePointer<CMTimeRange>?
    ) -> Bool {
        lock.withLock { crops }.ramp(at: time, start: startCropRectangle, end: endCropRectangle, range: timeRange)
    }

    public func copy(with zone: NSZone? = nil) -> Any { copy(as: AVVideoCompositionLayerInstruction.self) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any {
        copy(as: AVMutableVideoCompositionLayerInstruction.self)
    }

    /// A copy of the kind asked for.
    func copy<T: AVVideoCompositionLayerInstruction>(as type: T.Type) -> T {
        let copy = T()
        lock.withLock {
            (copy.track, copy.transforms, copy.opacities, copy.crops) = (track, transforms, opacities, crops)
        }
        return copy
    }
}

/// A layer instruction apps build (AVFoundation's `AVMutableVideoCompositionLayerInstruction`). A value set at a
/// time holds until the next value or ramp; before the first, the transform is the identity (not the track's
/// `preferredTransform`: apps set that themselves), the opacity 1 and the crop none.
open class AVMutableVideoCompositionLayerInstruction: AVVideoCompositionLayerInstruction, @unchecked Sendable {
    public required init() { super.init() }

    /// A layer instruction drawing `track`.
    public convenience init(assetTrack track: AVAssetTrack) {
        self.init()
        self.track = track.trackID
    }

    override open var trackID: CMPersistentTrackID {
        get { super.trackID }
        set { lock.withLock { track = newValue } }
    }

    /// Holds `transform` from `time` on.
    open func setTransform(_ transform: CGAffineTransform, at time: CMTime) {
        lock.withLock { transforms.set(transform, at: time) }
    }

    /// Moves the transform linearly from `startTransform` to `endTransform` over `timeRange`.
    open func setTransformRamp(
        fromStart startTransform: CGAffineTransform, toEnd endTransform: CGAffineTransform, timeRange: CMTimeRange
    ) {
        lock.withLock { transforms.ramp(from: startTransform, to: endTransform, over: timeRange) }
    }

    /// Holds `opacity` (0…1) from `time` on.
    open func setOpacity(_ opacity: Float, at time: CMTime) {
        lock.withLock { opacities.set(opacity, at: time) }
    }

    /// Moves the opacity linearly over `timeRange`, as a cross-fade does.
    open func setOpacityRamp(
        fromStartOpacity startOpacity: Float, toEndOpacity endOpacity: Float, timeRange: CMTimeRange
    ) {
        lock.withLock { opacities.ramp(from: startOpacity, to: endOpacity, over: timeRange) }
    }

    /// Holds `cropRectangle`, in the track's pixels, from `time` on: what lies outside it is not drawn.
    open func setCropRectangle(_ cropRectangle: CGRect, at time: CMTime) {
        lock.withLock { crops.set(cropRectangle, at: time) }
    }

    /// Moves the crop linearly over `timeRange`.
    open func setCropRectangleRamp(
        fromStartCropRectangle startCropRectangle: CGRect, toEndCropRectangle endCropRectangle: CGRect,
        timeRange: CMTimeRange
    ) {
        lock.withLock { crops.ramp(from: startCropRectangle, to: endCropRectangle, over: timeRange) }
    }
}

/// How a movie's video tracks become the frames an export, a player, an image generator or a reader gives
/// (AVFoundation's `AVVideoComposition`, Capture rules §25 rule 16): frames of `renderSize` every `frameDuration`,
/// each drawn by the instruction that covers its time, or by a Core Image handler
/// (`init(asset:applyingCIFiltersWithHandler:)`, with `import CoreImage`).
open class AVVideoComposition: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    let lock = NSLock()
    var settings = Settings()

    /// What a composition holds.
    struct Settings {
        var frameDuration = CMTime.zero
        var renderSize = CGSize.zero
        var renderScale: Float = 1
        var instructions: [any AVVideoCompositionInstructionProtocol] = []
        var sourceTrackIDForFrameTiming = kCMPersistentTrackID_Invalid
        var colorPrimaries: String?, colorTransferFunction: String?, colorYCbCrMatrix: String?
        /// The Core Image handler's frame filter, set by the CoreImage module; nil for instructions.
        var filter: FrameFilter?
    }

    /// A Core Image handler as the compositor calls it: the source frame (BGRA, the track's turn applied) and its
    /// composition time in, the filtered frame (BGRA, `renderSize`) out.
    package typealias FrameFilter = @Sendable (CVPixelBuffer, CMTime) throws -> CVPixelBuffer

    /// An empty composition: zero frame duration and render size, no instructions (set them on the mutable kind).
    public required override init() { super.init() }

    /// A composition that shows `asset`'s video tracks as a player would: each track turned by its
    /// `preferredTransform`, the first on top, over the asset's duration; frames at the highest nominal frame rate
    /// of its tracks (30 fps where none gives one), of the size that holds every turned track (a composition's
    /// `naturalSize` for an `AVComposition`).
    public convenience init(propertiesOf asset: AVAsset) {
        self.init()
        settings = Self.properties(of: asset)
    }

    /// `init(propertiesOf:)`, as iOS 16's asynchronous form.
    public class func videoComposition(withPropertiesOf asset: AVAsset) async throws -> Self {
        let composition = Self()
        composition.settings = properties(of: asset)
        return composition
    }

    /// `init(propertiesOf:)`, handed to `completionHandler`.
    public class func videoComposition(
        withPropertiesOf asset: AVAsset,
        completionHandler: @escaping @Sendable (AVVideoComposition?, (any Error)?) -> Void
    ) {
        let composition = Self()
        composition.settings = properties(of: asset)
        DispatchQueue.global().async { completionHandler(composition, nil) }
    }

    /// How long each frame lasts.
    open var frameDuration: CMTime { lock.withLock { settings.frameDuration } }
    /// The frames' size, pixels.
    open var renderSize: CGSize { lock.withLock { settings.renderSize } }
    /// The scale frames are rendered at for playback (1).
    open var renderScale: Float { lock.withLock { settings.renderScale } }
    /// The instructions, in time order.
    open var instructions: [any AVVideoCompositionInstructionProtocol] { lock.withLock { settings.instructions } }
    /// The track whose frame times the composition would follow; frames here come every `frameDuration`.
    open var sourceTrackIDForFrameTiming: CMPersistentTrackID {
        lock.withLock { settings.sourceTrackIDForFrameTiming }
    }
    /// The colour primaries asked of the frames (nil: the sources'); frames here are 8-bit sRGB whatever they say.
    open var colorPrimaries: String? { lock.withLock { settings.colorPrimaries } }
    /// The transfer function asked of the frames, as `colorPrimaries`.
    open var colorTransferFunction: String? { lock.withLock { settings.colorTransferFunction } }
    /// The Y'CbCr matrix asked of the frames, as `colorPrimaries`.
    open var colorYCbCrMatrix: String? { lock.withLock { settings.colorYCbCrMatrix } }

    /// Makes this composition one that calls `filter` for every frame of `asset` (the CoreImage module's handler
    /// initialisers build on it): `init(propertiesOf:)`'s settings, at the size the first enabled video track turns
    /// to, which is the picture the handler sees.
    package func filter(_ asset: AVAsset, with filter: @escaping FrameFilter) {
        var settings = Self.properties(of: asset)
        if let track = asset.tracks(withMediaType: .video).first(where: \.isEnabled) {
            let size = track.naturalSize.applying(track.preferredTransform)
            settings.renderSize = CGSize(width: abs(size.width), height: abs(size.height))
        }
        settings.filter = filter
        lock.withLock { self.settings = settings }
    }

    /// Whether the composition can compose `asset` over `timeRange`: its instructions follow one another without
    /// overlap or gap from the range's start to its end, their layers draw tracks of the asset, and its render
    /// size and frame duration are positive (Capture rules §25 rule 16). Each fault found is reported to
    /// `validationDelegate`, which may stop the check by answering false.
    open func isValid(
        for asset: AVAsset?, timeRange: CMTimeRange, validationDelegate: (any AVVideoCompositionValidationHandling)?
    ) -> Bool {
        let faults = VideoCompositionPlan(self).faults(asset: asset, range: timeRange)
        for fault in faults {
            guard let validationDelegate else { break }
            let goOn: Bool
            switch fault {
            case .value(let key):
                goOn = validationDelegate.videoComposition(
                    self, shouldContinueValidatingAfterFindingInvalidValueForKey: key)
            case .gap(let range):
                goOn = validationDelegate.videoComposition(
                    self, shouldContinueValidatingAfterFindingEmptyTimeRange: range)
            case .instruction(let instruction):
                goOn = validationDelegate.videoComposition(
                    self, shouldContinueValidatingAfterFindingInvalidTimeRangeIn: instruction)
            case .track(let instruction, let layer, let asset):
                goOn = validationDelegate.videoComposition(
                    self, shouldContinueValidatingAfterFindingInvalidTrackIDIn: instruction, layerInstruction: layer,
                    asset: asset)
            }
            if !goOn { break }
        }
        return faults.isEmpty
    }

    public func copy(with zone: NSZone? = nil) -> Any { copy(as: AVVideoComposition.self) }
    public func mutableCopy(with zone: NSZone? = nil) -> Any { copy(as: AVMutableVideoComposition.self) }

    /// A copy of the kind asked for, as consumers keep one.
    func copy<T: AVVideoComposition>(as type: T.Type) -> T {
        let copy = T()
        var settings = lock.withLock { self.settings }
        // The instructions are copied too, so that the app's later changes to them do not reach the copy.
        settings.instructions = settings.instructions.map {
            ($0 as? AVVideoCompositionInstruction)?.copy(as: AVVideoCompositionInstruction.self) ?? $0
        }
        copy.settings = settings
        return copy
    }

    /// The settings `init(propertiesOf:)` gives.
    static func properties(of asset: AVAsset) -> Settings {
        var settings = Settings()
        let tracks = asset.tracks(withMediaType: .video).filter(\.isEnabled)
        let fastest = tracks.map(\.nominalFrameRate).max() ?? 0
        settings.frameDuration =
            fastest > 0
            ? CMTime(value: 1, timescale: CMTimeScale(fastest.rounded()))
            : CMTime(
                value: 1, timescale: 30)
        if tracks.count == 1 { settings.sourceTrackIDForFrameTiming = tracks[0].trackID }
        var bounds = CGRect.null
        for track in tracks {
            bounds = bounds.union(CGRect(origin: .zero, size: track.naturalSize).applying(track.preferredTransform))
        }
        settings.renderSize = bounds.isNull ? .zero : CGSize(width: bounds.width, height: bounds.height)
        if let composition = asset as? AVComposition, composition.naturalSize != .zero {
            settings.renderSize = composition.naturalSize
        }
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: .zero, duration: asset.duration)
        instruction.layerInstructions = tracks.map { track in
            let layer = AVMutableVideoCompositionLayerInstruction(assetTrack: track)
            layer.setTransform(track.preferredTransform, at: .zero)
            return layer
        }
        settings.instructions = [instruction]
        return settings
    }
}

/// A composition apps build (AVFoundation's `AVMutableVideoComposition`).
open class AVMutableVideoComposition: AVVideoComposition, @unchecked Sendable {
    public required init() { super.init() }

    override open var frameDuration: CMTime {
        get { super.frameDuration }
        set { lock.withLock { settings.frameDuration = newValue } }
    }
    override open var renderSize: CGSize {
        get { super.renderSize }
        set { lock.withLock { settings.renderSize = newValue } }
    }
    override open var renderScale: Float {
        get { super.renderScale }
        set { lock.withLock { settings.renderScale = newValue } }
    }
    override open var instructions: [any AVVideoCompositionInstructionProtocol] {
        get { super.instructions }
        set { lock.withLock { settings.instructions = newValue } }
    }
    override open var sourceTrackIDForFrameTiming: CMPersistentTrackID {
        get { super.sourceTrackIDForFrameTiming }
        set { lock.withLock { settings.sourceTrackIDForFrameTiming = newValue } }
    }
    override open var colorPrimaries: String? {
        get { super.colorPrimaries }
        set { lock.withLock { settings.colorPrimaries = newValue } }
    }
    override open var colorTransferFunction: String? {
        get { super.colorTransferFunction }
        set { lock.withLock { settings.colorTransferFunction = newValue } }
    }
    override open var colorYCbCrMatrix: String? {
        get { super.colorYCbCrMatrix }
        set { lock.withLock { settings.colorYCbCrMatrix = newValue } }
    }
}

/// What `AVVideoComposition.isValid(for:timeRange:validationDelegate:)` reports each fault to (AVFoundation's
/// `AVVideoCompositionValidationHandling`); every method answers whether to go on, true by default.
public protocol AVVideoCompositionValidationHandling: AnyObject {
    func videoComposition(
        _ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String
    ) -> Bool
    func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange
    ) -> Bool
    func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction:
            any AVVideoCompositionInstructionProtocol
    ) -> Bool
    func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction:
            any AVVideoCompositionInstructionProtocol,
        layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset
    ) -> Bool
}

extension AVVideoCompositionValidationHandling {
    public func videoComposition(
        _ videoComposition: AVVideoComposition, shouldContinueValidatingAfterFindingInvalidValueForKey key: String
    ) -> Bool { true }
    public func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingEmptyTimeRange timeRange: CMTimeRange
    ) -> Bool { true }
    public func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTimeRangeIn videoCompositionInstruction:
            any AVVideoCompositionInstructionProtocol
    ) -> Bool { true }
    public func videoComposition(
        _ videoComposition: AVVideoComposition,
        shouldContinueValidatingAfterFindingInvalidTrackIDIn videoCompositionInstruction:
            any AVVideoCompositionInstructionProtocol,
        layerInstruction: AVVideoCompositionLayerInstruction, asset: AVAsset
    ) -> Bool { true }
}
