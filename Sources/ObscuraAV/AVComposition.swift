import Foundation
import Imaging

/// How a stretch of a track's time maps to its source's (Core Media's `CMTimeMapping`).
public struct CMTimeMapping: Sendable, Hashable {
    /// The source's time range (for an empty stretch, invalid start).
    public var source: CMTimeRange
    /// Where it is shown.
    public var target: CMTimeRange

    public init(source: CMTimeRange, target: CMTimeRange) {
        self.source = source
        self.target = target
    }

    public init() { self.init(source: CMTimeRange(), target: CMTimeRange()) }
}

/// One stretch of a track (AVFoundation's `AVAssetTrackSegment`).
open class AVAssetTrackSegment: NSObject, @unchecked Sendable {
    /// The source's time range and where it is shown.
    public let timeMapping: CMTimeMapping
    /// Whether the stretch shows nothing.
    public let isEmpty: Bool

    init(timeMapping: CMTimeMapping, isEmpty: Bool) {
        self.timeMapping = timeMapping
        self.isEmpty = isEmpty
        super.init()
    }
}

/// One stretch of a composition track (AVFoundation's `AVCompositionTrackSegment`): a time range of a source
/// movie's track shown over a range of the composition's time, or nothing.
open class AVCompositionTrackSegment: AVAssetTrackSegment, @unchecked Sendable {
    /// The source movie, nil for an empty segment or a source that is not a file (another composition).
    public let sourceURL: URL?
    /// The source track's identifier within its movie.
    public let sourceTrackID: CMPersistentTrackID

    /// A segment of the track `trackID` of the movie at `url`.
    public init(url URL: URL, trackID: CMPersistentTrackID, sourceTimeRange: CMTimeRange, targetTimeRange: CMTimeRange)
    {
        sourceURL = URL
        sourceTrackID = trackID
        super.init(timeMapping: CMTimeMapping(source: sourceTimeRange, target: targetTimeRange), isEmpty: false)
    }

    /// An empty segment over `timeRange`.
    public init(timeRange: CMTimeRange) {
        sourceURL = nil
        sourceTrackID = kCMPersistentTrackID_Invalid
        super.init(
            timeMapping: CMTimeMapping(
                source: CMTimeRange(start: .invalid, duration: timeRange.duration), target: timeRange),
            isEmpty: true)
    }

    init(edit: CompositionEdit) {
        sourceURL = edit.source?.contents.url
        sourceTrackID = edit.source?.trackID ?? kCMPersistentTrackID_Invalid
        let source = edit.isEmpty ? CMTimeRange(start: .invalid, duration: edit.target.duration) : edit.sourceRange
        super.init(timeMapping: CMTimeMapping(source: source, target: edit.target), isEmpty: edit.isEmpty)
    }
}

/// A track of a composition (AVFoundation's `AVCompositionTrack`): its media is other tracks' time ranges laid end
/// to end (Capture rules §25 rule 15). It reads as a movie's track: its size, rate and formats are its first
/// source's, its duration its own.
open class AVCompositionTrack: AVAssetTrack, @unchecked Sendable {
    let lock = NSLock()
    var editList = CompositionEdits()
    var transform = CGAffineTransform.identity
    var enabled = true
    var volume: Float = 1

    init(composition: AVComposition, trackID: CMPersistentTrackID, mediaType: AVMediaType) {
        super.init(asset: composition, trackID: trackID, mediaType: mediaType, contents: nil)
    }

    var edits: [CompositionEdit] { lock.withLock { editList.edits } }

    /// The first source track, whose media declarations the track takes.
    var firstSource: AVAssetTrack? { edits.first { !$0.isEmpty }?.source }

    override var contents: AssetContents {
        guard let source = firstSource?.contents else { return .none }
        return AssetContents(
            url: nil, width: source.width, height: source.height, seconds: end.seconds, rate: source.rate,
            transform: (transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty),
            hasAudio: false, codec: source.codec, bitRate: source.bitRate, metadata: [])
    }

    /// Where the last segment ends.
    var end: CMTime { lock.withLock { editList.end } }

