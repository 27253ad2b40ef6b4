import Foundation
import Imaging

/// A movie file read back (AVFoundation's `AVAsset`): its duration and its tracks, for the code that shows or
/// checks what a capture recorded. Movies are read through FFmpeg's libraries, as they are written (Capture rules
/// §25): the video track with its size, frame rate and the transform a player applies, and whether there is sound.
/// Where the file cannot be read, the synchronous properties answer as for an empty asset (no tracks, an invalid
/// duration, not playable) and `load` throws the reason.
open class AVAsset: NSObject, @unchecked Sendable {
    /// What was read of the file, or why it could not be.
    private let fileContents: Result<AssetContents, AVError>
    /// What the asset's media declares, or why it cannot be read: the file's, or for a composition
    /// (`AVComposition`) what its first video source gives it.
    var contents: Result<AssetContents, AVError> { fileContents }

    /// The movie at `url`, read at once (the file is small work beside what a capture costs).
    public convenience init(url URL: URL) {
        self.init(reading: URL)
    }

    /// The tracks, made once: an app may hold a track and compare it with the asset's.
    private var trackList: [AVAssetTrack] = []
    /// The movie's QuickTime metadata: the container's entries under reverse-DNS keys (the demuxer's own
    /// entries, such as the file brand, have plain names).
    private var metadataItems: [AVMetadataItem] = []

    init(reading url: URL) {
        fileContents = AssetContents.read(url)
        super.init()
        guard let contents = try? fileContents.get() else { return }
        trackList = [AVAssetTrack(asset: self, trackID: 1, mediaType: .video, contents: contents)]
        if contents.hasAudio {
            trackList.append(AVAssetTrack(asset: self, trackID: 2, mediaType: .audio, contents: contents))
        }
        metadataItems = contents.metadata.filter { $0.key.contains(".") }.map {
            AVMetadataItem(keySpace: .quickTimeMetadata, key: $0.key, text: $0.value)
        }
    }

    /// An asset of other assets' media (`AVComposition`), which has no file of its own.
    init(composed: Void) {
        fileContents = .failure(AVError(.fileFormatNotRecognized))
        super.init()
    }

    /// The longest track's time, at the movie's timescale; invalid where the file could not be read.
    open var duration: CMTime {
        (try? contents.get()).map { CMTime(seconds: $0.seconds, preferredTimescale: 600) } ?? .invalid
    }

    /// The movie's tracks: its video track, then its sound track where it has one.
    open var tracks: [AVAssetTrack] { trackList }

    /// The tracks of one media type.
    open func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    /// The track with `trackID`, if any.
    open func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        tracks.first { $0.trackID == trackID }
    }

    /// Whether the movie can be played: it has a video track that decodes.
    open var isPlayable: Bool { (try? contents.get()) != nil }
    /// Whether its media can be read.
    open var isReadable: Bool { isPlayable }
    /// Whether it can be exported (`AVAssetExportSession`): whenever it can be read.
    open var isExportable: Bool { isReadable }
    /// The asset's own transform: the identity (a track carries the turn).
    open var preferredTransform: CGAffineTransform { .identity }
    /// The movie's QuickTime metadata items ('mdta', what `AVCaptureMovieFileOutput.metadata` and
    /// `AVAssetWriter.metadata` write), in file order, each with its text (Capture rules §25).
    open var metadata: [AVMetadataItem] { metadataItems }
    /// The items of `metadata` that have a common key (`commonKey`): a movie's location, found under
    /// `.commonKeyLocation` in the common key space, its make under `.commonKeyMake`.
    open var commonMetadata: [AVMetadataItem] { metadataItems.filter { $0.commonKey != nil } }
    /// The metadata formats the movie carries.
    open var availableMetadataFormats: [AVMetadataFormat] { metadataItems.isEmpty ? [] : [.quickTimeMetadata] }
    /// The movie's items of one metadata format.
    open func metadata(forFormat format: AVMetadataFormat) -> [AVMetadataItem] {
        format == .quickTimeMetadata ? metadataItems : []
    }
    /// The movie's items of one metadata format, once loaded.
    open func loadMetadata(for format: AVMetadataFormat) async throws -> [AVMetadataItem] {
        _ = try contents.get()
        return metadata(forFormat: format)
    }

    /// The tracks of one media type, once loaded.
    open func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        _ = try contents.get()
        return tracks(withMediaType: mediaType)
    }

    /// The track with `trackID`, once loaded.
    open func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        _ = try contents.get()
        return track(withTrackID: trackID)
    }

    /// Loads properties (`try await asset.load(.duration, .tracks)`); throws why the file could not be read.
    public func load<each T>(_ properties: repeat AVAsyncProperty<AVAsset, each T>) async throws -> (repeat each T) {
        _ = try contents.get()
        return (repeat (each properties).read(self))
    }

    /// The status of a property: loaded, or failed with the reason the file could not be read.
    public func status<T>(of property: AVAsyncProperty<AVAsset, T>) -> AVAsyncProperty<AVAsset, T>.Status {
        switch contents {
        case .success: .loaded(property.read(self))
        case let .failure(error): .failed(error)
        }
    }
}

