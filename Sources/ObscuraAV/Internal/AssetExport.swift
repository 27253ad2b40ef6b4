import Foundation
import Imaging

/// What one export writes (Capture rules §25 rules 10 and 11): the time range within the movie, and the video and
/// sound settings the preset gives for this source.
struct ExportPlan {
    let range: CMTimeRange
    let codec: AVVideoCodecType
    let width: Int, height: Int
    let videoBitRate: Int
    /// AAC channels (1 or 2), rate and bits per second; nil without sound.
    let audio: (channels: Int, rate: Int, bitRate: Int)?

    /// The plan for `contents`, its pictures composed by `composition` where there is one (rule 16: then of its render
    /// size and frame rate); throws `AVError.exportFailed` for a time range that holds none of the movie.
    init(
        contents: AssetContents, preset: ExportPreset, range asked: CMTimeRange,
        composition: VideoCompositionPlan? = nil
    ) throws(AVError) {
        let duration = CMTime(seconds: contents.seconds, preferredTimescale: 600)
        // An invalid or unbounded range means the whole movie; any other is clipped to the movie.
        let start = asked.start.isNumeric ? max(asked.start, .zero) : .zero
        let end = asked.isValid && asked.end.isNumeric ? min(asked.end, duration) : duration
        guard end > start else {
            throw AVError(
                .exportFailed,
                userInfo: [
                    NSLocalizedFailureReasonErrorKey:
                        "the time range from \(asked.start.seconds) s for \(asked.duration.seconds) s holds none of the "
                        + "\(contents.seconds) s movie"
                ])
        }
        range = CMTimeRange(start: start, end: end)
        codec = preset.codec(for: contents.codec)
        if let composition {
            (width, height) = preset.pictureSize(width: composition.width, height: composition.height)
        } else {
            (width, height) = preset.pictureSize(width: contents.width, height: contents.height)
        }
        let step = composition?.frameDuration.seconds ?? 0
        let fps = step > 0 ? 1 / step : contents.rate > 0 ? contents.rate : 30
        videoBitRate = preset.videoBitRate(
            codec: codec, width: width, height: height, fps: fps, sourceBitRate: contents.bitRate)
        // The writer's sound track is the microphone's: mono at 44.1 kHz (our choice), the source mixed down to it.
        audio = contents.hasAudio ? (1, AVCaptureAudioDataOutput.sampleRate, preset.audioBitRatePerChannel) : nil
    }

    /// The bytes the plan's bit rates give over its range.
    var estimatedBytes: Int64 {
        let bits = Double(videoBitRate + (audio.map { $0.channels * $0.bitRate } ?? 0)) * range.duration.seconds
        return Int64((bits / 8).rounded())
    }
}

/// One export run (Capture rules §25 rules 10–12): the movie decoded by an asset reader and encoded again by an asset
/// writer, the sound mixed down to the writer's mono track, until the time range or a cancellation ends it. A
/// composition's sound tracks (rule 15) are mixed into that track, each at its `preferredVolume` times the session's
/// audio mix volume at each sample's time (rule 17).
final class AssetExport {
    private unowned let session: AVAssetExportSession
    private let plan: ExportPlan
    private let reader: AVAssetReader
    private let writer: AVAssetWriter
    /// The first video track's frames, or the video composition's.
    private let videoOutput: AVAssetReaderOutput
    private let videoInput: AVAssetWriterInput
    /// The sound tracks read and the writer's sound input; none without sound.
    private var soundTracks: [SoundTrack] = []
    private let soundInput: AVAssetWriterInput?
    private var mix = SoundMix()

    /// One sound track being read: its output, its mixer and volume (the audio mix's over time, where it has one),
    /// and whether it has given its last sample.
    struct SoundTrack {
        let output: AVAssetReaderTrackOutput
        var mixer = MonoMixer(targetRate: Double(AVCaptureAudioDataOutput.sampleRate))
        let volume: Float
        let volumes: Ramps<Float>?
        var finished = false

        /// The gain of the sample at `index` (at the microphone's rate).
        func gain(at index: Int64) -> Float {
            guard let volumes else { return volume }
            return volume * volumes.value(at: Double(index) / Double(AVCaptureAudioDataOutput.sampleRate))
        }
    }