    override func openPictures() throws(MediaFileError) -> any PictureSource { ComposedPictures(edits: edits) }
    override func openSound() throws(MediaFileError) -> any SoundSource { ComposedSound(edits: edits) }

    /// The segments, end to end from time zero.
    open var segments: [AVCompositionTrackSegment] { edits.map(AVCompositionTrackSegment.init(edit:)) }

    /// The segment shown at `trackTime`: the one whose target range holds it, or the nearest one.
    open func segment(forTrackTime trackTime: CMTime) -> AVCompositionTrackSegment? {
        let all = edits
        guard !all.isEmpty else { return nil }
        let edit =
            all.first { $0.target.start <= trackTime && trackTime < $0.target.end }
            ?? (trackTime < .zero ? all.first : all.last)
        return edit.map(AVCompositionTrackSegment.init(edit:))
    }

    /// The formats of its sources, once each.
    override var formatList: [CMFormatDescription] {
        var seen: [AVAssetTrack] = []
        for edit in edits {
            if let source = edit.source, !seen.contains(where: { $0 === source }) { seen.append(source) }
        }
        return seen.flatMap(\.formatList)
    }

    /// How a player turns the pictures: the identity unless set (`AVMutableCompositionTrack`), as a source track's
    /// turn is not carried over.
    override open var preferredTransform: CGAffineTransform { lock.withLock { transform } }
    override open var isEnabled: Bool { lock.withLock { enabled } }
    override open var preferredVolume: Float { lock.withLock { volume } }
    override open var timeRange: CMTimeRange { CMTimeRange(start: .zero, end: end) }
    override open var naturalSize: CGSize {
        mediaType == .video ? CGSize(width: contents.width, height: contents.height) : .zero
    }
    /// Whether its media lies in one file: false, as the segments refer to their sources' files.
    override open var isSelfContained: Bool { false }
    /// The time scale edits are kept in.
    open var naturalTimeScale: CMTimeScale { 600 }
    /// The language of the track, where set.
    open var languageCode: String? { nil }
    open var extendedLanguageTag: String? { nil }
}