/// A movie file at a URL (AVFoundation's `AVURLAsset`).
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The file.
    public let url: URL

    /// The movie at `URL`; `options` (precise timing, HTTP headers) change nothing for a local file.
    public init(url URL: URL, options: [String: Any]? = nil) {
        url = URL
        super.init(reading: URL)
    }

    /// The file types read: QuickTime and MPEG-4 movies.
    open class func audiovisualTypes() -> [AVFileType] { [.mov, .mp4, .m4v] }
    /// Whether `type` is a movie MIME type read here.
    open class func isPlayableExtendedMIMEType(_ extendedMIMEType: String) -> Bool {
        ["video/quicktime", "video/mp4", "video/x-m4v"].contains { extendedMIMEType.hasPrefix($0) }
    }
}

/// One track of an asset (AVFoundation's `AVAssetTrack`).
open class AVAssetTrack: NSObject, @unchecked Sendable {
    /// The asset it belongs to.
    public private(set) weak var asset: AVAsset?
    /// Its identifier within the asset, from 1.
    public let trackID: CMPersistentTrackID
    /// Video or audio.
    public let mediaType: AVMediaType
    private let fileContents: AssetContents?
    /// What the track's media declares: its file's, or for a composition's track (`AVCompositionTrack`) its first
    /// source's over the track's own duration.
    var contents: AssetContents { fileContents ?? .none }

    init(asset: AVAsset, trackID: CMPersistentTrackID, mediaType: AVMediaType, contents: AssetContents?) {
        self.asset = asset
        self.trackID = trackID
        self.mediaType = mediaType
        fileContents = contents
        super.init()
    }

    /// The track's pictures decoded in presentation order, each with its time in seconds (−1 where the stream gives
    /// none).
    func openPictures() throws(MediaFileError) -> any PictureSource {
        try MovieFrameReader(path: try contents.path())
    }

    /// The track's sound decoded a frame of samples at a time.
    func openSound() throws(MediaFileError) -> any SoundSource {
        try MovieSoundReader(path: try contents.path())
    }

    private let formatLock = NSLock()
    private var formats: [CMFormatDescription]?

    /// The track's format (Capture rules §25 rule 2): for video its codec (`'avc1'` or `'hvc1'`) and stored size;
    /// for sound its codec, rate and channels, read from its first decoded frame. Empty where the codec is not one
    /// written here or the sound does not decode.
    open var formatDescriptions: [Any] { formatList }

    var formatList: [CMFormatDescription] {
        formatLock.withLock {
            if let formats { return formats }
            let made = isVideo ? videoFormats : soundFormats
            formats = made
            return made
        }
    }

    private var videoFormats: [CMFormatDescription] {
        let subtype: CMFormatDescription.MediaSubType
        switch contents.codec {
        case .h264: subtype = .h264
        case .hevc: subtype = .hevc
        case nil: return []
        }
        return [
            CMFormatDescription(
                mediaType: kCMMediaType_Video, mediaSubType: subtype.rawValue,
                dimensions: CMVideoDimensions(width: Int32(contents.width), height: Int32(contents.height)))
        ]
    }

