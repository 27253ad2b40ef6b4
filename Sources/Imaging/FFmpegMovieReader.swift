import CFFmpeg

/// Movies in the containers and codecs FFmpeg reads (MP4, MOV, MKV and others), decoded through FFmpeg's
/// libraries loaded at run time (CFFmpeg). Without them, reading says which packages to install.
enum FFmpegMovieReader {
    /// Why movies other than YUV4MPEG2 cannot be read here; nil when they can.
    static var unavailableReason: String? {
        cffmpeg_available() != 0
            ? nil
            : "reading this movie needs FFmpeg 5.1's libraries (Debian: apt-get install \(CFFMPEG_PACKAGES))"
    }

    static func read(_ path: String, maximumPixels: Int, storedWidth: Int) throws(MediaFileError) -> DecodedMovie {
        let reader = try MovieFrameReader(path: path)
        let info = reader.info
        let (width, height) = (info.width, info.height)
        // The bound is checked on what the container declares, before decoding: its frame count, else its
        // duration at its frame rate. A container that declares neither is held to the bound frame by frame.
        let estimate = (info.seconds * info.rate).rounded(.up)
        let fromDuration = estimate.isFinite && estimate >= 0 ? Int(min(estimate, 1e15)) : 0
        let declared = info.frames > 0 ? info.frames : fromDuration
        try MovieFile.checkBound(frames: declared, width: width, height: height, maximumPixels: maximumPixels)
        var frames: [PixelPlane<UInt8>] = []
        var times: [Double] = []
        while true {
            let decoded: (PixelPlane<UInt8>, Double)?
            do { decoded = try reader.next() } catch {
                throw MediaFileError(code: error.code, message: "frame \(frames.count + 1): \(error.message)")
            }
            guard let (frame, seconds) = decoded else { break }
            try MovieFile.checkBound(
                frames: frames.count + 1, width: width, height: height, maximumPixels: maximumPixels)
            frames.append(MovieFile.reduced(frame, toWidth: storedWidth))
            times.append(seconds)
        }
        guard !frames.isEmpty else { throw MediaFileError(code: .undecodable, message: "the movie has no frames") }
        // Times from the movie's first frame; a frame without one follows the previous at the frame rate, and
        // times never go back.
        let step: Double = info.rate > 0 ? 1 / info.rate : 1.0 / 30
        let origin: Double = times.first.map { max($0, 0) } ?? 0
        var relative: [Double] = []
        for t in times {
            guard let previous = relative.last else {
                relative.append(0)
                continue
            }
            let own: Double = t >= 0 ? t - origin : previous + step
            relative.append(max(own, previous + 1e-6))
        }
        let duration = max(info.seconds, (relative.last ?? 0) + step)
        return DecodedMovie(
            width: width, height: height, frames: frames, presentationTimes: relative, duration: duration)
    }
}

/// The video codecs movies are written in (H.264 and HEVC), as a stream read back names them.
package enum VideoCodec: Sendable {
    case h264, hevc

    /// The codec of FFmpeg's number, nil for any other.
    init?(ffmpegID: Int32) {
        switch ffmpegID {
        case 27: self = .h264
        case 173: self = .hevc
        default: return nil
        }
    }
}