/// A composition track that can be edited (AVFoundation's `AVMutableCompositionTrack`), as apps join clips, cut them
/// and leave gaps (Capture rules §25 rule 15).
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    /// How a player turns the pictures; apps set the source track's (`preferredTransform`) so that a portrait
    /// recording plays upright.
    override open var preferredTransform: CGAffineTransform {
        get { lock.withLock { transform } }
        set { lock.withLock { transform = newValue } }
    }

    override open var isEnabled: Bool {
        get { lock.withLock { enabled } }
        set { lock.withLock { enabled = newValue } }
    }

    /// The volume its sound plays and is exported at: 1 unless set.
    override open var preferredVolume: Float {
        get { lock.withLock { volume } }
        set { lock.withLock { volume = newValue } }
    }

    /// Inserts `timeRange` of `track` at `startTime`: what was there and after moves later by its duration.
    /// Throws where the track is of another media type or the range holds none of it.
    open func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {
        guard track.mediaType == mediaType else {
            throw Self.invalid(
                "a \(track.mediaType.rawValue) track cannot be inserted into a \(mediaType.rawValue) track")
        }
        guard timeRange.isValid, timeRange.start.isNumeric, startTime.isNumeric, startTime >= .zero else {
            throw Self.invalid("the time range and start time must be numeric, and the start not negative")
        }
        // A source that is itself a composition track stands for its own sources.
        if let composed = track as? AVCompositionTrack {
            return try insertComposed(timeRange, of: composed, at: startTime)
        }
        let available = track.timeRange
        let start = max(timeRange.start, available.start)
        let end = timeRange.duration.isPositiveInfinity ? available.end : min(timeRange.end, available.end)
        guard end > start else {
            throw Self.invalid(
                "the time range from \(timeRange.start.seconds) s holds none of the \(available.duration.seconds) s track"
            )
        }
        let duration = end - start
        lock.withLock {
            editList.insert(
                CompositionEdit(
                    source: track, sourceRange: CMTimeRange(start: start, end: end),
                    target: CMTimeRange(start: startTime, duration: duration)))
        }
    }

    private func insertComposed(_ timeRange: CMTimeRange, of track: AVCompositionTrack, at startTime: CMTime) throws {
        let end = timeRange.duration.isPositiveInfinity ? track.end : min(timeRange.end, track.end)
        let start = max(timeRange.start, .zero)
        guard end > start else { throw Self.invalid("the time range holds none of the composition track") }
        // The source's edits within the range, cut to it, placed from `startTime` in order.
        var copy = CompositionEdits()
        for edit in track.edits { copy.insert(edit) }
        copy.remove(CMTimeRange(start: end, end: copy.end))
        copy.remove(CMTimeRange(start: .zero, end: start))
        let pieces = copy.edits
        lock.withLock {
            if let last = pieces.last, last.target.end < end - start {
                editList.insert(empty: CMTimeRange(start: startTime + last.target.end, end: startTime + (end - start)))
            }
            for piece in pieces.reversed() { editList.insert(piece.shifted(by: startTime)) }
        }
    }

    /// Inserts the ranges of several tracks one after another from `startTime`.
    open func insertTimeRanges(_ timeRanges: [NSValue], of tracks: [AVAssetTrack], at startTime: CMTime) throws {
        guard timeRanges.count == tracks.count else {
            throw Self.invalid("\(timeRanges.count) time ranges for \(tracks.count) tracks")
        }
        var at = startTime
        for (value, track) in zip(timeRanges, tracks) {
            let before = end
            try insertTimeRange(value.timeRangeValue, of: track, at: at)
            at = at + (end - before)
        }
    }

    /// Inserts or extends an empty range: what was at its start and after moves later by its duration.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.start.isNumeric, timeRange.duration > .zero else { return }
        lock.withLock { editList.insert(empty: timeRange) }
    }

    /// Removes a range: what follows moves earlier by its duration.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.isValid, timeRange.start.isNumeric else { return }
        lock.withLock { editList.remove(timeRange) }
    }

    /// Plays `timeRange` over `duration`: faster or slower, what follows moved by the difference.
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        guard timeRange.isValid, timeRange.start.isNumeric, duration.isNumeric else { return }
        lock.withLock { editList.scale(timeRange, to: duration) }
    }

    /// Throws where the segments are not end to end from time zero, or a segment's source is not a movie track
    /// with the range.
    open func validateSegments(_ trackSegments: [AVCompositionTrackSegment]) throws {
        var at = CMTime.zero
        for segment in trackSegments {
            guard segment.timeMapping.target.start == at else {
                throw Self.invalid("the segments do not follow one another from time zero at \(at.seconds) s")
            }
            at = segment.timeMapping.target.end
            guard !segment.isEmpty else { continue }
            guard let url = segment.sourceURL, let track = AVAsset(url: url).track(withTrackID: segment.sourceTrackID),
                track.mediaType == mediaType
            else { throw Self.invalid("a segment's source is not a \(mediaType.rawValue) track of a movie") }
        }
    }

    /// The segments; setting them replaces the track's media with theirs (the movies they name are read).
    override open var segments: [AVCompositionTrackSegment] {
        get { super.segments }
        set {
            var list = CompositionEdits()
            for segment in newValue {
                let mapping = segment.timeMapping
                if segment.isEmpty {
                    list.insert(empty: mapping.target)
                } else if let url = segment.sourceURL,
                    let track = AVAsset(url: url).track(withTrackID: segment.sourceTrackID)
                {
                    list.insert(CompositionEdit(source: track, sourceRange: mapping.source, target: mapping.target))
                }
            }
            lock.withLock { editList = list }
        }
    }

    static func invalid(_ reason: String) -> AVError {
        AVError(.operationNotSupportedForAsset, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
    }
}

/// Other assets' media put together (AVFoundation's `AVComposition`): tracks whose segments are time ranges of
/// movies' tracks (Capture rules §25 rule 15). It is read, played and exported as a movie is: the asset reader,
/// image generator, player and export session take it. Its size and rate are its first video source's.
open class AVComposition: AVAsset, @unchecked Sendable {
    let compositionLock = NSLock()
    var compositionTracks: [AVCompositionTrack] = []

    init(tracks: [AVCompositionTrack]) {
        super.init(composed: ())
        compositionTracks = tracks
    }