    /// Checks the destination and sets up the reader and writer; throws what stops the export before it starts.
    init(
        session: AVAssetExportSession, url: URL?, fileType: AVFileType?, range: CMTimeRange, fastStart: Bool,
        metadata: [AVMetadataItem]
    ) throws(AVError) {
        func failed(_ reason: String) -> AVError {
            AVError(.exportFailed, userInfo: [NSLocalizedFailureReasonErrorKey: reason])
        }
        guard let url, url.isFileURL else { throw failed("the export session has no file URL as its outputURL") }
        guard let fileType else { throw failed("the export session has no outputFileType") }
        guard AVAssetExportSession.writtenTypes.contains(fileType) else {
            throw failed("\(fileType.rawValue) is not among the session's supportedFileTypes")
        }
        guard !FileManager.default.fileExists(atPath: url.path) else {
            throw AVError(.fileAlreadyExists, userInfo: [NSLocalizedFailureReasonErrorKey: "\(url.path) exists"])
        }
        let contents = try session.asset.contents.get()
        guard let track = session.asset.tracks(withMediaType: .video).first else {
            throw AVError(.fileFormatNotRecognized)
        }
        self.session = session
        let composition = session.videoComposition
        let composing = composition.map(VideoCompositionPlan.init)
        try composing?.check(asset: session.asset, range: range)
        plan = try ExportPlan(contents: contents, preset: session.preset, range: range, composition: composing)
        do {
            reader = try AVAssetReader(asset: session.asset)
            writer = try AVAssetWriter(outputURL: url, fileType: fileType)
        } catch {
            throw (error as? AVError) ?? failed("\(error)")
        }
        reader.timeRange = plan.range
        let bgra: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        if let composition {
            let output = AVAssetReaderVideoCompositionOutput(
                videoTracks: session.asset.tracks(withMediaType: .video), videoSettings: bgra)
            output.videoComposition = composition
            videoOutput = output
        } else {
            videoOutput = AVAssetReaderTrackOutput(track: track, outputSettings: bgra)
        }
        reader.add(videoOutput)
        videoInput = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [
                AVVideoCodecKey: plan.codec, AVVideoWidthKey: plan.width, AVVideoHeightKey: plan.height,
                AVVideoCompressionPropertiesKey: [AVVideoAverageBitRateKey: plan.videoBitRate],
            ])
        // A composition has turned its frames already.
        videoInput.transform = composition == nil ? track.preferredTransform : .identity
        writer.add(videoInput)
        let sources = session.asset.tracks(withMediaType: .audio).filter(\.isEnabled)
        let volumes = session.audioMix?.volumes ?? [:]
        if let audio = plan.audio, !sources.isEmpty {
            var tracks: [SoundTrack] = []
            for track in sources {
                let output = AVAssetReaderTrackOutput(
                    track: track, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16])
                reader.add(output)
                tracks.append(
                    SoundTrack(output: output, volume: track.preferredVolume, volumes: volumes[track.trackID]))
            }
            let input = AVAssetWriterInput(
                mediaType: .audio,
                outputSettings: [
                    AVFormatIDKey: kAudioFormatMPEG4AAC, AVNumberOfChannelsKey: audio.channels,
                    AVSampleRateKey: audio.rate, AVEncoderBitRateKey: audio.bitRate,
                ])
            writer.add(input)
            soundTracks = tracks
            soundInput = input
        } else {
            soundInput = nil
        }
        writer.shouldOptimizeForNetworkUse = fastStart
        writer.metadata = metadata
    }

    /// The part of the movie this run exports.
    var range: CMTimeRange { plan.range }

    /// Decodes and encodes the time range, then finishes the file; throws why it stopped. A cancelled export
    /// returns with nothing left at the destination.
    func run() throws(AVError) {
        guard reader.startReading() else { throw Self.avError(reader.error) }
        guard writer.startWriting() else { throw Self.avError(writer.error) }
        let start = plan.range.start
        writer.startSession(atSourceTime: start)
        while let sample = videoOutput.copyNextSampleBuffer() {
            if session.isCancelled { return abandon() }
            guard let image = sample.imageBuffer else { continue }
            // The picture on screen when the range starts is shown from its start.
            let time = max(sample.presentationTimeStamp, start)
            try pumpSound(until: time + sample.duration)
            guard videoInput.appendPixelBuffer(image, at: time) else { throw Self.avError(writer.error) }
            session.report(progress: Float((time - start).seconds / max(plan.range.duration.seconds, 1e-9)))
        }
        if session.isCancelled { return abandon() }
        if reader.status == .failed { throw Self.avError(reader.error) }
        try pumpSound(until: nil)
        writer.endSession(atSourceTime: plan.range.end)
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        done.wait()
        guard writer.status == .completed else { throw Self.avError(writer.error) }
    }

    /// Hands the sound decoded before `time` (all of it for nil) to the writer, each track mixed down to mono at
    /// the microphone's rate and the tracks summed.
    private func pumpSound(until time: CMTime?) throws(AVError) {
        guard let input = soundInput else { return }
        let rate = CMTimeScale(AVCaptureAudioDataOutput.sampleRate)
        for k in soundTracks.indices where !soundTracks[k].finished {
            while true {
                if let time, let next = soundTracks[k].mixer.nextTime, next >= time { break }
                guard let buffer = soundTracks[k].output.copyNextSampleBuffer() else {
                    soundTracks[k].finished = true
                    break
                }
                guard let (samples, channels, sourceRate) = Self.pcm(buffer) else { continue }
                let (mono, at) = soundTracks[k].mixer.take(
                    samples, channels: channels, rate: sourceRate, at: buffer.presentationTimeStamp)
                let index = at.convertScale(rate, method: .roundHalfAwayFromZero).value
                let track = soundTracks[k]
                mix.add(mono, at: index) { track.gain(at: $0) }
            }
        }
        // Everything before the next sample of a track still being read is complete.
        let pending = soundTracks.filter { !$0.finished }.compactMap(\.mixer.nextTime)
        let ready = pending.map { $0.convertScale(rate, method: .roundHalfAwayFromZero).value }.min() ?? .max
        if let (samples, start) = mix.take(upTo: ready), !samples.isEmpty,
            !input.appendMonoSamples(samples, at: CMTime(value: start, timescale: rate))
        {
            throw Self.avError(writer.error)
        }
    }

    /// A buffer's interleaved 16-bit samples, its channel count and its rate.
    private static func pcm(_ buffer: CMSampleBuffer) -> ([Int16], Int, Double)? {
        guard let description = buffer.formatDescription,
            let stream = CMAudioFormatDescriptionGetStreamBasicDescription(description)?.pointee,
            let bytes = buffer.dataBuffer?.bytes
        else { return nil }
        let samples = bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
        }
        return (samples, max(1, Int(stream.mChannelsPerFrame)), stream.mSampleRate)
    }

    /// Stops reading and writing; the writer removes what it wrote.
    private func abandon() {
        reader.cancelReading()
        writer.cancelWriting()
    }

    private static func avError(_ error: (any Error)?) -> AVError {
        (error as? AVError)
            ?? AVError(.exportFailed, userInfo: [NSLocalizedFailureReasonErrorKey: error.map { "\($0)" } ?? "unknown"])
    }
}