/// A movie file's video stream decoded one picture at a time, in decoding order, at its stored size, through
/// FFmpeg's libraries (CFFmpeg): what reading a whole movie (`FFmpegMovieReader`) and reading one picture of it at
/// a time (`AVAssetImageGenerator`) share.
package final class MovieFrameReader {
    /// What the movie declares before any picture is decoded.
    package struct Info: Sendable {
        /// The stored picture size, pixels.
        package let width: Int, height: Int
        /// The container's frame count (0 where it gives none), the stream's duration in seconds and its average
        /// frame rate (0 where unknown).
        package let frames: Int, seconds: Double, rate: Double
        /// The track's display matrix (a, b, c, d, tx, ty) in pixels, identity where the movie has none.
        package let transform: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
        /// Whether the movie has a sound track.
        package let hasAudio: Bool
        /// The video stream's codec, where it is one a movie is written in here.
        package let codec: VideoCodec?
        /// The video stream's declared bits per second (0 where it declares none).
        package let bitRate: Int
        /// The movie's container-level metadata in file order, under the demuxer's keys (a QuickTime 'mdta' item
        /// under its reverse-DNS key).
        package let metadata: [(key: String, value: String)]
    }

    package let info: Info
    private let reader: OpaquePointer
    private var rgb: [UInt8]
    private var message = [CChar](repeating: 0, count: 256)

    /// Opens the movie at `path` and its video stream; throws where FFmpeg is missing, the file cannot be read, or
    /// it has no video stream with a size.
    package init(path: String) throws(MediaFileError) {
        if let reason = FFmpegMovieReader.unavailableReason {
            throw MediaFileError(code: .decoderMissing, message: reason)
        }
        var opened: OpaquePointer?
        var raw = cffmpeg_reader_info()
        let status = message.withUnsafeMutableBufferPointer { text in
            cffmpeg_reader_open(path, &opened, &raw, text.baseAddress, text.count)
        }
        guard status == Int32(CFFMPEG_OK), let opened else {
            throw MediaFileError(code: .undecodable, message: CStringBuffer.text(message))
        }
        guard raw.width > 0, raw.height > 0 else {
            cffmpeg_reader_close(opened)
            throw MediaFileError(code: .undecodable, message: "the movie's video stream declares no size")
        }
        reader = opened
        let m = withUnsafeBytes(of: raw.matrix) { Array($0.bindMemory(to: Int32.self)) }
        let fixed = { (i: Int) in Double(m[i]) / 65536 }
        let transform = m.allSatisfy { $0 == 0 } ? (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            : (fixed(0), fixed(1), fixed(3), fixed(4), fixed(6), fixed(7))
        var metadata: [(key: String, value: String)] = []
        var key: UnsafePointer<CChar>?, value: UnsafePointer<CChar>?
        while cffmpeg_reader_metadata(opened, Int32(metadata.count), &key, &value) != 0, let key, let value {
            metadata.append((String(cString: key), String(cString: value)))
        }
        info = Info(
            width: Int(raw.width), height: Int(raw.height), frames: Int(max(raw.frames, 0)), seconds: raw.seconds,
            rate: raw.rate, transform: transform, hasAudio: raw.has_audio != 0,
            codec: VideoCodec(ffmpegID: raw.codec_id), bitRate: Int(max(raw.bit_rate, 0)), metadata: metadata)
        rgb = [UInt8](repeating: 0, count: Int(raw.width) * Int(raw.height) * 3)
    }

    deinit { cffmpeg_reader_close(reader) }

    /// The next picture as 8-bit RGB at the stored size, with its presentation time in seconds (−1 where the
    /// stream gives none); nil after the last.
    package func next() throws(MediaFileError) -> (PixelPlane<UInt8>, Double)? {
        var seconds = -1.0
        let (width, height) = (info.width, info.height)
        let reader = self.reader
        let status = rgb.withUnsafeMutableBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer { text in
                cffmpeg_reader_next(
                    reader, pixels.baseAddress, Int32(width), Int32(height), &seconds, text.baseAddress, text.count)
            }
        }
        if status == Int32(CFFMPEG_END) { return nil }
        guard status == Int32(CFFMPEG_OK) else {
            throw MediaFileError(code: .undecodable, message: CStringBuffer.text(message))
        }
        return (PixelPlane(width: width, height: height, channels: 3, elements: rgb), seconds)
    }
}

/// A movie file's sound decoded one frame of samples at a time, through FFmpeg's libraries (CFFmpeg): what
/// `AVAssetReader` reads of an audio track.
package final class MovieSoundReader {
    /// One decoded frame: interleaved samples (−1…1), its channel count and rate, and its presentation time in
    /// seconds (−1 where the stream gives none).
    package struct Frame: Sendable {
        package let samples: [Float]
        package let channels: Int, rate: Int
        package let seconds: Double

        package init(samples: [Float], channels: Int, rate: Int, seconds: Double) {
            self.samples = samples
            self.channels = channels
            self.rate = rate
            self.seconds = seconds
        }
    }

    private let reader: OpaquePointer
    private var message = [CChar](repeating: 0, count: 256)
    /// Whether the stream is AAC, the codec movies' sound is written in here.
    package let isAAC: Bool

    /// Opens the movie at `path` and its sound stream; throws where FFmpeg is missing, the file cannot be read, or
    /// it has no sound stream.
    package init(path: String) throws(MediaFileError) {
        if let reason = FFmpegMovieReader.unavailableReason {
            throw MediaFileError(code: .decoderMissing, message: reason)
        }
        var opened: OpaquePointer?
        var info = cffmpeg_audio_info()
        let status = message.withUnsafeMutableBufferPointer { text in
            cffmpeg_audio_reader_open(path, &opened, &info, text.baseAddress, text.count)
        }
        guard status == Int32(CFFMPEG_OK), let opened else {
            throw MediaFileError(code: .undecodable, message: CStringBuffer.text(message))
        }
        reader = opened
        // FFmpeg's number for AAC.
        isAAC = info.codec_id == 86_018
    }

    deinit { cffmpeg_audio_reader_close(reader) }

    /// The next frame of sound; nil after the last.
    package func next() throws(MediaFileError) -> Frame? {
        var samples: UnsafePointer<Float>?
        var (count, channels, rate): (Int32, Int32, Int32) = (0, 0, 0)
        var seconds = -1.0
        let reader = self.reader
        let status = message.withUnsafeMutableBufferPointer { text in
            cffmpeg_audio_reader_next(
                reader, &samples, &count, &channels, &rate, &seconds, text.baseAddress, text.count)
        }
        if status == Int32(CFFMPEG_END) { return nil }
        guard status == Int32(CFFMPEG_OK), let samples, channels > 0, rate > 0 else {
            throw MediaFileError(code: .undecodable, message: CStringBuffer.text(message))
        }
        let values = Array(UnsafeBufferPointer(start: samples, count: Int(count) * Int(channels)))
        return Frame(samples: values, channels: Int(channels), rate: Int(rate), seconds: seconds)
    }
}
