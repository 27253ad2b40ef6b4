import Foundation
import Imaging

/// The frames of a video composition over some of an asset's video tracks (AVFoundation's
/// `AVAssetReaderVideoCompositionOutput`, Capture rules §25 rules 6–8 and 16): one frame every `frameDuration`, of
/// the composition's `renderSize`, in pixel buffers of the format `videoSettings` names (as
/// `AVAssetReaderTrackOutput`'s: 32-bit BGRA, half-float RGBA, 4:2:0 Y'CbCr; BGRA when it names none).
open class AVAssetReaderVideoCompositionOutput: AVAssetReaderOutput, @unchecked Sendable {
    /// The tracks composed.
    public let videoTracks: [AVAssetTrack]
    /// The pixel buffer attributes asked for.
    public let videoSettings: [String: Any]?
    private var composition: AVVideoComposition?
    private var decoding: TrackDecoding?

    /// An output composing `videoTracks` (of one asset) with `videoSettings`; set `videoComposition` before reading.
    public init(videoTracks: [AVAssetTrack], videoSettings: [String: Any]?) {
        self.videoTracks = videoTracks
        self.videoSettings = videoSettings
        super.init()
    }

    override var source: AVAssetTrack? { videoTracks.first }

    override open var mediaType: AVMediaType { .video }

    /// The composition applied; set before reading starts (rule 6). Reading fails without one.
    open var videoComposition: AVVideoComposition? {
        get { lock.withLock { composition } }
        set {
            raiseIfStarted("-[AVAssetReaderVideoCompositionOutput setVideoComposition:]")
            let copy = newValue?.copy(as: AVVideoComposition.self)
            lock.withLock { composition = copy }
        }
    }

    /// No custom compositor is offered: the built-in one composes.
    open var customVideoCompositor: (any AnyObject)? { nil }

    override var isFinished: Bool { lock.withLock { decoding?.isFinished ?? false } }

    override func prepare(range: CMTimeRange) throws {
        guard let asset = videoTracks.first?.asset, (try? asset.contents.get()) != nil else {
            throw AVAssetReaderTrackOutput.unsupported("the movie can no longer be read")
        }
        guard let composition = videoComposition else {
            throw AVError(
                .invalidVideoComposition,
                userInfo: [NSLocalizedFailureReasonErrorKey: "the output has no videoComposition"])
        }
        let plan = VideoCompositionPlan(composition)
        try plan.check(asset: asset, range: range)
        let key = kCVPixelBufferPixelFormatTypeKey as String
        let asked =
            (videoSettings?[key] as? [Any]) ?? [videoSettings?[key] ?? NSNumber(value: kCVPixelFormatType_32BGRA)]
        let formats = asked.compactMap { ($0 as? NSNumber)?.uint32Value ?? ($0 as? OSType) }
        guard let format = formats.first(where: VideoUnits.decodes) else {
            throw AVAssetReaderTrackOutput.unsupported("no pixel format asked for is made here: \(formats)")
        }
        let start = range.start.isNumeric ? max(range.start.seconds, 0) : 0
        let decoding = try TrackDecoding(range: range, final: !supportsRandomAccess) {
            VideoUnits(
                pictures: ComposedFrames(plan: plan, asset: asset, from: start), step: plan.frameDuration.seconds,
                format: format)
        }
        lock.withLock { self.decoding = decoding }
    }

    override open func copyNextSampleBuffer() -> CMSampleBuffer? {
        nextSample(
            of: lock.withLock { decoding }, method: "-[AVAssetReaderVideoCompositionOutput copyNextSampleBuffer]")
    }

    override open func markConfigurationAsFinal() { markFinal(lock.withLock { decoding }) }
}