    private var soundFormats: [CMFormatDescription] {
        guard let path = try? contents.path(), let reader = try? MovieSoundReader(path: path), reader.isAAC,
            let first = try? reader.next()
        else { return [] }
        let stream = AudioStreamBasicDescription(
            mSampleRate: Float64(first.rate), mFormatID: kAudioFormatMPEG4AAC, mFormatFlags: 0, mBytesPerPacket: 0,
            mFramesPerPacket: 1024, mBytesPerFrame: 0, mChannelsPerFrame: UInt32(first.channels), mBitsPerChannel: 0,
            mReserved: 0)
        let tag = first.channels == 1 ? kAudioChannelLayoutTag_Mono : first.channels == 2 ? kAudioChannelLayoutTag_Stereo : nil
        let layout = tag.map { tag in
            var data = Data(count: AudioChannelLayout.byteCount(descriptions: 0))
            data.withUnsafeMutableBytes { $0.storeBytes(of: tag, toByteOffset: 0, as: UInt32.self) }
            return data
        }
        return [CMFormatDescription(audio: stream, layout: layout)]
    }

    private var isVideo: Bool { mediaType == .video }

    /// The stored picture size (zero for sound).
    open var naturalSize: CGSize {
        isVideo ? CGSize(width: contents.width, height: contents.height) : .zero
    }
    /// How a player turns the stored pictures: the track header's matrix, as a phone's recordings carry it
    /// (a portrait recording turns a quarter clockwise, translated back onto the canvas).
    open var preferredTransform: CGAffineTransform {
        guard isVideo else { return .identity }
        let t = contents.transform
        return CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
    }
    /// Frames per second as the track declares it (0 for sound).
    open var nominalFrameRate: Float { isVideo ? Float(contents.rate) : 0 }
    /// The shortest time between two pictures: one period of the nominal frame rate (invalid for sound).
    open var minFrameDuration: CMTime {
        isVideo && contents.rate > 0 ? CMTime(seconds: 1 / contents.rate, preferredTimescale: 600_000) : .invalid
    }
    /// The video stream's bits per second as the file declares it (0 for sound, and where the file declares none).
    open var estimatedDataRate: Float { isVideo ? Float(contents.bitRate) : 0 }
    /// From zero to the movie's duration.
    open var timeRange: CMTimeRange {
        CMTimeRange(start: .zero, duration: CMTime(seconds: contents.seconds, preferredTimescale: 600))
    }
    /// Whether the track plays.
    open var isPlayable: Bool { true }
    /// Whether the track is enabled.
    open var isEnabled: Bool { true }
    /// The volume the track's sound plays at: full.
    open var preferredVolume: Float { 1 }
    /// Whether its media lies in the movie file itself rather than in files it refers to: always here.
    open var isSelfContained: Bool { true }

    /// Loads properties (`try await track.load(.naturalSize, .preferredTransform)`).
    public func load<each T>(_ properties: repeat AVAsyncProperty<AVAssetTrack, each T>) async throws
        -> (repeat each T)
    {
        (repeat (each properties).read(self))
    }
}

/// A property loaded asynchronously from an asset or a track (`asset.load(.duration)`).
open class AVPartialAsyncProperty<Root>: @unchecked Sendable {
    init() {}
}

/// A property of `Root` whose value is a `Value`.
public final class AVAsyncProperty<Root, Value>: AVPartialAsyncProperty<Root>, @unchecked Sendable {
    /// Whether a property is loaded.
    public enum Status {
        case notYetLoaded, loading, loaded(Value), failed(Error)
    }

    let read: (Root) -> Value

    init(_ read: @escaping (Root) -> Value) {
        self.read = read
    }
}

extension AVPartialAsyncProperty where Root == AVAsset {
    public static var duration: AVAsyncProperty<AVAsset, CMTime> { .init { $0.duration } }
    public static var tracks: AVAsyncProperty<AVAsset, [AVAssetTrack]> { .init { $0.tracks } }
    public static var isPlayable: AVAsyncProperty<AVAsset, Bool> { .init { $0.isPlayable } }
    public static var isReadable: AVAsyncProperty<AVAsset, Bool> { .init { $0.isReadable } }
    public static var isExportable: AVAsyncProperty<AVAsset, Bool> { .init { $0.isExportable } }
    public static var preferredTransform: AVAsyncProperty<AVAsset, CGAffineTransform> {
        .init { $0.preferredTransform }
    }
    public static var metadata: AVAsyncProperty<AVAsset, [AVMetadataItem]> { .init { $0.metadata } }
    public static var commonMetadata: AVAsyncProperty<AVAsset, [AVMetadataItem]> { .init { $0.commonMetadata } }
    public static var availableMetadataFormats: AVAsyncProperty<AVAsset, [AVMetadataFormat]> {
        .init { $0.availableMetadataFormats }
    }
}

