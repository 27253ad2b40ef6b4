import AVFoundation
import CoreMedia
import CoreVideo
import ExternalTools
import Foundation
import Testing

/// Records frames the way apps that filter video do: a video data output's delegate hands each
/// frame to an asset writer, starting the writer's session at the first frame's time.
final class WriterRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable
{
    let writer: AVAssetWriter
    let videoInput: AVAssetWriterInput
    let audioInput: AVAssetWriterInput?
    private let wanted: Int
    private let lock = NSLock()
    private var frames = 0
    private var audioBuffers = 0
    private var finishing = false
    let done = DispatchSemaphore(value: 0)

    /// Called with the first frame's time just before writing starts (a segment writer's start goes there).
    var beforeStart: (CMTime) -> Void = { _ in }

    convenience init(url: URL, video: [String: Any]?, audio: [String: Any]?, frames wanted: Int) throws {
        self.init(writer: try AVAssetWriter(outputURL: url, fileType: .mov), video: video, audio: audio, frames: wanted)
    }

    init(writer: AVAssetWriter, video: [String: Any]?, audio: [String: Any]?, frames wanted: Int) {
        self.writer = writer
        videoInput = AVAssetWriterInput(mediaType: .video, outputSettings: video)
        videoInput.expectsMediaDataInRealTime = true
        audioInput = audio.map { AVAssetWriterInput(mediaType: .audio, outputSettings: $0) }
        audioInput?.expectsMediaDataInRealTime = true
        self.wanted = wanted
        super.init()
        if writer.canAdd(videoInput) { writer.add(videoInput) }
        if let audioInput, writer.canAdd(audioInput) { writer.add(audioInput) }
    }

    var counts: (frames: Int, audio: Int) { lock.withLock { (frames, audioBuffers) } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if output is AVCaptureAudioDataOutput {
            guard writer.status == .writing, let audioInput, audioInput.isReadyForMoreMediaData,
                !lock.withLock({ finishing })
            else { return }
            if audioInput.append(sampleBuffer) { lock.withLock { audioBuffers += 1 } }
            return
        }
        if writer.status == .unknown {
            beforeStart(CMSampleBufferGetPresentationTimeStamp(sampleBuffer))
            guard writer.startWriting() else {
                done.signal()
                return
            }
            writer.startSession(atSourceTime: CMSampleBufferGetPresentationTimeStamp(sampleBuffer))
        }
        guard writer.status == .writing, videoInput.isReadyForMoreMediaData else { return }
        let finish: Bool = lock.withLock {
            guard !finishing else { return false }
            return true
        }
        guard finish else { return }
        if videoInput.append(sampleBuffer) {
            let last = lock.withLock {
                frames += 1
                if frames == wanted { finishing = true }
                return frames == wanted
            }
            if last {
                videoInput.markAsFinished()
                audioInput?.markAsFinished()
                writer.finishWriting { self.done.signal() }
            }
        }
    }
}

extension ExternalTool {
    /// ffmpeg's command-line program, which decodes a written frame back to RGB bytes.
    static let ffmpegProgram = program("ffmpeg", packages: "ffmpeg", versionArgument: "-version")
}

/// The RGB bytes of frame `index` of a movie, decoded by ffmpeg's program at the stored size.
func decodedRGB(_ url: URL, frame index: Int) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try ExternalTool.ffmpegProgram.require())
    process.arguments = [
        "-v", "error", "-i", url.path, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
        "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](data)
}

extension DropIn {
    // ffprobe counts and times the frames; ffmpeg's program decodes pictures and sound back.
    @Suite(.needs(.ffmpeg, .ffprobe, .ffmpegProgram))
    struct AssetWriterIdiomTests {
        /// Runs the default camera at `preset` with the microphone, their data outputs feeding a `WriterRecorder` of
        /// `frames` frames with the video output's recommended settings and the audio settings `audio` gives, and
        /// returns once the recorder has finished.
        static func record(
            to url: URL, preset: AVCaptureSession.Preset, frames: Int, pixelFormat: OSType? = nil,
            audio: (AVCaptureAudioDataOutput) -> [String: Any]?
        ) throws -> (WriterRecorder, AVCaptureDevice) {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = preset
            let camera = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
            let videoOutput = AVCaptureVideoDataOutput()
            if let pixelFormat { videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: pixelFormat] }
            let audioOutput = AVCaptureAudioDataOutput()
            session.addOutput(videoOutput)
            session.addOutput(audioOutput)
            session.commitConfiguration()
            let recorder = try WriterRecorder(
                url: url, video: videoOutput.recommendedVideoSettingsForAssetWriter(writingTo: .mov),
                audio: audio(audioOutput), frames: frames)
            let queue = DispatchQueue(label: "recording")
            videoOutput.setSampleBufferDelegate(recorder, queue: queue)
            audioOutput.setSampleBufferDelegate(recorder, queue: queue)
            session.startRunning()
            #expect(recorder.done.wait(timeout: .now() + 120) == .success)
            session.stopRunning()
            return (recorder, camera)
        }

