import CFFmpeg
import Foundation
import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One movie file written through FFmpeg (the CFFmpeg shim): H.264 or HEVC video from 4:2:0
/// Y'CbCr frames, and optionally AAC audio from the stream's 1,024-sample buffers.
///
/// The movie is written to a temporary beside its destination, created exclusively under a name
/// that carries the installation's token (`StaleTemporaries`), and FFmpeg writes through that open
/// file, never through a name: a link or file planted beside the destination is never opened,
/// truncated or removed. `publish()` then links the finished movie in without replacing anything
/// (spec §20 rule 4 [D]), so a recording that dies midway leaves nothing under the client's name.
///
/// Calls are synchronous and must not overlap; `MovieRecording` runs them on its own queue.
final class MovieWriter: @unchecked Sendable {
    /// Why a movie could not be written.
    struct Failure: Error, CustomStringConvertible {
        let unavailable: Bool
        let description: String
        /// Whether something was already at the destination, so the movie was not put there.
        var destinationExists = false
    }

    /// What the file holds.
    struct Plan {
        var codec: AVVideoCodecType
        var container: String
        var width: Int
        var height: Int
        /// One frame's duration; frame timestamps count frames of it.
        var frameDuration: CMTime
        var bitRate: Int
        var keyFrameInterval: Int
        var hasAudio: Bool
        /// Zero or invalid: one movie box at the end.
        var fragmentInterval: CMTime
        /// The clockwise turn a player applies, a multiple of 90 degrees: the connection's rotation, kept in
        /// the track matrix while the frames stay as the sensor made them (spec §20 rule 10).
        var rotationDegrees = 0
        /// Audio channels, 1 or 2; two carry the same mono signal.
        var audioChannels = 1
        /// AAC bits per second; 0 for the encoder's 64,000.
        var audioBitRate = 0
        /// The AAC track's sample rate; 0 for the microphone's 44.1 kHz. Another rate is resampled.
        var audioRate = 0
        /// The movie box before the media, for a single-box movie (`shouldOptimizeForNetworkUse`).
        var fastStart = false
        /// QuickTime metadata items, by key (`com.apple.quicktime.location.ISO6709`, …), with their text.
        var metadata: [(key: String, value: String)] = []
        /// No file: fragmented MPEG-4 kept in memory, an initialization segment and then a fragment at each
        /// `cutFragment()` (`AVAssetWriter`'s segment output).
        var segmented = false
        /// Segments declared CMAF (brand `cmfc`), for the CMAF profile.
        var cmaf = false
    }

    /// The Debian packages that carry FFmpeg's libraries, for messages.
    static let packages = CFFMPEG_PACKAGES

    /// The codecs movies can be written in here, HEVC first as Apple lists them (spec §20 rule 2).
    static let availableCodecs: [AVVideoCodecType] = {
        guard cffmpeg_available() != 0 else { return [] }
        var codecs: [AVVideoCodecType] = []
        if cffmpeg_has_encoder(Int32(CFFMPEG_CODEC_HEVC)) != 0 { codecs.append(.hevc) }
        if cffmpeg_has_encoder(Int32(CFFMPEG_CODEC_H264)) != 0 { codecs.append(.h264) }
        return codecs
    }()

    /// Why no codec is offered, for errors and traces; nil when movies can be written.
    static var unavailableReason: String? {
        if cffmpeg_available() == 0 {
            return "FFmpeg 5.1's libraries are not installed (Debian: apt-get install \(packages))"
        }
        return availableCodecs.isEmpty ? "this FFmpeg has no H.264 or HEVC encoder (Debian: libavcodec59)" : nil
    }

    private var movie: OpaquePointer?
    private let luma: (width: Int, height: Int)
    /// Where the finished movie goes; empty for a segmented movie, which has no file.
    let destination: String
    /// The temporary being written, until it is published or removed.
    private var temporary: String?
    private var descriptor: Int32 = -1