    override var contents: Result<AssetContents, AVError> {
        let tracks = compositionLock.withLock { compositionTracks }
        guard let video = tracks.first(where: { $0.mediaType == .video && $0.firstSource != nil }) else {
            return .failure(
                AVError(
                    .operationNotSupportedForAsset,
                    userInfo: [NSLocalizedFailureReasonErrorKey: "the composition holds no video"]))
        }
        let c = video.contents
        let sound = tracks.contains { $0.mediaType == .audio && $0.firstSource != nil }
        return .success(
            AssetContents(
                url: nil, width: c.width, height: c.height, seconds: duration.seconds, rate: c.rate,
                transform: c.transform, hasAudio: sound, codec: c.codec, bitRate: c.bitRate, metadata: []))
    }

    /// Its tracks, in the order they were added.
    override open var tracks: [AVAssetTrack] { compositionLock.withLock { compositionTracks } }

    @_disfavoredOverload
    override open func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// Its tracks of one media type.
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVCompositionTrack] {
        compositionLock.withLock { compositionTracks }.filter { $0.mediaType == mediaType }
    }

    override open func track(withTrackID trackID: CMPersistentTrackID) -> AVCompositionTrack? {
        compositionLock.withLock { compositionTracks }.first { $0.trackID == trackID }
    }

    /// The longest track's end.
    override open var duration: CMTime {
        compositionLock.withLock { compositionTracks }.map(\.end).max() ?? .zero
    }

    /// The size a player lays the video out in: set, or the first video track's.
    open var naturalSize: CGSize {
        compositionLock.withLock { setSize } ?? tracks(withMediaType: .video).first?.naturalSize ?? .zero
    }
    var setSize: CGSize?

    /// The options its sources' assets are made with.
    open var urlAssetInitializationOptions: [String: Any] { [:] }

    /// A composition that no longer changes, with the tracks and segments this one has now.
    override open func copy() -> Any {
        let frozen = AVComposition(tracks: [])
        frozen.compositionTracks = tracks.compactMap { $0 as? AVCompositionTrack }.map { source in
            let track = AVCompositionTrack(composition: frozen, trackID: source.trackID, mediaType: source.mediaType)
            track.editList = source.lock.withLock { source.editList }
            track.transform = source.preferredTransform
            track.enabled = source.isEnabled
            track.volume = source.preferredVolume
            return track
        }
        frozen.setSize = compositionLock.withLock { setSize }
        return frozen
    }

    /// A composition that can be edited, with the tracks and segments this one has now.
    override open func mutableCopy() -> Any {
        let copy = AVMutableComposition()
        for source in tracks.compactMap({ $0 as? AVCompositionTrack }) {
            let track = AVMutableCompositionTrack(
                composition: copy, trackID: source.trackID, mediaType: source.mediaType)
            track.editList = source.lock.withLock { source.editList }
            track.transform = source.preferredTransform
            track.enabled = source.isEnabled
            track.volume = source.preferredVolume
            copy.compositionTracks.append(track)
        }
        copy.setSize = compositionLock.withLock { setSize }
        return copy
    }
}

/// A composition that can be edited (AVFoundation's `AVMutableComposition`): apps join recorded clips into one
/// movie, cut out time, and add a sound track, then play or export it (Capture rules §25 rule 15).
open class AVMutableComposition: AVComposition, @unchecked Sendable {
    /// An empty composition.
    public init() { super.init(tracks: []) }

    /// An empty composition whose sources are opened with `options` (which change nothing for local files).
    public convenience init(urlAssetInitializationOptions: [String: Any]? = nil) { self.init() }

    /// The size a player lays the video out in: set, or the first video track's.
    override open var naturalSize: CGSize {
        get { super.naturalSize }
        set { compositionLock.withLock { setSize = newValue } }
    }

    @_disfavoredOverload
    override open func tracks(withMediaType mediaType: AVMediaType) -> [AVCompositionTrack] {
        compositionLock.withLock { compositionTracks }.filter { $0.mediaType == mediaType }
    }