/// Sound tracks summed into one: each track's mono samples placed at their sample index and added, clipped to 16 bits
/// as they are given out.
struct SoundMix {
    /// The sample index of `sums[0]`, once a sample has come.
    private var start: Int64?
    private var sums: [Float] = []

    /// Adds `samples` from sample index `index` on, each times `gain` of its index.
    mutating func add(_ samples: [Int16], at index: Int64, gain: (Int64) -> Float) {
        guard !samples.isEmpty else { return }
        let origin = start ?? index
        // Sound earlier than what was given out already is too late to mix: it is dropped.
        let skip = Int(max(0, origin - index))
        guard skip < samples.count else { return }
        let offset = Int(index - origin) + skip
        start = origin
        if sums.count < offset + samples.count - skip {
            sums.append(contentsOf: repeatElement(0, count: offset + samples.count - skip - sums.count))
        }
        for i in skip..<samples.count { sums[offset + i - skip] += gain(index + Int64(i)) * Float(samples[i]) }
    }

    /// The mixed samples before sample index `end`, and the index of the first; nil before any sound.
    mutating func take(upTo end: Int64) -> ([Int16], Int64)? {
        guard let origin = start else { return nil }
        let count = Int(min(Int64(sums.count), max(0, end - origin)))
        let out = sums[..<count].map { Int16(clamping: Int($0.rounded())) }
        sums.removeFirst(count)
        start = origin + Int64(count)
        return (out, origin)
    }
}

