import Foundation
import Imaging

/// A movie's playback state (`AVPlayerItem`): where in the movie it is, whether it is ready, and the outputs that
/// take its pictures (Capture rules §25 rule 13).
///
/// Its time runs on the host clock while a player plays it: the item time at the last change of rate or position,
/// plus the host time since then times the rate.
open class AVPlayerItem: NSObject, @unchecked Sendable, _KeyValueCodingAndObserving, ObservationHost {
    /// Whether the item can be played (`AVPlayerItem.Status`).
    public enum Status: Int, Sendable {
        case unknown = 0
        case readyToPlay = 1
        case failed = 2
    }

    /// The movie played.
    public let asset: AVAsset
    let observers = ObserverRegistry()
    let lock = NSLock()
    private var state = Status.unknown
    private var failure: (any Error)?
    /// The item time at `anchorHost`, in seconds, and the rate it has moved at since.
    private var anchorTime = 0.0
    private var anchorHost = 0.0
    private var playRate = 0.0
    private var outputList: [AVPlayerItemOutput] = []
    private var composition: AVVideoComposition?
    private var mix: AVAudioMix?
    private var pitchAlgorithm = AVAudioTimePitchAlgorithm.timeDomain
    private var endTime = CMTime.invalid
    /// Whether a player has taken the item; it becomes ready (or fails) once one has.
    private var attached = false

    /// An item playing the movie at `url`.
    public convenience init(url URL: URL) {
        self.init(asset: AVURLAsset(url: URL))
    }

    /// An item playing `asset`.
    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// An item playing `asset`; the keys to load are all loaded with the asset here.
    public convenience init(asset: AVAsset, automaticallyLoadedAssetKeys: [AVPartialAsyncProperty<AVAsset>]) {
        self.init(asset: asset)
    }

    /// `.readyToPlay` once a player has taken the item and its movie could be read, `.failed` when it could not;
    /// key-value observable.
    open var status: Status { lock.withLock { state } }
    /// Why the item failed; nil otherwise.
    open var error: (any Error)? { lock.withLock { failure } }

    /// The movie's duration once the item is ready, `.indefinite` before.
    open var duration: CMTime { status == .readyToPlay ? asset.duration : .indefinite }

    /// How the video tracks become the pictures shown and given to video outputs (Capture rules §25 rule 16); nil
    /// shows the first video track. The item keeps a copy.
    open var videoComposition: AVVideoComposition? {
        get { lock.withLock { composition } }
        set {
            let copy = newValue?.copy(as: AVVideoComposition.self)
            lock.withLock { composition = copy }
        }
    }

    /// How loud each sound track would play (Capture rules §25 rule 17); the item keeps a copy, and no sound plays
    /// here (rule 13).
    open var audioMix: AVAudioMix? {
        get { lock.withLock { mix } }
        set {
            let copy = newValue?.copy(as: AVAudioMix.self)
            lock.withLock { mix = copy }
        }
    }

    /// How sound played at another rate would keep its pitch (`.timeDomain` by default); no sound plays here.
    open var audioTimePitchAlgorithm: AVAudioTimePitchAlgorithm {
        get { lock.withLock { pitchAlgorithm } }
        set { lock.withLock { pitchAlgorithm = newValue } }
    }

    /// The picture size as shown, the track's turn applied (a video composition's render size); zero until the item
    /// is ready.
    open var presentationSize: CGSize {
        guard status == .readyToPlay else { return .zero }
        if let composition = videoComposition { return composition.renderSize }
        guard let track = asset.tracks(withMediaType: .video).first else { return .zero }
        let size = track.naturalSize.applying(track.preferredTransform)
        return CGSize(width: abs(size.width), height: abs(size.height))
    }

    /// The whole movie once the item is ready: it is a local file.
    open var loadedTimeRanges: [NSValue] {
        status == .readyToPlay ? [NSValue(timeRange: CMTimeRange(start: .zero, duration: asset.duration))] : []
    }
    /// The whole movie once ready.
    open var seekableTimeRanges: [NSValue] { loadedTimeRanges }
    /// True once ready: a local file never stalls.
    open var isPlaybackLikelyToKeepUp: Bool { status == .readyToPlay }
    /// False: a local file's buffer is never empty.
    open var isPlaybackBufferEmpty: Bool { false }
    /// True once ready.
    open var isPlaybackBufferFull: Bool { status == .readyToPlay }
    /// Whether the item plays faster than real time, backwards, or slower: all true here.
    open var canPlayFastForward: Bool { true }
    open var canPlaySlowForward: Bool { true }
    open var canPlayReverse: Bool { true }
    open var canPlayFastReverse: Bool { true }
    open var canPlaySlowReverse: Bool { true }

