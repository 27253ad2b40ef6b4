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
        if let unavailableReason { throw MediaFileError(code: .decoderMissing, message: unavailableReason) }
        var message = [CChar](repeating: 0, count: 256)
        var reader: OpaquePointer?
        var info = cffmpeg_reader_info()
        let status = message.withUnsafeMutableBufferPointer { text in
            cffmpeg_reader_open(path, &reader, &info, text.baseAddress, text.count)
        }
        guard status == Int32(CFFMPEG_OK), let reader else {
            throw MediaFileError(code: .undecodable, message: CStringBuffer.text(message))
        }
        defer { cffmpeg_reader_close(reader) }
        let (width, height) = (Int(info.width), Int(info.height))
        guard width > 0, height > 0 else {
            throw MediaFileError(code: .undecodable, message: "the movie's video stream declares no size")
        }
        // The bound is checked on what the container declares, before decoding: its frame count, else its
        // duration at its frame rate. A container that declares neither is held to the bound frame by frame.
        let estimate = (info.seconds * info.rate).rounded(.up)
        let fromDuration = estimate.isFinite && estimate >= 0 ? Int(min(estimate, 1e15)) : 0
        let declared = info.frames > 0 ? Int(info.frames) : fromDuration
        try MovieFile.checkBound(frames: declared, width: width, height: height, maximumPixels: maximumPixels)
        var frames: [PixelPlane<UInt8>] = []
        var times: [Double] = []
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        while true {
            var seconds = -1.0
            let next = rgb.withUnsafeMutableBufferPointer { pixels in
                message.withUnsafeMutableBufferPointer { text in
                    cffmpeg_reader_next(
                        reader, pixels.baseAddress, Int32(width), Int32(height), &seconds, text.baseAddress, text.count)
                }
            }
            if next == Int32(CFFMPEG_END) { break }
            guard next == Int32(CFFMPEG_OK) else {
                throw MediaFileError(
                    code: .undecodable, message: "frame \(frames.count + 1): \(CStringBuffer.text(message))")
            }
            try MovieFile.checkBound(
                frames: frames.count + 1, width: width, height: height, maximumPixels: maximumPixels)
            let frame = PixelPlane<UInt8>(width: width, height: height, channels: 3, elements: rgb)
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