    /// Its tracks of one media type.
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVMutableCompositionTrack] {
        compositionLock.withLock { compositionTracks }.compactMap { $0 as? AVMutableCompositionTrack }
            .filter { $0.mediaType == mediaType }
    }

    override open func track(withTrackID trackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        compositionLock.withLock { compositionTracks }.first { $0.trackID == trackID } as? AVMutableCompositionTrack
    }

    /// Adds an empty track of video or sound, with `preferredTrackID` where it is free and positive
    /// (`kCMPersistentTrackID_Invalid` asks for the next free one); nil for another media type or an identifier in use.
    open func addMutableTrack(withMediaType mediaType: AVMediaType, preferredTrackID: CMPersistentTrackID)
        -> AVMutableCompositionTrack?
    {
        guard mediaType == .video || mediaType == .audio else { return nil }
        return compositionLock.withLock {
            let used = Set(compositionTracks.map(\.trackID))
            let id: CMPersistentTrackID
            if preferredTrackID > 0 {
                guard !used.contains(preferredTrackID) else { return nil }
                id = preferredTrackID
            } else {
                id = (used.max() ?? 0) + 1
            }
            let track = AVMutableCompositionTrack(composition: self, trackID: id, mediaType: mediaType)
            compositionTracks.append(track)
            return track
        }
    }

    /// Removes a track of this composition.
    open func removeTrack(_ track: AVCompositionTrack) {
        compositionLock.withLock { compositionTracks.removeAll { $0 === track } }
    }

    /// A track of the same media type that `assetTrack`'s media can be inserted into, if any.
    open func mutableTrack(compatibleWith assetTrack: AVAssetTrack) -> AVMutableCompositionTrack? {
        tracks(withMediaType: assetTrack.mediaType).first
    }

    /// Inserts `timeRange` of every track of `asset` at `startTime`, each into a track of its media type (added
    /// where there are fewer): what was there and after moves later by the range's duration, in every track.
    open func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime) throws {
        let sources = asset.tracks
        guard !sources.isEmpty else {
            throw AVMutableCompositionTrack.invalid("the asset has no tracks to insert (it could not be read)")
        }
        let length = timeRange.duration.isPositiveInfinity ? asset.duration - timeRange.start : timeRange.duration
        var used: [AVMutableCompositionTrack] = []
        for source in sources {
            let free = tracks(withMediaType: source.mediaType).first { track in !used.contains { $0 === track } }
            guard let target = free ?? addMutableTrack(withMediaType: source.mediaType, preferredTrackID: 0) else {
                continue
            }
            used.append(target)
            let before = target.end
            try target.insertTimeRange(timeRange, of: source, at: startTime)
            // A track shorter than the range (sound that stops early) leaves the rest of the range empty, so that
            // every track keeps its place.
            let inserted = target.end - before
            if inserted < length {
                target.insertEmptyTimeRange(CMTimeRange(start: startTime + inserted, duration: length - inserted))
            }
        }
        // Tracks without a source of their own in the asset make room too.
        for track in tracks(withMediaType: .video) + tracks(withMediaType: .audio)
        where !used.contains(where: { $0 === track }) && startTime < track.end {
            track.insertEmptyTimeRange(CMTimeRange(start: startTime, duration: length))
        }
    }

    /// Inserts asynchronously, calling `completionHandler` with what stopped it, or nil.
    open func insertTimeRange(
        _ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        do {
            try insertTimeRange(timeRange, of: asset, at: startTime)
            completionHandler(nil)
        } catch {
            completionHandler(error)
        }
    }

    /// Inserts an empty range in every track.
    open func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        for track in compositionLock.withLock({ compositionTracks }).compactMap({ $0 as? AVMutableCompositionTrack }) {
            track.insertEmptyTimeRange(timeRange)
        }
    }

    /// Removes a range from every track.
    open func removeTimeRange(_ timeRange: CMTimeRange) {
        for track in compositionLock.withLock({ compositionTracks }).compactMap({ $0 as? AVMutableCompositionTrack }) {
            track.removeTimeRange(timeRange)
        }
    }

    /// Scales a range of every track to `duration`.
    open func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        for track in compositionLock.withLock({ compositionTracks }).compactMap({ $0 as? AVMutableCompositionTrack }) {
            track.scaleTimeRange(timeRange, toDuration: duration)
        }
    }
}