    /// Creates the temporary file for `destination` and writes its header.
    /// A segmented movie (`plan.segmented`) makes no file, and its initialization segment is ready in `takeOutput()`.
    init(destination: String, plan: Plan) throws(Failure) {
        luma = (plan.width, plan.height)
        self.destination = plan.segmented ? "" : destination
        if !plan.segmented {
            do {
                let made = try StaleTemporaries.createFile(
                    in: FileConfinement.folder(of: destination),
                    for: destination.split(separator: "/").last.map(String.init) ?? destination)
                temporary = made.path
                descriptor = made.descriptor
            } catch {
                throw Failure(unavailable: false, description: error.description)
            }
        }
        // FFmpeg opens files by name; the descriptor's own name reaches the file just created.
        let path = plan.segmented ? "" : "/dev/fd/\(descriptor)"
        var message = [CChar](repeating: 0, count: 256)
        let codec = plan.codec == .hevc ? Int32(CFFMPEG_CODEC_HEVC) : Int32(CFFMPEG_CODEC_H264)
        let fragment = plan.fragmentInterval.isValid && plan.fragmentInterval.seconds > 0
            ? Int64(plan.fragmentInterval.seconds * 1_000_000) : 0
        var opened: OpaquePointer?
        // The metadata's C strings live until the header is written.
        let strings = plan.metadata.flatMap { [strdup($0.key), strdup($0.value)] }
        defer { strings.forEach { free($0) } }
        let pointers = strings.map { UnsafePointer<CChar>($0) }
        let status = path.withCString { cPath in
            plan.container.withCString { cContainer in
                var request = cffmpeg_movie_request(
                    path: cPath, container: cContainer, codec: codec, width: Int32(plan.width),
                    height: Int32(plan.height), frame_ticks: Int32(clamping: plan.frameDuration.value),
                    timescale: plan.frameDuration.timescale, bit_rate: Int64(plan.bitRate),
                    key_interval: Int32(clamping: plan.keyFrameInterval),
                    audio_sample_rate: plan.hasAudio ? Int32(AVCaptureAudioDataOutput.sampleRate) : 0,
                    audio_output_rate: Int32(plan.audioRate),
                    fragment_microseconds: fragment, rotation_degrees: Int32(plan.rotationDegrees),
                    audio_channels: Int32(plan.audioChannels),
                    audio_bit_rate: Int32(clamping: plan.audioBitRate), fast_start: plan.fastStart ? 1 : 0,
                    metadata: nil, metadata_count: 0, segmented: plan.segmented ? (plan.cmaf ? 2 : 1) : 0)
                return pointers.withUnsafeBufferPointer { items in
                    request.metadata = items.isEmpty ? nil : items.baseAddress
                    request.metadata_count = Int32(plan.metadata.count)
                    return cffmpeg_movie_open(&request, &opened, &message, message.count)
                }
            }
        }
        guard status == Int32(CFFMPEG_OK), let opened else { throw Self.failure(status, message) }
        movie = opened
    }

    deinit {
        if let movie { cffmpeg_movie_discard(movie) }
        removeTemporary()
    }

    /// Bytes of compressed media written so far.
    var bytes: Int64 { movie.map { cffmpeg_movie_bytes($0) } ?? 0 }

    /// Encodes one frame; `index` counts frames from the start of the movie.
    func appendVideo(_ buffer: CVPixelBuffer, index: Int64) throws(Failure) {
        guard let movie else { throw Failure(unavailable: false, description: "the movie is closed") }
        let planes = buffer.planes
        guard planes.count == 2, buffer.width == luma.width, buffer.height == luma.height else {
            throw Failure(unavailable: false, description: "frames must be 4:2:0 Y'CbCr at the movie's size")
        }
        var message = [CChar](repeating: 0, count: 256)
        let status = cffmpeg_movie_write_video(
            movie, planes[0].base.assumingMemoryBound(to: UInt8.self), planes[0].bytesPerRow,
            planes[1].base.assumingMemoryBound(to: UInt8.self), planes[1].bytesPerRow, index, &message,
            message.count)
        guard status == Int32(CFFMPEG_OK) else { throw Self.failure(status, message) }
    }

    /// Encodes one picture of any layout the shim converts ('420v', '420f', 'x420', 'xf20', 'BGRA', 32 ARGB) at
    /// any size: it is scaled to the movie's size. `ticks` is its presentation time in the plan's timescale.
    func appendPicture(_ buffer: CVPixelBuffer, ticks: Int64) throws(Failure) {
        guard let movie else { throw Failure(unavailable: false, description: "the movie is closed") }
        guard let layout = Self.pictureLayouts[buffer.pixelFormat] else {
            throw Failure(
                unavailable: false,
                description: "pixel format '\(fourCharString(buffer.pixelFormat))' cannot be encoded; "
                    + "use '420v', '420f', 'x420', 'xf20', 'BGRA' or 32 ARGB")
        }
        let planes = buffer.planes
        var picture = cffmpeg_picture()
        picture.format = layout
        picture.width = Int32(buffer.width)
        picture.height = Int32(buffer.height)
        picture.planes.0 = UnsafePointer(planes[0].base.assumingMemoryBound(to: UInt8.self))
        picture.strides.0 = planes[0].bytesPerRow
        if planes.count > 1 {
            picture.planes.1 = UnsafePointer(planes[1].base.assumingMemoryBound(to: UInt8.self))
            picture.strides.1 = planes[1].bytesPerRow
        }
        var message = [CChar](repeating: 0, count: 256)
        let status = cffmpeg_movie_write_picture(movie, &picture, ticks, &message, message.count)
        guard status == Int32(CFFMPEG_OK) else { throw Self.failure(status, message) }
    }