        // spec §23 rules 3, 5: frames and microphone buffers from data outputs, written with the
        // outputs' recommended settings, make an H.264 movie of exactly the frames appended, timed as
        // the camera timed them, with an AAC track.
        @Test func framesFromAVideoDataOutputMakeAMovie() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("filtered.mov")

            let (recorder, camera) = try Self.record(
                to: url, preset: .hd1280x720, frames: 30, pixelFormat: kCVPixelFormatType_32BGRA
            ) { $0.recommendedAudioSettingsForAssetWriter(writingTo: .mov) }
            #expect(recorder.writer.status == .completed, "\(String(describing: recorder.writer.error))")
            #expect(recorder.counts.frames == 30 && recorder.counts.audio > 0)
            let probe = try ProbedMovie(url)
            let video = try #require(probe.video)
            let fps = 1 / camera.activeVideoMinFrameDuration.seconds
            #expect(video.codec == "h264" && video.width == 1280 && video.height == 720)
            #expect(video.frames == 30)
            let duration = try #require(video.duration)
            #expect(abs(duration - 30 / fps) < 1.5 / fps, "duration \(duration)")
            let audio = try #require(probe.audio)
            #expect(audio.codec == "aac" && audio.sampleRate == 44_100 && audio.channels == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["filtered.mov"])
        }

        // spec §23 rule 3: audio settings of another rate and two channels are honoured: the microphone's
        // 1 kHz tone at a quarter of full scale (AVCaptureAudioDataOutput's documented signal) comes out of
        // the 48 kHz stereo track at 1 kHz, with an RMS of 0.25/√2, in both channels.
        @Test func audioIsResampledToTheRateAsked() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("stereo.mov")
            let (recorder, _) = try Self.record(to: url, preset: .vga640x480, frames: 45) { _ in
                [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2, AVEncoderBitRateKey: 128_000]
            }
            #expect(recorder.writer.status == .completed, "\(String(describing: recorder.writer.error))")
            let probe = try ProbedMovie(url)
            let audio = try #require(probe.audio)
            #expect(audio.codec == "aac" && audio.sampleRate == 48_000 && audio.channels == 2)
            // The sound lasts as long as the pictures, within an AAC frame and a picture.
            let seconds = try #require(audio.duration), pictures = try #require(probe.video?.duration)
            #expect(abs(seconds - pictures) < 1024.0 / 48_000 + 1.0 / 30, "audio \(seconds) s, video \(pictures) s")

            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ExternalTool.ffmpegProgram.require())
            process.arguments = ["-v", "error", "-i", url.path, "-map", "0:a", "-f", "s16le", "-acodec", "pcm_s16le", "-"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let bytes = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let samples = bytes.withUnsafeBytes { raw in
                (0..<(raw.count / 2)).map { Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self))) / 32768 }
            }
            // Left and right alternate; the middle half second of the left channel.
            let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
            let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
            #expect(left.count > 36_000)
            let middle = Array(left[(left.count / 2 - 12_000)..<(left.count / 2 + 12_000)])
            let rising = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
            #expect(abs(rising - 500) <= 2, "\(rising) cycles in 0.5 s")
            let rms = (middle.map { $0 * $0 }.reduce(0, +) / Double(middle.count)).squareRoot()
            #expect(abs(rms - 0.25 / 2.0.squareRoot()) < 0.01, "RMS \(rms)")
            #expect(zip(left, right).allSatisfy { $0 == $1 })
        }

        // spec §23 rule 3: the audio settings a recorder app writes, with AVFAudio's quality, strategy and converter
        // keys beside a bit rate per channel: the movie is written, stereo, at the per-channel rate times two (the
        // quality keys change nothing). A second movie at half the rate checks that the key is what set it.
        @Test func audioSettingsWithQualityKeysAndABitRatePerChannel() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var rates: [Int] = []
            for perChannel in [64_000, 32_000] {
                let url = folder.appendingPathComponent("recorder-\(perChannel).mov")
                let (recorder, _) = try Self.record(to: url, preset: .vga640x480, frames: 45) { _ in
                    [
                        AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_100.0, AVNumberOfChannelsKey: 2,
                        AVEncoderBitRatePerChannelKey: perChannel, AVEncoderAudioQualityKey: AVAudioQuality.high.rawValue,
                        AVEncoderBitRateStrategyKey: AVAudioBitRateStrategy_Constant,
                        AVSampleRateConverterAudioQualityKey: AVAudioQuality.max.rawValue,
                    ]
                }
                #expect(recorder.writer.status == .completed, "\(String(describing: recorder.writer.error))")
                let audio = try #require(try ProbedMovie(url).audio)
                #expect(audio.codec == "aac" && audio.sampleRate == 44_100 && audio.channels == 2)
                rates.append(try #require(audio.bitRate))
            }
            #expect(rates[0] > 100_000 && rates[0] <= 140_000, "\(rates[0]) bit/s for 2 × 64 kbit/s")
            #expect(rates[1] > 45_000 && rates[1] <= 70_000, "\(rates[1]) bit/s for 2 × 32 kbit/s")
        }

        /// Writes `count` frames of one colour through a pixel buffer adaptor, in the pool's format,
        /// one every 1/24 s, and returns the movie's URL inside `folder`.
        func writeFlatClip(
            in folder: URL, format: OSType, fill: (CVPixelBuffer) -> Void, size: (Int, Int) = (320, 240),
            count: Int = 24, settings extra: [String: Any] = [:], configure: (AVAssetWriter, AVAssetWriterInput) -> Void = { _, _ in }
        ) throws -> URL {
            let url = folder.appendingPathComponent("clip-\(UUID().uuidString).mov")
            let writer = try AVAssetWriter(url: url, fileType: .mov)
            var settings: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: size.0, AVVideoHeightKey: size.1]
            settings.merge(extra) { _, new in new }
            let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(
                assetWriterInput: input,
                sourcePixelBufferAttributes: [
                    kCVPixelBufferPixelFormatTypeKey as String: format, kCVPixelBufferWidthKey as String: 320,
                    kCVPixelBufferHeightKey as String: 240,
                ])
            configure(writer, input)
            writer.add(input)
            #expect(adaptor.pixelBufferPool == nil)
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: .zero)
            let pool = try #require(adaptor.pixelBufferPool)
            for i in 0..<count {
                var buffer: CVPixelBuffer?
                #expect(CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool, &buffer) == kCVReturnSuccess)
                let frame = try #require(buffer)
                CVPixelBufferLockBaseAddress(frame, [])
                fill(frame)
                CVPixelBufferUnlockBaseAddress(frame, [])
                #expect(adaptor.append(frame, withPresentationTime: CMTime(value: Int64(i), timescale: 24)))
            }
            input.markAsFinished()
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(writer.status == .completed, "\(String(describing: writer.error))")
            return url
        }

        /// Fills every byte of a plane with a repeating pattern of `bytes`.
        static func fillPlane(_ buffer: CVPixelBuffer, _ plane: Int, _ bytes: [UInt8]) {
            let planar = CVPixelBufferIsPlanar(buffer)
            let base = planar ? CVPixelBufferGetBaseAddressOfPlane(buffer, plane) : CVPixelBufferGetBaseAddress(buffer)
            let stride = planar ? CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) : CVPixelBufferGetBytesPerRow(buffer)
            let rows = planar ? CVPixelBufferGetHeightOfPlane(buffer, plane) : CVPixelBufferGetHeight(buffer)
            guard let row0 = base?.assumingMemoryBound(to: UInt8.self) else { return }
            for y in 0..<rows {
                for x in 0..<stride { row0[y * stride + x] = bytes[x % bytes.count] }
            }
        }

        /// The colour every layout below draws: sRGB-encoded (200, 120, 40).
        static let colour: (r: Double, g: Double, b: Double) = (200, 120, 40)

        /// Y'CbCr codes of `colour` under BT.601 (Y' = 0.299 R + 0.587 G + 0.114 B), video or full range, on
        /// a scale of `levels` (255 or 1023).
        static func ycbcr(fullRange: Bool, levels: Double) -> (y: Double, cb: Double, cr: Double) {
            let (r, g, b) = (colour.r / 255, colour.g / 255, colour.b / 255)
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            let cb = (b - y) / 1.772, cr = (r - y) / 1.402
            let unit = levels / 255
            if fullRange { return (y * levels, (cb + 0.5) * levels, (cr + 0.5) * levels) }
            return ((16 + 219 * y) * unit, (128 + 224 * cb) * unit, (128 + 224 * cr) * unit)
        }

        // spec §23 rule 9: whatever layout the app draws in ('BGRA', 32 ARGB, '420v', '420f', 'x420', 'xf20'),
        // the movie shows the colour drawn. The reference is the colour itself; the codes of the
        // Y'CbCr layouts are computed here from BT.601. (Reading a full-range layout as video range
        // moves this colour by 11 levels in red and blue, which the bound catches.)
        @Test(arguments: ["BGRA", "ARGB", "420v", "420f", "x420", "xf20"])
        func everyLayoutShowsTheColourDrawn(layout: String) throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let (r, g, b) = (UInt8(Self.colour.r), UInt8(Self.colour.g), UInt8(Self.colour.b))
            let format: OSType
            let fill: (CVPixelBuffer) -> Void
            switch layout {
            case "BGRA":
                format = kCVPixelFormatType_32BGRA
                fill = { Self.fillPlane($0, 0, [b, g, r, 255]) }
            case "ARGB":
                format = kCVPixelFormatType_32ARGB
                fill = { Self.fillPlane($0, 0, [255, r, g, b]) }
            case "x420", "xf20":
                let full = layout == "xf20"
                format = full ? kCVPixelFormatType_420YpCbCr10BiPlanarFullRange : kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange
                let c = Self.ycbcr(fullRange: full, levels: 1023)
                func le(_ v: Double) -> [UInt8] {
                    let word = UInt16(v.rounded()) << 6
                    return [UInt8(word & 0xFF), UInt8(word >> 8)]
                }
                fill = {
                    Self.fillPlane($0, 0, le(c.y))
                    Self.fillPlane($0, 1, le(c.cb) + le(c.cr))
                }
            default:
                let full = layout == "420f"
                format = full ? kCVPixelFormatType_420YpCbCr8BiPlanarFullRange : kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange
                let c = Self.ycbcr(fullRange: full, levels: 255)
                fill = {
                    Self.fillPlane($0, 0, [UInt8(c.y.rounded())])
                    Self.fillPlane($0, 1, [UInt8(c.cb.rounded()), UInt8(c.cr.rounded())])
                }
            }
            let url = try writeFlatClip(in: folder, format: format, fill: fill)
            let probe = try ProbedMovie(url)
            let video = try #require(probe.video)
            #expect(video.frames == 24 && video.width == 320 && video.height == 240)
            #expect(video.frameRate == "24/1")
            let rgb = try decodedRGB(url, frame: 12)
            #expect(rgb.count == 320 * 240 * 3)
            var mean = [0.0, 0.0, 0.0]
            for (i, v) in rgb.enumerated() { mean[i % 3] += Double(v) / Double(320 * 240) }
            // Two 8-bit conversions and the encoder's rounding: within 4 levels of the colour drawn.
            #expect(abs(mean[0] - Self.colour.r) < 4 && abs(mean[1] - Self.colour.g) < 4 && abs(mean[2] - Self.colour.b) < 4,
                    "\(layout): \(mean)")
        }

        // spec §23 rule 3: the output size in the settings scales the frames; HEVC is tagged 'hvc1'.
        @Test func settingsScaleAndChooseTheCodec() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try writeFlatClip(
                in: folder, format: kCVPixelFormatType_32BGRA, fill: { Self.fillPlane($0, 0, [40, 120, 200, 255]) },
                size: (160, 120), count: 12, settings: [AVVideoCodecKey: AVVideoCodecType.hevc])
            let video = try #require(try ProbedMovie(url).video)
            #expect(video.codec == "hevc" && video.tag == "hvc1")
            #expect(video.width == 160 && video.height == 120 && video.frames == 12)
        }

        // spec §23 rules 3, 7: a quarter-turn transform goes to the track matrix as a phone's portrait
        // recording carries it; shouldOptimizeForNetworkUse puts the movie box before the media.
        @Test func transformAndNetworkLayoutAreWritten() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try writeFlatClip(
                in: folder, format: kCVPixelFormatType_32BGRA, fill: { Self.fillPlane($0, 0, [0, 0, 0, 255]) },
                count: 6
            ) { writer, input in
                input.transform = CGAffineTransform(rotationAngle: .pi / 2)
                writer.shouldOptimizeForNetworkUse = true
            }
            let video = try #require(try ProbedMovie(url).video)
            #expect(video.rotation == -90)
            let bytes = [UInt8](try Data(contentsOf: url))
            func offset(_ tag: String) -> Int? {
                let t = Array(tag.utf8)
                return (0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(t) }
            }
            let moov = try #require(offset("moov")), mdat = try #require(offset("mdat"))
            #expect(moov < mdat)
        }

        /// A writer with one 64 × 48 H.264 input and an adaptor whose pool follows the input's settings.
        /// The adaptor is made with the attributes left out, as Apple's default argument allows.
        static func smallWriter(
            _ url: URL, _ type: AVFileType
        ) throws -> (AVAssetWriter, AVAssetWriterInput, AVAssetWriterInputPixelBufferAdaptor) {
            let writer = try AVAssetWriter(outputURL: url, fileType: type)
            let input = AVAssetWriterInput(
                mediaType: .video,
                outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input)
            writer.add(input)
            return (writer, input, adaptor)
        }

        // spec §20 rule 15: a writer's metadata is written with the movie; a date goes as ISO 8601 text.
        @Test func writerMetadataIsWritten() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("dated.mov")
            let (writer, input, adaptor) = try Self.smallWriter(url, .mov)
            let date = AVMutableMetadataItem()
            date.identifier = .quickTimeMetadataCreationDate
            date.value = Date(timeIntervalSince1970: 1_700_000_000) as NSDate
            let make = AVMutableMetadataItem()
            make.identifier = .quickTimeMetadataMake
            make.value = "Apple" as NSString
            writer.metadata = [date, make]
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: .zero)
            for k in 0..<3 {
                let pool = try #require(adaptor.pixelBufferPool)
                var made: CVPixelBuffer?
                CVPixelBufferPoolCreatePixelBuffer(nil, pool, &made)
                #expect(adaptor.append(try #require(made), withPresentationTime: CMTime(value: Int64(k), timescale: 30)))
            }
            input.markAsFinished()
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            #expect(done.wait(timeout: .now() + 60) == .success)
            let tags = try ProbedMovie(url).formatTags
            #expect(tags["com.apple.quicktime.creationdate"] == "2023-11-14T22:13:20Z", "\(tags)")
            #expect(tags["com.apple.quicktime.make"] == "Apple", "\(tags)")
        }

        // spec §23 rule 10: a pull-style source through requestMediaDataWhenReady, as apps export
        // generated frames, writes every frame it supplies.
        @Test func pullStyleSourceWritesEveryFrame() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("pulled.mp4")
            let (writer, input, adaptor) = try Self.smallWriter(url, .mp4)
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: CMTime(value: 10, timescale: 1))
            let done = DispatchSemaphore(value: 0)
            final class Counter: @unchecked Sendable { var next = 0 }
            let counter = Counter()
            input.requestMediaDataWhenReady(on: DispatchQueue(label: "pull")) {
                while input.isReadyForMoreMediaData {
                    guard counter.next < 15, let pool = adaptor.pixelBufferPool else {
                        input.markAsFinished()
                        writer.finishWriting { done.signal() }
                        return
                    }
                    var buffer: CVPixelBuffer?
                    CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer)
                    let time = CMTime(value: 10, timescale: 1) + CMTime(value: Int64(counter.next), timescale: 30)
                    _ = adaptor.append(buffer!, withPresentationTime: time)
                    counter.next += 1
                }
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(writer.status == .completed)
            let video = try #require(try ProbedMovie(url).video)
            #expect(video.frames == 15 && video.width == 64 && video.height == 48)
            let duration = try #require(video.duration)
            #expect(abs(duration - 0.5) < 0.04, "duration \(duration)")
        }

        // spec §23 rules 5, 6: frames before the session's start or after its end are left out, as a
        // player would not show them.
        @Test func framesOutsideTheSessionAreLeftOut() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("window.mov")
            let (writer, _, adaptor) = try Self.smallWriter(url, .mov)
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: CMTime(value: 3, timescale: 30))
            let pool = try #require(adaptor.pixelBufferPool)
            func append(_ k: Int64) -> Bool {
                var buffer: CVPixelBuffer?
                CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer)
                return adaptor.append(buffer!, withPresentationTime: CMTime(value: k, timescale: 30))
            }
            for k in 0..<12 { #expect(append(Int64(k))) }
            writer.endSession(atSourceTime: CMTime(value: 12, timescale: 30))
            #expect(append(13))
            finish(writer)
            #expect(writer.status == .completed)
            let video = try #require(try ProbedMovie(url).video)
            #expect(video.frames == 9)
        }

        /// vision-camera's recorder moves a second session's samples onto the first session's clock
        /// (`CMSyncConvertTime`, then `CMSampleBufferSetOutputPresentationTimeStamp`) before appending them: the
        /// writer writes each sample at its output time. Frames stamped before the session's start but moved
        /// into it are all written.
        @Test func samplesAreWrittenAtTheirOutputTime() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("moved.mov")
            let (writer, input, adaptor) = try Self.smallWriter(url, .mov)
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: CMTime(value: 10, timescale: 1))
            let pool = try #require(adaptor.pixelBufferPool)
            let host = CMClockGetHostTimeClock()
            for k in 0..<9 {
                var buffer: CVPixelBuffer?
                CVPixelBufferPoolCreatePixelBuffer(nil, pool, &buffer)
                let image = try #require(buffer)
                var description: CMFormatDescription?
                CMVideoFormatDescriptionCreateForImageBuffer(
                    allocator: nil, imageBuffer: image, formatDescriptionOut: &description)
                var timing = CMSampleTimingInfo(
                    duration: CMTime(value: 1, timescale: 30),
                    presentationTimeStamp: CMTime(value: Int64(k), timescale: 30), decodeTimeStamp: .invalid)
                var sample: CMSampleBuffer?
                CMSampleBufferCreateReadyWithImageBuffer(
                    allocator: nil, imageBuffer: image, formatDescription: try #require(description),
                    sampleTiming: &timing, sampleBufferOut: &sample)
                let moved = try #require(sample)
                // The same clock converts to itself; the writer's timeline starts 10 s later.
                let synced = CMSyncConvertTime(CMSampleBufferGetPresentationTimeStamp(moved), from: host, to: host)
                #expect(synced == CMTime(value: Int64(k), timescale: 30))
                let output = synced + CMTime(value: 10, timescale: 1)
                #expect(CMSampleBufferSetOutputPresentationTimeStamp(moved, newValue: output) == 0)
                #expect(CMSampleBufferGetPresentationTimeStamp(moved) == CMTime(value: Int64(k), timescale: 30))
                #expect(input.append(moved))
            }
            finish(writer)
            #expect(writer.status == .completed)
            let video = try #require(try ProbedMovie(url).video)
            #expect(video.frames == 9)
        }

        /// Two clocks read now carry an instant by their offset; a time on one converts back from the other.
        @Test func clocksConvertByTheirOffset() throws {
            let session = AVCaptureSession()
            let sessionClock = try #require(session.synchronizationClock)
            let host = CMClockGetHostTimeClock()
            let t = CMTime(value: 5, timescale: 1)
            let there = CMSyncConvertTime(t, from: host, to: sessionClock)
            let offset = CMClockGetTime(sessionClock).seconds - CMClockGetTime(host).seconds
            #expect(abs(there.seconds - (5 + offset)) < 0.01)
            #expect(abs(CMSyncConvertTime(there, from: sessionClock, to: host).seconds - 5) < 0.01)
        }

        func finish(_ writer: AVAssetWriter) {
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            _ = done.wait(timeout: .now() + 60)
        }
    }
}
