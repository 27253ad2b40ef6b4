import Foundation

/// The movie an asset writer encodes (Capture rules §23): the file, the session's time line, and
/// the audio gathered into the encoder's 1,024-sample buffers.
///
/// Times are counted in ticks of 1/90,000 s, MPEG's clock, which holds 24, 25, 30, 60, 120 and
/// 240 frames a second and NTSC's 30,000/1,001 exactly. Calls must not overlap; `AVAssetWriter`
/// makes them under its encoding lock.
final class AssetWriterMovie: @unchecked Sendable {
    static let timescale: Int32 = 90_000

    /// What the video input asked for, resolved to numbers.
    struct Video {
        var codec: AVVideoCodecType
        /// Nil when the settings leave the size to the first picture.
        var size: (width: Int, height: Int)?
        var bitRate: Int?
        var keyFrameInterval: Int?
        var frameRate: Double
        var rotationDegrees: Int
    }

    let destination: String
    let container: String
    let video: Video
    let hasAudio: Bool
    /// Audio channels (1 or 2), AAC bits per second (0: the encoder's default) and the track's sample
    /// rate (0: the microphone's).
    let audioChannels: Int
    let audioBitRate: Int
    let audioRate: Int
    let fragmentInterval: CMTime
    let fastStart: Bool
    /// The movie's QuickTime metadata items.
    let metadata: [(key: String, value: String)]
    /// Segment output (`AVAssetWriter`'s segments, Capture rules §23 rule 11): where the first segment starts and
    /// how long each lasts, in the samples' own time line; nil for a movie file.
    struct Segmenting {
        var start: CMTime
        var interval: CMTime
        /// Whether the segments are declared CMAF (the CMAF profile) rather than plain fragmented MPEG-4 (HLS).
        var cmaf = false
    }
    let segmenting: Segmenting?
    /// Segment data made and not yet handed to the writer's delegate, oldest first.
    private var made: [(data: [UInt8], type: AVAssetSegmentType)] = []
    /// The time at which the current segment is due to end, once a picture has started it.
    private var boundary: CMTime?
    private var picturesInSegment = 0

    /// The session's start, in the samples' own time line.
    private var start: CMTime?
    private var end: CMTime?
    private var writer: MovieWriter?
    private var lastTicks: Int64 = -1
    /// Audio not yet encoded, from sample `audioStart` of the movie on.
    private var audio: [Int16] = []
    private var audioStart: Int64 = 0

    init(
        destination: String, container: String, video: Video, audio: (channels: Int, bitRate: Int, rate: Int)?,
        fragmentInterval: CMTime, fastStart: Bool, metadata: [(key: String, value: String)] = [],
        segmenting: Segmenting? = nil
    ) {
        self.segmenting = segmenting
        self.destination = destination
        self.container = container
        self.video = video
        hasAudio = audio != nil
        audioChannels = audio?.channels ?? 1
        audioBitRate = audio?.bitRate ?? 0
        audioRate = audio?.rate ?? 0
        self.fragmentInterval = fragmentInterval
        self.fastStart = fastStart
        self.metadata = metadata
    }

    /// Opens the file now when the settings give its size; otherwise the first picture will.
    func open() throws(MovieWriter.Failure) {
        if let size = video.size { try openWriter(width: size.width, height: size.height) }
    }

    func startSession(at time: CMTime) { start = time }

    /// Ends the session at `time`: later samples are left out, the picture on screen then lasts only until it, and
    /// audio gathered past it is dropped.
    /// A time that is not a number (such as `.positiveInfinity`) leaves the session open.
    func endSession(at time: CMTime) {
        guard time.isNumeric, let start, let last = samples(time - start) else { return }
        end = time
        if let ticks = ticks(time) { writer?.endVideo(ticks: ticks) }
        let kept = max(0, last - audioStart)
        if kept < Int64(audio.count) { audio.removeLast(audio.count - Int(kept)) }
    }

    var sessionStarted: Bool { start != nil }

    /// Whether the movie was finished or discarded: it takes no more samples.
    private(set) var closed = false

    /// Encodes one picture shown at `time`. Pictures before the session's start or after its end are
    /// left out, as a player would not show them; it fails when `time` is not a number or does not
    /// follow the last picture.
    func appendPicture(_ buffer: CVPixelBuffer, at time: CMTime) throws(MovieWriter.Failure) {
        guard let ticks = ticks(time) else {
            throw MovieWriter.Failure(unavailable: false, description: "a picture's presentation time \(time) is not a number")
        }
        guard ticks >= 0 else { return }
        if let end, time > end { return }
        guard ticks > lastTicks else {
            throw MovieWriter.Failure(
                unavailable: false,
                description: "a picture at \(time.seconds) s does not follow the one before it; "
                    + "presentation times must increase")
        }
        if writer == nil { try openWriter(width: buffer.width, height: buffer.height) }
        try cutSegmentIfDue(before: time)
        try writer?.appendPicture(buffer, ticks: ticks)
        picturesInSegment += 1
        lastTicks = ticks
        try flushAudio(padding: false)
    }

    /// Takes mono 16-bit samples that start at `time`: a gap before them is silence, an overlap with
    /// what came before is dropped, and samples outside the session are left out. A start within two
    /// samples of where the last buffer ended continues it, so a clock's rounding makes no click.
    func appendAudio(_ samples: [Int16], at time: CMTime) throws(MovieWriter.Failure) {
        guard hasAudio, let start else { return }
        guard time.isNumeric, var first = self.samples(time - start) else {
            throw MovieWriter.Failure(unavailable: false, description: "an audio buffer's time \(time) is not a number")
        }
        var kept = samples[...]
        if let end, let last = self.samples(end - start) {
            kept = kept.prefix(Int(max(0, min(Int64(kept.count), last - first))))
        }
        let next = audioStart + Int64(audio.count)
        if abs(first - next) <= 2 { first = next }
        if first < next {
            kept = kept.dropFirst(Int(min(next - first, Int64(kept.count))))
            first = next
        }
        if kept.isEmpty { return }
        audio.append(contentsOf: repeatElement(0, count: Int(first - next)))
        audio.append(contentsOf: kept)
        try flushAudio(padding: false)
    }