/// Mixes interleaved sound down to one channel and resamples it to a fixed rate by linear interpolation, carrying
/// its position across buffers so that no buffer's edge clicks.
struct MonoMixer {
    let targetRate: Double
    /// The time of the next sample made, once the first buffer has come.
    private(set) var nextTime: CMTime?
    /// Samples not yet passed (the last one read, which the next output sample may fall after).
    private var pending: [Double] = []
    /// The position of the next output sample within `pending`, in source samples.
    private var position = 0.0
    private var made: Int64 = 0
    private var firstTime = CMTime.zero

    init(targetRate: Double) { self.targetRate = targetRate }

    /// The mono samples `samples` (interleaved, `channels` a frame, at `rate`) give, and the time the first of them
    /// plays at.
    mutating func take(_ samples: [Int16], channels: Int, rate: Double, at time: CMTime) -> ([Int16], CMTime) {
        if nextTime == nil { firstTime = time }
        // Time with no sound (an empty stretch of a composition) is silence, so later sound keeps its place.
        if let next = nextTime, time > next {
            let gap = Int(((time - next).seconds * rate).rounded())
            if gap > 0 { pending.append(contentsOf: repeatElement(0, count: gap)) }
        }
        let frames = samples.count / channels
        for f in 0..<frames {
            var sum = 0.0
            for c in 0..<channels { sum += Double(samples[f * channels + c]) }
            pending.append(sum / Double(channels))
        }
        let step = rate / targetRate
        var out: [Int16] = []
        while position + 1 < Double(pending.count) {
            let i = Int(position), t = position - Double(i)
            let v = pending[i] * (1 - t) + pending[i + 1] * t
            out.append(Int16(clamping: Int(v.rounded())))
            position += step
        }
        let used = min(Int(position), pending.count)
        pending.removeFirst(used)
        position -= Double(used)
        let at = firstTime + CMTime(value: made, timescale: Int32(targetRate))
        made += Int64(out.count)
        nextTime = firstTime + CMTime(value: made, timescale: Int32(targetRate))
        return (out, at)
    }
}

/// The top-level layout of a QuickTime or MPEG-4 file (ISO/IEC 14496-12 §4.2, boxes laid end to end, each with a
/// 32-bit size, or 1 and a 64-bit size after the type): which container its `ftyp` brand names, and whether the movie
/// box comes before the media, as a file optimised for network use has it.
struct MovieFileLayout: Equatable {
    let fileType: AVFileType
    let movieFirst: Bool

    /// The layout of the file at `url`; nil where its boxes do not read as a movie's.
    init?(url: URL) {
        guard let file = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? file.close() }
        var at: UInt64 = 0
        var type: AVFileType?
        var order: [String] = []
        while order.count < 2, (try? file.seek(toOffset: at)) != nil,
            let head = try? file.read(upToCount: 16), head.count >= 8
        {
            let bytes = [UInt8](head)
            func number(_ range: Range<Int>) -> UInt64 { bytes[range].reduce(0) { $0 << 8 | UInt64($1) } }
            var size = number(0..<4)
            let name = String(decoding: bytes[4..<8], as: UTF8.self)
            if size == 1, bytes.count == 16 { size = number(8..<16) }
            guard size >= 8 else { return nil }
            // The major brand follows the file type box's header.
            if name == "ftyp", bytes.count >= 12 {
                switch String(decoding: bytes[8..<12], as: UTF8.self) {
                case "qt  ": type = .mov
                case "M4V ", "M4VH", "M4VP": type = .m4v
                default: type = .mp4
                }
            }
            if name == "moov" || name == "mdat" { order.append(name) }
            at += size
        }
        guard let type, order.count == 2 else { return nil }
        fileType = type
        movieFirst = order.first == "moov"
    }
}