    /// The shim's layout for each pixel format it converts.
    static let pictureLayouts: [OSType: Int32] = [
        kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange: Int32(CFFMPEG_PICTURE_NV12),
        kCVPixelFormatType_420YpCbCr8BiPlanarFullRange: Int32(CFFMPEG_PICTURE_NV12_FULL),
        kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange: Int32(CFFMPEG_PICTURE_P010),
        kCVPixelFormatType_420YpCbCr10BiPlanarFullRange: Int32(CFFMPEG_PICTURE_P010_FULL),
        kCVPixelFormatType_32BGRA: Int32(CFFMPEG_PICTURE_BGRA),
        kCVPixelFormatType_32ARGB: Int32(CFFMPEG_PICTURE_ARGB),
    ]

    /// Encodes one audio buffer; `sampleIndex` counts samples from the start of the movie.
    func appendAudio(_ samples: [Int16], sampleIndex: Int64) throws(Failure) {
        guard let movie else { throw Failure(unavailable: false, description: "the movie is closed") }
        var message = [CChar](repeating: 0, count: 256)
        let status = samples.withUnsafeBufferPointer { pointer in
            cffmpeg_movie_write_audio(
                movie, pointer.baseAddress, Int32(pointer.count), sampleIndex, &message, message.count)
        }
        guard status == Int32(CFFMPEG_OK) else { throw Self.failure(status, message) }
    }

    /// A segmented movie's bytes written since the last take: the initialization segment after opening, a
    /// fragment after `cutFragment()`.
    func takeOutput() -> [UInt8] {
        guard let movie else { return [] }
        var count = 0
        guard let bytes = cffmpeg_movie_output(movie, &count), count > 0 else { return [] }
        let taken = Array(UnsafeBufferPointer(start: bytes, count: count))
        cffmpeg_movie_clear_output(movie)
        return taken
    }

    /// Makes the next picture a key frame that begins a new coded sequence, so a fragment can start with it.
    func forceKeyFrame() {
        if let movie { cffmpeg_movie_force_key_frame(movie) }
    }

    /// Ends the video at `ticks`: the picture shown then lasts only until it.
    func endVideo(ticks: Int64) {
        if let movie { cffmpeg_movie_end_video(movie, ticks) }
    }

    /// Writes every sample encoded so far as one fragment of a segmented movie, and returns its bytes.
    func cutFragment() throws(Failure) -> [UInt8] {
        guard let movie else { throw Failure(unavailable: false, description: "the movie is closed") }
        var message = [CChar](repeating: 0, count: 256)
        let status = cffmpeg_movie_flush_fragment(movie, &message, message.count)
        guard status == Int32(CFFMPEG_OK) else { throw Self.failure(status, message) }
        return takeOutput()
    }

    /// Drains the encoders of a segmented movie and returns its last fragment.
    func finishSegments() throws(Failure) -> [UInt8] {
        guard let movie else { return [] }
        self.movie = nil
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        var message = [CChar](repeating: 0, count: 256)
        let status = cffmpeg_movie_finish_segments(
            movie, Unmanaged.passUnretained(sink).toOpaque(),
            { context, bytes, count in
                guard let context, let bytes else { return }
                Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().bytes = Array(
                    UnsafeBufferPointer(start: bytes, count: count))
            }, &message, message.count)
        guard status == Int32(CFFMPEG_OK) else { throw Self.failure(status, message) }
        return sink.bytes
    }

    /// Drains the encoders and writes the trailer: the file is complete when this returns.
    func finish() throws(Failure) {
        guard let movie else { return }
        self.movie = nil
        var message = [CChar](repeating: 0, count: 256)
        let status = cffmpeg_movie_finish(movie, &message, message.count)
        guard status == Int32(CFFMPEG_OK) else { throw Self.failure(status, message) }
    }

    /// Closes the file unfinished and removes it.
    func discard() {
        if let movie {
            self.movie = nil
            cffmpeg_movie_discard(movie)
        }
        removeTemporary()
    }

    /// Puts the finished movie at its destination; refuses when anything is there already.
    func publish() throws(Failure) {
        guard movie == nil, let temporary else {
            throw Failure(unavailable: false, description: "the movie is not finished")
        }
        closeDescriptor()
        self.temporary = nil
        do {
            try StaleTemporaries.publish(temporary, at: destination)
        } catch {
            throw Failure(unavailable: false, description: error.description, destinationExists: errno == EEXIST)
        }
    }

    private func closeDescriptor() {
        if descriptor >= 0 { _ = close(descriptor) }
        descriptor = -1
    }

    private func removeTemporary() {
        closeDescriptor()
        if let temporary { _ = unlink(temporary) }
        temporary = nil
    }

    private static func failure(_ status: Int32, _ message: [CChar]) -> Failure {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Failure(
            unavailable: status == Int32(CFFMPEG_ERR_UNAVAILABLE), description: text.isEmpty ? "FFmpeg failed" : text)
    }
}

extension AVCaptureAudioDataOutput {
    /// The samples of stream buffer `index` (the tone `buffer(index:)` carries), 16-bit mono.
    static func samples(index: Int) -> [Int16] {
        guard let bytes = buffer(index: index).dataBuffer?.bytes else { return [] }
        return bytes.withUnsafeBytes { raw in
            (0..<samplesPerBuffer).map {
                Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self))
            }
        }
    }
}