    /// How far ahead the player would buffer, seconds (0, the default: its own choice); a local file needs none.
    open var preferredForwardBufferDuration: TimeInterval = 0
    /// The bit rate a streaming player would keep under (0: no limit); a local file plays whole.
    open var preferredPeakBitRate: Double = 0
    /// The same on expensive networks.
    open var preferredPeakBitRateForExpensiveNetworks: Double = 0
    /// The largest picture a streaming player would choose (zero: no limit).
    open var preferredMaximumResolution: CGSize = .zero
    /// Whether a paused live stream may keep loading; there are no live streams here.
    open var canUseNetworkResourcesForLiveStreamingWhilePaused = false
    /// Where reverse playback ends (`.invalid`: the movie's start).
    open var reversePlaybackEndTime = CMTime.invalid

    /// Where playback ends (`.invalid`, the default: the movie's end).
    open var forwardPlaybackEndTime: CMTime {
        get { lock.withLock { endTime } }
        set { lock.withLock { endTime = newValue } }
    }

    /// The item's current time.
    open func currentTime() -> CMTime {
        CMTime(seconds: lock.withLock { timeNow(host: Self.hostNow()) }, preferredTimescale: 600)
    }

    /// Moves the item to `time` (clipped to the movie) and calls `completionHandler` with true on another queue.
    open func seek(to time: CMTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        move(to: time)
        if let completionHandler { DispatchQueue.global().async { completionHandler(true) } }
    }

    /// The same, tolerances aside: the item lands exactly on `time`.
    open func seek(
        to time: CMTime, toleranceBefore: CMTime, toleranceAfter: CMTime,
        completionHandler: (@Sendable (Bool) -> Void)? = nil
    ) {
        seek(to: time, completionHandler: completionHandler)
    }

    /// The outputs taking the item's pictures.
    open var outputs: [AVPlayerItemOutput] { lock.withLock { outputList } }

    /// Adds an output; its pictures follow the item's time.
    open func add(_ output: AVPlayerItemOutput) {
        lock.withLock { if !outputList.contains(where: { $0 === output }) { outputList.append(output) } }
        output.item = self
    }

    /// Removes an output.
    open func remove(_ output: AVPlayerItemOutput) {
        lock.withLock { outputList.removeAll { $0 === output } }
        output.item = nil
    }

    /// A copy for another player, at the start (`AVPlayerLooper` plays copies of its template).
    func replica() -> AVPlayerItem {
        let copy = AVPlayerItem(asset: asset)
        copy.forwardPlaybackEndTime = forwardPlaybackEndTime
        copy.videoComposition = videoComposition
        copy.audioMix = audioMix
        return copy
    }

    // MARK: - What the player drives

    static func hostNow() -> Double { ProcessInfo.processInfo.systemUptime }

    /// The item time at host time `host`, clipped to the movie; called under the lock.
    private func timeNow(host: Double) -> Double {
        let t = anchorTime + (host - anchorHost) * playRate
        return min(max(t, 0), end)
    }

    /// Where playback stops going forward, seconds.
    var end: Double {
        let movie = max(asset.duration.isNumeric ? asset.duration.seconds : 0, 0)
        return endTime.isNumeric ? min(max(endTime.seconds, 0), movie) : movie
    }

    /// The item time at a host time, for the video output.
    func itemTime(atHost host: Double) -> Double { lock.withLock { timeNow(host: host) } }

    /// Moves at `rate` from now on.
    func setRate(_ rate: Double) {
        lock.withLock {
            let host = Self.hostNow()
            anchorTime = timeNow(host: host)
            anchorHost = host
            playRate = rate
        }
    }

    func move(to time: CMTime) {
        lock.withLock {
            anchorTime = time.isNumeric ? min(max(time.seconds, 0), end) : 0
            anchorHost = Self.hostNow()
        }
    }

    /// Taken by a player: the item reads its movie on another queue and reports ready or failed.
    func attach(then ready: @escaping @Sendable () -> Void) {
        let first = lock.withLock {
            defer { attached = true }
            return !attached
        }
        guard first else { return ready() }
        DispatchQueue.global().async { [self] in
            let outcome = asset.contents
            lock.withLock {
                switch outcome {
                case .success: state = .readyToPlay
                case let .failure(error):
                    state = .failed
                    failure = error
                }
            }
            observers.didChange(\AVPlayerItem.status)
            ready()
        }
    }

    /// `AVPlayerItem.didPlayToEndTimeNotification`: posted with the item as its object when it has played to its end.
    public static let didPlayToEndTimeNotification = Notification.Name("AVPlayerItemDidPlayToEndTimeNotification")
    /// Posted when an item could not play to its end.
    public static let failedToPlayToEndTimeNotification = Notification.Name(
        "AVPlayerItemFailedToPlayToEndTimeNotification")
    /// Posted when an item's time jumps (a seek).
    public static let timeJumpedNotification = Notification.Name("AVPlayerItemTimeJumpedNotification")
}