extension AVPartialAsyncProperty where Root == AVAssetTrack {
    public static var naturalSize: AVAsyncProperty<AVAssetTrack, CGSize> { .init { $0.naturalSize } }
    public static var preferredTransform: AVAsyncProperty<AVAssetTrack, CGAffineTransform> {
        .init { $0.preferredTransform }
    }
    public static var nominalFrameRate: AVAsyncProperty<AVAssetTrack, Float> { .init { $0.nominalFrameRate } }
    public static var estimatedDataRate: AVAsyncProperty<AVAssetTrack, Float> { .init { $0.estimatedDataRate } }
    public static var formatDescriptions: AVAsyncProperty<AVAssetTrack, [CMFormatDescription]> {
        .init { $0.formatList }
    }
    public static var minFrameDuration: AVAsyncProperty<AVAssetTrack, CMTime> { .init { $0.minFrameDuration } }
    public static var timeRange: AVAsyncProperty<AVAssetTrack, CMTimeRange> { .init { $0.timeRange } }
    public static var mediaType: AVAsyncProperty<AVAssetTrack, AVMediaType> { .init { $0.mediaType } }
    public static var isPlayable: AVAsyncProperty<AVAssetTrack, Bool> { .init { $0.isPlayable } }
    public static var isEnabled: AVAsyncProperty<AVAssetTrack, Bool> { .init { $0.isEnabled } }
}

/// `CMPersistentTrackID`: a track's identifier within its movie.
public typealias CMPersistentTrackID = Int32
/// `kCMPersistentTrackID_Invalid`: no track (track identifiers start at 1).
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0

/// What an asset read of its file: the video stream's declarations and whether there is sound.
struct AssetContents: Sendable {
    /// The file; nil for what a composition declares (its media lies in its sources' files).
    let url: URL?
    let width: Int, height: Int
    let seconds: Double, rate: Double
    let transform: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
    let hasAudio: Bool
    /// The video stream's codec (nil for one not written here) and declared bits per second (0 where unknown).
    let codec: VideoCodec?
    let bitRate: Int
    /// The container's metadata entries, as the demuxer names them.
    let metadata: [(key: String, value: String)]

    /// Nothing: a track of a composition before any media is inserted.
    static let none = AssetContents(
        url: nil, width: 0, height: 0, seconds: 0, rate: 0, transform: (1, 0, 0, 1, 0, 0), hasAudio: false, codec: nil,
        bitRate: 0, metadata: [])

    /// The file's path, or why there is none to read.
    func path() throws(MediaFileError) -> String {
        guard let url else { throw MediaFileError(code: .unreadable, message: "the media has no file of its own") }
        return url.path
    }

    static func read(_ url: URL) -> Result<AssetContents, AVError> {
        guard url.isFileURL else {
            return .failure(AVError(.fileFormatNotRecognized, userInfo: [
                NSLocalizedFailureReasonErrorKey: "only files are read: \(url.absoluteString)"
            ]))
        }
        do {
            let reader = try MovieFrameReader(path: url.path)
            let info = reader.info
            var seconds = info.seconds
            if seconds <= 0, info.frames > 0, info.rate > 0 { seconds = Double(info.frames) / info.rate }
            return .success(
                AssetContents(
                    url: url, width: info.width, height: info.height, seconds: seconds, rate: info.rate,
                    transform: info.transform, hasAudio: info.hasAudio, codec: info.codec, bitRate: info.bitRate,
                    metadata: info.metadata))
        } catch {
            let code: AVError.Code = error.code == .decoderMissing ? .decodeFailed : .fileFormatNotRecognized
            return .failure(AVError(code, userInfo: [NSLocalizedFailureReasonErrorKey: "\(url.path): \(error.message)"]))
        }
    }
}