    /// Encodes what is left, writes the trailer and puts the movie at its destination; segment output makes its
    /// last segment instead.
    func finish() throws(MovieWriter.Failure) {
        closed = true
        guard let writer else {
            throw MovieWriter.Failure(
                unavailable: false, description: "no picture was appended, so the movie's size is unknown")
        }
        try flushAudio(padding: true)
        if segmenting != nil {
            let last = try writer.finishSegments()
            if !last.isEmpty { made.append((last, .separable)) }
            return
        }
        try writer.finish()
        try writer.publish()
    }

    /// The segment data made since the last call, oldest first.
    func takeSegments() -> [(data: [UInt8], type: AVAssetSegmentType)] {
        defer { made.removeAll() }
        return made
    }

    /// Before a picture at `time`: once the segment has reached its end, writes it (every sample encoded so
    /// far, audio included) and makes the picture a key frame that starts the next one. Segments end at the
    /// first picture at or after `start + k · interval`, so each begins with a sync sample and lasts its interval
    /// to within a frame (Capture rules §23 rule 11).
    private func cutSegmentIfDue(before time: CMTime) throws(MovieWriter.Failure) {
        guard let segmenting, let writer else { return }
        if let boundary, time < boundary { return }
        if picturesInSegment > 0 {
            made.append((try writer.cutFragment(), .separable))
            picturesInSegment = 0
        }
        writer.forceKeyFrame()
        // The first boundary after this picture: estimated in seconds, then settled in exact times, so that a
        // picture on a boundary is not taken for one just before it.
        let interval = segmenting.interval
        func edge(_ k: Int64) -> CMTime { segmenting.start + CMTime(value: interval.value * k, timescale: interval.timescale) }
        var k = max(1, Int64(((time - segmenting.start).seconds / interval.seconds).rounded(.down)) - 1)
        while edge(k) <= time { k += 1 }
        boundary = edge(k)
    }

    /// Closes the file unfinished and removes it.
    func discard() {
        closed = true
        writer?.discard()
        writer = nil
    }

    /// `time` after the session's start in ticks; nil when it is not a number (another epoch included).
    private func ticks(_ time: CMTime) -> Int64? {
        guard let start, time.isNumeric else { return nil }
        return Self.count(time - start, perSecond: Double(Self.timescale))
    }

    /// A span in the microphone's samples; nil when it is not a number.
    private func samples(_ span: CMTime) -> Int64? {
        Self.count(span, perSecond: Double(AVCaptureAudioDataOutput.sampleRate))
    }

    /// How many units of `1 / perSecond` a span holds, rounded; nil when it is not a finite number
    /// that an `Int64` holds.
    private static func count(_ span: CMTime, perSecond: Double) -> Int64? {
        guard span.isNumeric else { return nil }
        let units = (span.seconds * perSecond).rounded()
        return units.isFinite && abs(units) < 9e15 ? Int64(units) : nil
    }

    private func openWriter(width: Int, height: Int) throws(MovieWriter.Failure) {
        // 4:2:0 movies hold even sizes: an odd size is rounded down, and pictures are scaled to it.
        let (w, h) = (width & ~1, height & ~1)
        guard w > 0, h > 0 else {
            throw MovieWriter.Failure(unavailable: false, description: "a \(width)×\(height) picture cannot be encoded")
        }
        let fps = video.frameRate > 0 ? video.frameRate : 30
        let frameTicks = max(1, Int64((Double(Self.timescale) / fps).rounded()))
        let dimensions = CMVideoDimensions(width: Int32(w), height: Int32(h))
        let defaults = AVCaptureMovieFileOutput.defaultCompression(video.codec, dimensions: dimensions, fps: fps)
        var plan = MovieWriter.Plan(
            codec: video.codec, container: container, width: w, height: h,
            frameDuration: CMTime(value: frameTicks, timescale: Self.timescale),
            bitRate: video.bitRate ?? defaults[AVVideoAverageBitRateKey] as? Int ?? 0,
            keyFrameInterval: video.keyFrameInterval ?? defaults[AVVideoMaxKeyFrameIntervalKey] as? Int ?? 30,
            hasAudio: hasAudio, fragmentInterval: fragmentInterval)
        plan.rotationDegrees = video.rotationDegrees
        plan.fastStart = fastStart
        plan.metadata = metadata
        plan.audioChannels = audioChannels
        plan.audioBitRate = audioBitRate
        plan.audioRate = audioRate
        plan.segmented = segmenting != nil
        plan.cmaf = segmenting?.cmaf ?? false
        let opened = try MovieWriter(destination: destination, plan: plan)
        writer = opened
        if segmenting != nil { made.append((opened.takeOutput(), .initialization)) }
    }

    /// Encodes every whole 1,024-sample buffer gathered, and with `padding` the rest filled with silence.
    private func flushAudio(padding: Bool) throws(MovieWriter.Failure) {
        guard let writer else { return }
        let size = AVCaptureAudioDataOutput.samplesPerBuffer
        if padding, audio.count % size != 0 {
            audio.append(contentsOf: repeatElement(0, count: size - audio.count % size))
        }
        var used = 0
        while audio.count - used >= size {
            try writer.appendAudio(Array(audio[used..<(used + size)]), sampleIndex: audioStart)
            used += size
            audioStart += Int64(size)
        }
        audio.removeFirst(used)
    }
}