extension NSNotification.Name {
    /// The Objective-C spelling of `AVPlayerItem.didPlayToEndTimeNotification`.
    public static let AVPlayerItemDidPlayToEndTime = AVPlayerItem.didPlayToEndTimeNotification
    /// The Objective-C spelling of `AVPlayerItem.failedToPlayToEndTimeNotification`.
    public static let AVPlayerItemFailedToPlayToEndTime = AVPlayerItem.failedToPlayToEndTimeNotification
    /// The Objective-C spelling of `AVPlayerItem.timeJumpedNotification`.
    public static let AVPlayerItemTimeJumped = AVPlayerItem.timeJumpedNotification
}

/// Something that takes an item's media as it plays (`AVPlayerItemOutput`).
open class AVPlayerItemOutput: NSObject, @unchecked Sendable {
    private let itemLock = NSLock()
    private weak var owner: AVPlayerItem?

    /// The item the output was added to.
    var item: AVPlayerItem? {
        get { itemLock.withLock { owner } }
        set { itemLock.withLock { owner = newValue } }
    }

    /// Whether the player still shows the pictures (it shows none here either way).
    open var suppressesPlayerRendering = false

    /// The item time shown at a host time in seconds (`CACurrentMediaTime()`'s clock); invalid without an item.
    open func itemTime(forHostTime hostTimeInSeconds: CFTimeInterval) -> CMTime {
        guard let item else { return .invalid }
        return CMTime(seconds: item.itemTime(atHost: hostTimeInSeconds), preferredTimescale: 600)
    }

    /// The item time shown at a host time on the host clock.
    open func itemTime(for hostTime: CMTime) -> CMTime { itemTime(forHostTime: hostTime.seconds) }
}

/// The item's pictures as pixel buffers, the frame shown at any item time (`AVPlayerItemVideoOutput`), as apps
/// that filter a playing movie read them.
open class AVPlayerItemVideoOutput: AVPlayerItemOutput, @unchecked Sendable {
    private let format: OSType
    private let decoding = NSLock()
    private var units: VideoUnits?
    private var shown: DecodedUnit?
    private var following: DecodedUnit?
    private var lastCopied: Double?

    /// An output of pixel buffers of the first format `pixelBufferAttributes` names that is decoded here (32-bit
    /// BGRA, half-float RGBA, 4:2:0 Y'CbCr); 8-bit 4:2:0 video range when it names none (our choice).
    public init(pixelBufferAttributes: [String: Any]?) {
        let key = kCVPixelBufferPixelFormatTypeKey as String
        let asked = (pixelBufferAttributes?[key] as? [Any]) ?? pixelBufferAttributes?[key].map { [$0] } ?? []
        let formats = asked.compactMap { ($0 as? NSNumber)?.uint32Value ?? ($0 as? OSType) }
        format = formats.first(where: VideoUnits.decodes) ?? kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
        super.init()
    }

    /// An output with output settings (their pixel format, as attributes).
    public convenience init(outputSettings: [String: Any]?) {
        self.init(pixelBufferAttributes: outputSettings)
    }

    /// Whether the picture shown at `itemTime` is another than the one last copied.
    open func hasNewPixelBuffer(forItemTime itemTime: CMTime) -> Bool {
        decoding.withLock {
            guard let unit = frame(at: itemTime.seconds) else { return false }
            return unit.time != lastCopied
        }
    }

    /// The picture shown at `itemTime`, with the time it is shown from; nil without an item or a picture.
    open func copyPixelBuffer(
        forItemTime itemTime: CMTime, itemTimeForDisplay outItemTimeForDisplay: UnsafeMutablePointer<CMTime>?
    ) -> CVPixelBuffer? {
        decoding.withLock {
            guard let unit = frame(at: itemTime.seconds), let sample = try? unit.make() else { return nil }
            lastCopied = unit.time
            outItemTimeForDisplay?.pointee = CMTime(seconds: unit.time, preferredTimescale: 600)
            return sample.imageBuffer
        }
    }

    /// The decoded frame shown at `seconds`: decoding goes forward from the frame last given, or from the movie's
    /// start for an earlier time. Called under the decoding lock.
    private func frame(at seconds: Double) -> DecodedUnit? {
        guard seconds.isFinite, let item, (try? item.asset.contents.get()) != nil,
            let track = item.asset.tracks(withMediaType: .video).first
        else { return nil }
        if let shown, seconds < shown.time { reset() }
        if units == nil {
            if let composition = item.videoComposition.map(VideoCompositionPlan.init) {
                guard (try? composition.check(asset: item.asset, range: .invalid)) != nil else { return nil }
                units = VideoUnits(
                    pictures: ComposedFrames(plan: composition, asset: item.asset),
                    step: composition.frameDuration.seconds, format: format)
            } else {
                units = try? VideoUnits(track: track, format: format)
            }
            shown = try? units?.next()
            following = try? units?.next()
        }
        while let next = following, next.time <= seconds {
            shown = next
            following = try? units?.next()
        }
        return shown
    }

    private func reset() {
        units = nil
        shown = nil
        following = nil
    }
}
