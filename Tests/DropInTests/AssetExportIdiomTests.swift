import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// A recording shrunk or trimmed before it is shared, as camera apps do: `AVAssetExportSession` with a preset, an
    /// output URL and file type, `exportAsynchronously` and a semaphore, or `export(to:as:)`. What comes out is read
    /// with ffprobe, an independent reader, and decoded with `AVAssetReader` to see the pictures and the sound.
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct AssetExportIdiomTests {
        /// A movie of `frames` pictures of `width` × `height` at 30 fps in `codec`: picture i a grey of level
        /// 20 + 20·((first + i) mod 10), its top left quarter (a quarter of each side) white.
        static func movie(
            in folder: URL, width: Int, height: Int, frames: Int, codec: AVVideoCodecType = .h264,
            name: String = "source.mov", first: Int = 0, transform: CGAffineTransform = .identity
        ) throws -> URL {
            let url = folder.appendingPathComponent(name)
            let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
            let input = AVAssetWriterInput(
                mediaType: .video,
                outputSettings: [AVVideoCodecKey: codec, AVVideoWidthKey: width, AVVideoHeightKey: height])
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(
                assetWriterInput: input,
                sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            input.transform = transform
            writer.add(input)
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: .zero)
            let pool = try #require(adaptor.pixelBufferPool)
            for i in 0..<frames {
                var buffer: CVPixelBuffer?
                #expect(CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool, &buffer) == kCVReturnSuccess)
                let frame = try #require(buffer)
                CVPixelBufferLockBaseAddress(frame, [])
                let base = try #require(CVPixelBufferGetBaseAddress(frame)).assumingMemoryBound(to: UInt8.self)
                let stride = CVPixelBufferGetBytesPerRow(frame)
                for y in 0..<height {
                    for x in 0..<width {
                        let white = x < width / 4 && y < height / 4
                        let level: UInt8 = white ? 255 : UInt8(20 + 20 * ((first + i) % 10))
                        for c in 0..<4 { base[y * stride + 4 * x + c] = level }
                    }
                }
                CVPixelBufferUnlockBaseAddress(frame, [])
                #expect(adaptor.append(frame, withPresentationTime: CMTime(value: Int64(i), timescale: 30)))
            }
            input.markAsFinished()
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            done.wait()
            #expect(writer.status == .completed, "\(String(describing: writer.error))")
            return url
        }

        /// Exports `asset` with `preset` to `url` as an app does, waiting on a semaphore; returns the session.
        @discardableResult
        static func export(
            _ asset: AVAsset, preset: String, to url: URL?, type: AVFileType? = .mp4,
            configure: (AVAssetExportSession) -> Void = { _ in }
        ) throws -> AVAssetExportSession {
            let session = try #require(AVAssetExportSession(asset: asset, presetName: preset))
            session.outputURL = url
            session.outputFileType = type
            configure(session)
            let done = DispatchSemaphore(value: 0)
            session.exportAsynchronously { done.signal() }
            #expect(done.wait(timeout: .now() + 120) == .success)
            return session
        }

        /// The first picture of a movie's video track, as BGRA bytes with their row length.
        static func firstPicture(_ url: URL) throws -> (bytes: [UInt8], rowBytes: Int, width: Int, height: Int) {
            let asset = AVURLAsset(url: url)
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(
                track: try #require(asset.tracks(withMediaType: .video).first),
                outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            reader.add(output)
            #expect(reader.startReading())
            let buffer = try #require(output.copyNextSampleBuffer().flatMap(CMSampleBufferGetImageBuffer))
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            let rowBytes = CVPixelBufferGetBytesPerRow(buffer)
            let height = CVPixelBufferGetHeight(buffer)
            let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
            return (
                Array(UnsafeBufferPointer(start: base, count: rowBytes * height)), rowBytes,
                CVPixelBufferGetWidth(buffer), height
            )
        }

        /// Apple's size presets fit the picture in their box and never scale it up; the quality presets shrink it to
        /// the sizes phones give (568 × 320 and 224 × 126 from 16:9); HEVC presets write HEVC. The pictures are the
        /// source's, scaled: the white quarter stays a quarter.
        @Test func presetsShrinkThePictureWithoutScalingItUp() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Self.movie(in: folder, width: 640, height: 360, frames: 30))
            let cases: [(String, Int, Int, String)] = [
                (AVAssetExportPresetMediumQuality, 568, 320, "h264"),
                (AVAssetExportPresetLowQuality, 224, 126, "h264"),
                (AVAssetExportPreset1280x720, 640, 360, "h264"),
                (AVAssetExportPreset640x480, 640, 360, "h264"),
                (AVAssetExportPresetHEVC1920x1080, 640, 360, "hevc"),
            ]
            for (preset, width, height, codec) in cases {
                let url = folder.appendingPathComponent("\(preset).mp4")
                let session = try Self.export(asset, preset: preset, to: url)
                #expect(session.status == .completed, "\(preset): \(String(describing: session.error))")
                #expect(session.progress == 1)
                let probe = try ProbedMovie(url)
                let video = try #require(probe.video)
                #expect(video.codec == codec, "\(preset)")
                try #require(
                    video.width == width && video.height == height,
                    "\(preset): \(video.width ?? 0)×\(video.height ?? 0)")
                #expect(video.frames == 30, "\(preset): \(video.frames ?? 0) frames")
                #expect(abs((probe.duration ?? 0) - 1) < 0.05, "\(preset): \(probe.duration ?? 0) s")
                let picture = try Self.firstPicture(url)
                try #require(picture.width == width && picture.height == height)
                func green(_ x: Int, _ y: Int) -> Int { Int(picture.bytes[y * picture.rowBytes + 4 * x + 1]) }
                // Inside the white quarter, and well outside it on the grey of picture 0 (level 20).
                #expect(green(width / 8, height / 8) > 230, "\(preset): the white quarter")
                #expect(abs(green(3 * width / 4, 3 * height / 4) - 20) <= 8, "\(preset): the grey")
                #expect(green(width / 4 + 3, height / 8) < 60, "\(preset): the quarter ends a quarter across")
            }
        }

        /// A time range trims the movie to the pictures shown within it; the track keeps its quarter turn and the
        /// movie its metadata.
        @Test func aTimeRangeTrimsAndTheTurnAndMetadataStay() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try AssetReadingIdiomTests.movie(in: folder))
            let url = folder.appendingPathComponent("trimmed.mov")
            // The status is key-value observable, as an app's progress screen watches it.
            let seen = NSLock()
            nonisolated(unsafe) var statuses: [AVAssetExportSession.Status] = []
            var observation: NSKeyValueObservation?
            let session = try Self.export(source, preset: AVAssetExportPresetHighestQuality, to: url, type: .mov) {
                // From half way through frame 2 to half way through frame 6: frame 2 is on screen when it starts.
                $0.timeRange = CMTimeRange(
                    start: CMTime(value: 5, timescale: 60), duration: CMTime(value: 8, timescale: 60))
                observation = $0.observe(\.status, options: [.new]) { _, change in
                    seen.withLock { statuses.append(change.newValue ?? .unknown) }
                }
            }
            observation?.invalidate()
            #expect(session.status == .completed, "\(String(describing: session.error))")
            #expect(seen.withLock { statuses } == [.waiting, .exporting, .completed])
            let probe = try ProbedMovie(url)
            #expect(probe.video?.frames == 5)
            // The last picture lasts until the range ends, and the movie with it.
            let duration = try #require(probe.video?.duration)
            #expect(abs(duration - 8.0 / 60) < 0.002, "\(duration) s")
            #expect(probe.video?.width == 64 && probe.video?.height == 48)
            let exported = AVURLAsset(url: url)
            let track = try #require(exported.tracks(withMediaType: .video).first)
            let sourceTrack = try #require(source.tracks(withMediaType: .video).first)
            #expect(track.preferredTransform == sourceTrack.preferredTransform)
            #expect(track.preferredTransform.b == 1 && track.preferredTransform.c == -1)
            // The first picture is frame 2's grey, level 60.
            let picture = try Self.firstPicture(url)
            #expect(abs(Int(picture.bytes[30 * picture.rowBytes + 4 * 40 + 1]) - 60) <= 6)
            #expect(exported.commonMetadata.contains { $0.commonKey == .commonKeyMake && $0.stringValue == "Obscura" })
        }

        /// The session's own metadata replaces the movie's.
        @Test func theSessionsMetadataReplacesTheMovies() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try AssetReadingIdiomTests.movie(in: folder))
            let url = folder.appendingPathComponent("titled.mov")
            let title = AVMutableMetadataItem()
            title.keySpace = .common
            title.key = AVMetadataKey.commonKeyTitle.rawValue as NSString
            title.value = "Harbour at dusk" as NSString
            let session = try Self.export(source, preset: AVAssetExportPresetMediumQuality, to: url, type: .mov) {
                $0.metadata = [title]
            }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let common = AVURLAsset(url: url).commonMetadata
            #expect(common.contains { $0.commonKey == .commonKeyTitle && $0.stringValue == "Harbour at dusk" })
            #expect(!common.contains { $0.commonKey == .commonKeyMake })
        }

        /// A recording's sound comes through: the microphone's 1 kHz tone at a quarter of full scale, as AAC at
        /// 44.1 kHz, lasting as long as the pictures.
        @Test func aRecordingsSoundComesThrough() throws {
            let rig = try MovieRig(preset: .vga640x480, microphone: true)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 1)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let recording = folder.appendingPathComponent("voice.mov")
            rig.record(to: recording)
            let url = folder.appendingPathComponent("voice-small.mp4")
            let session = try Self.export(AVURLAsset(url: recording), preset: AVAssetExportPresetMediumQuality, to: url)
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let probe = try ProbedMovie(url)
            let audio = try #require(probe.audio)
            #expect(audio.codec == "aac" && audio.sampleRate == 44_100 && audio.channels == 1)
            #expect(probe.video?.width == 480 && probe.video?.height == 360)
            #expect(abs((audio.duration ?? 0) - 1) < 0.1, "\(audio.duration ?? 0) s of sound")

            // The tracks describe their formats as ffprobe reads them.
            let exported = AVURLAsset(url: url)
            let videoTrack = try #require(exported.tracks(withMediaType: .video).first)
            let videoFormat = try #require(videoTrack.formatDescriptions.first as? CMFormatDescription)
            #expect(CMFormatDescriptionGetMediaSubType(videoFormat) == kCMVideoCodecType_H264)
            let dimensions = CMVideoFormatDescriptionGetDimensions(videoFormat)
            #expect(dimensions.width == 480 && dimensions.height == 360)
            #expect(Int(videoTrack.estimatedDataRate) == probe.video?.bitRate)
            #expect(abs(videoTrack.minFrameDuration.seconds - 1 / rig.framesPerSecond) < 1e-4)
            let soundTrack = try #require(exported.tracks(withMediaType: .audio).first)
            let soundFormat = try #require(soundTrack.formatDescriptions.first as? CMAudioFormatDescription)
            let stream = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(soundFormat)).pointee
            #expect(stream.mFormatID == kAudioFormatMPEG4AAC && stream.mSampleRate == 44_100)
            #expect(stream.mChannelsPerFrame == 1)

            try Self.expectTone(url)
        }

        /// A 48 kHz stereo movie (the writer's sound at that rate and two channels) is mixed down to the mono 44.1 kHz
        /// track, its tone still at 1 kHz and a quarter of full scale.
        @Test func aStereoSourceIsMixedDownAndResampled() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = folder.appendingPathComponent("stereo.mov")
            let (recorder, _) = try AssetWriterIdiomTests.record(to: source, preset: .vga640x480, frames: 45) { _ in
                [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2]
            }
            #expect(recorder.writer.status == .completed)
            #expect(try ProbedMovie(source).audio?.sampleRate == 48_000)
            let url = folder.appendingPathComponent("mono.mp4")
            let session = try Self.export(AVURLAsset(url: source), preset: AVAssetExportPreset640x480, to: url)
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let audio = try #require(try ProbedMovie(url).audio)
            #expect(audio.sampleRate == 44_100 && audio.channels == 1)
            try Self.expectTone(url)
        }

        /// The asset's first sound track read to its end as 16-bit linear PCM buffers, as an app reads it.
        static func soundBuffers(of asset: AVAsset) throws -> [CMSampleBuffer] {
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(
                track: try #require(asset.tracks(withMediaType: .audio).first),
                outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16])
            reader.add(output)
            #expect(reader.startReading())
            var buffers: [CMSampleBuffer] = []
            while let buffer = output.copyNextSampleBuffer() { buffers.append(buffer) }
            #expect(reader.status == .completed)
            return buffers
        }

        /// The movie's first sound track's 16-bit samples, read as an app reads them.
        static func samples(_ url: URL) throws -> [Double] {
            var samples: [Double] = []
            for buffer in try Self.soundBuffers(of: AVURLAsset(url: url)) {
                let block = try #require(CMSampleBufferGetDataBuffer(buffer))
                var length = 0
                var pointer: UnsafeMutablePointer<CChar>?
                _ = CMBlockBufferGetDataPointer(
                    block, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: &length, dataPointerOut: &pointer)
                let raw = UnsafeRawPointer(try #require(pointer))
                samples += (0..<(length / 2)).map { Double(raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self)) }
            }
            return samples
        }

        /// The movie's sound is the microphone's 1 kHz tone at `amplitude` (a quarter of full scale unless said) over
        /// the half second centred `around` (a fraction of its length; the middle by default).
        static func expectTone(
            _ url: URL, around: Double = 0.5, amplitude: Double = 0.25,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let samples = try Self.samples(url)
            #expect(samples.count > 36_000, "\(samples.count) samples", sourceLocation: sourceLocation)
            guard samples.count > 36_000 else { return }
            // Half a second, away from the encoder's start and end.
            let centre = min(max(Int(Double(samples.count) * around), 11_025), samples.count - 11_025)
            let middle = Array(samples[(centre - 11_025)..<(centre + 11_025)])
            let rms = (middle.map { $0 * $0 }.reduce(0, +) / Double(middle.count)).squareRoot()
            let expected = 32767 * amplitude / 2.0.squareRoot()
            #expect(abs(rms - expected) < 0.1 * expected, "RMS \(rms), not \(expected)", sourceLocation: sourceLocation)
            let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
            #expect(abs(crossings - 500) <= 3, "\(crossings) rising zero crossings", sourceLocation: sourceLocation)
        }

        /// What stops an export before it writes leaves the status `.failed` with the reason, and nothing at the URL
        /// that was not there before.
        @Test func whatCannotBeExportedFailsWithItsReason() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try AssetReadingIdiomTests.movie(in: folder))
            let taken = folder.appendingPathComponent("taken.mp4")
            try Data("someone else's".utf8).write(to: taken)
            let over = try Self.export(source, preset: AVAssetExportPresetLowQuality, to: taken)
            #expect(over.status == .failed)
            #expect((over.error as? AVError)?.code == .fileAlreadyExists)
            #expect(try Data(contentsOf: taken) == Data("someone else's".utf8))

            let nowhere = try Self.export(source, preset: AVAssetExportPresetLowQuality, to: nil)
            #expect(nowhere.status == .failed)
            #expect((nowhere.error as? AVError)?.code == .exportFailed)

            let untyped = folder.appendingPathComponent("untyped.mp4")
            let noType = try Self.export(source, preset: AVAssetExportPresetLowQuality, to: untyped, type: nil)
            #expect(noType.status == .failed && !FileManager.default.fileExists(atPath: untyped.path))
            let picture = try Self.export(
                source, preset: AVAssetExportPresetLowQuality, to: folder.appendingPathComponent("still.jpg"),
                type: .jpg)
            #expect(picture.status == .failed && (picture.error as NSError?)?.code == -11820)

            let missing = AVURLAsset(url: folder.appendingPathComponent("missing.mov"))
            #expect(!missing.isExportable)
            #expect(AVAssetExportSession.exportPresets(compatibleWith: missing).isEmpty)
            let gone = try Self.export(missing, preset: AVAssetExportPresetLowQuality, to: untyped)
            #expect(gone.status == .failed && !FileManager.default.fileExists(atPath: untyped.path))
        }

        /// The preset lists: Passthrough works but is listed nowhere, as Apple documents; names that are no preset
        /// here give no session.
        @Test func thePresetLists() throws {
            let all = AVAssetExportSession.allExportPresets()
            #expect(all.contains(AVAssetExportPreset1920x1080) && all.contains(AVAssetExportPresetHEVCHighestQuality))
            #expect(!all.contains(AVAssetExportPresetPassthrough))
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try AssetReadingIdiomTests.movie(in: folder))
            #expect(source.isExportable)
            #expect(AVAssetExportSession.exportPresets(compatibleWith: source) == all)
            #expect(AVAssetExportSession(asset: source, presetName: "AVAssetExportPresetNonsense") == nil)
            #expect(AVAssetExportSession(asset: source, presetName: AVAssetExportPresetAppleM4A) == nil)
            let session = try #require(AVAssetExportSession(asset: source, presetName: AVAssetExportPresetPassthrough))
            #expect(session.supportedFileTypes.contains(.mov) && session.supportedFileTypes.contains(.mp4))
            #expect(session.estimatedOutputFileLength > 0)
        }

        /// Passthrough of the whole movie into its own container hands over the file itself, byte for byte; into
        /// another container, or trimmed, it keeps the source's codec and size.
        @Test func passthroughKeepsTheCodecAndSize() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let sourceURL = try Self.movie(in: folder, width: 320, height: 240, frames: 10, codec: .hevc)
            let source = AVURLAsset(url: sourceURL)
            let same = folder.appendingPathComponent("same.mov")
            let copy = try Self.export(source, preset: AVAssetExportPresetPassthrough, to: same, type: .mov)
            #expect(copy.status == .completed && copy.progress == 1, "\(String(describing: copy.error))")
            #expect(try Data(contentsOf: same) == Data(contentsOf: sourceURL))
            // Not over a file already there.
            let again = try Self.export(source, preset: AVAssetExportPresetPassthrough, to: same, type: .mov)
            #expect((again.error as? AVError)?.code == .fileAlreadyExists)

            let other = folder.appendingPathComponent("other.mp4")
            let moved = try Self.export(source, preset: AVAssetExportPresetPassthrough, to: other, type: .mp4)
            #expect(moved.status == .completed, "\(String(describing: moved.error))")
            #expect(try Data(contentsOf: other) != Data(contentsOf: sourceURL))
            let video = try #require(try ProbedMovie(other).video)
            #expect(video.codec == "hevc" && video.width == 320 && video.height == 240 && video.frames == 10)

            let trimmed = folder.appendingPathComponent("trimmed.mov")
            let cut = try Self.export(source, preset: AVAssetExportPresetPassthrough, to: trimmed, type: .mov) {
                $0.timeRange = CMTimeRange(start: .zero, duration: CMTime(value: 5, timescale: 30))
            }
            #expect(cut.status == .completed)
            #expect(try ProbedMovie(trimmed).video?.frames == 5)
        }

        /// Cancelling before the export starts, or while it runs, ends it as `.cancelled` with an error, the handler
        /// still called, and no file left behind.
        @Test func cancellingLeavesNothingBehind() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try Self.movie(in: folder, width: 640, height: 360, frames: 150))
            let early = try #require(AVAssetExportSession(asset: source, presetName: AVAssetExportPresetHighestQuality))
            early.outputURL = folder.appendingPathComponent("early.mp4")
            early.outputFileType = .mp4
            early.cancelExport()
            let earlyDone = DispatchSemaphore(value: 0)
            early.exportAsynchronously { earlyDone.signal() }
            #expect(earlyDone.wait(timeout: .now() + 10) == .success)
            #expect(early.status == .cancelled && early.error != nil)

            let url = folder.appendingPathComponent("late.mp4")
            let session = try #require(
                AVAssetExportSession(asset: source, presetName: AVAssetExportPresetHighestQuality))
            session.outputURL = url
            session.outputFileType = .mp4
            let done = DispatchSemaphore(value: 0)
            session.exportAsynchronously { done.signal() }
            while session.progress == 0, session.status != .completed, session.status != .failed {
                Thread.sleep(forTimeInterval: 0.001)
            }
            #expect(session.status == .exporting)
            session.cancelExport()
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(session.status == .cancelled && session.error != nil)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left == ["source.mov"], "left behind: \(left)")
        }

        /// The Swift concurrency form: `export(to:as:)` throws nothing on success, and `states(updateInterval:)`
        /// reports the export running, then ends.
        @Test func exportingWithAwait() async throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try Self.movie(in: folder, width: 640, height: 360, frames: 60))
            let session = try #require(AVAssetExportSession(asset: source, presetName: AVAssetExportPreset960x540))
            let watcher = Task {
                var sawProgress = false
                for await state in session.states(updateInterval: 0.005) {
                    if case .exporting = state { sawProgress = true }
                }
                return sawProgress
            }
            let url = folder.appendingPathComponent("awaited.mov")
            try await session.export(to: url, as: .mov)
            #expect(session.status == .completed)
            #expect(await watcher.value)
            #expect(try ProbedMovie(url).video?.frames == 60)
            // Exporting again to a file that is now there throws the writer's error.
            let again = try #require(AVAssetExportSession(asset: source, presetName: AVAssetExportPreset960x540))
            await #expect(throws: AVError.self) { try await again.export(to: url, as: .mov) }
        }

        /// A file length limit keeps the file within it: the export ends early, and says it completed.
        @Test func aFileLengthLimitEndsTheMovieEarly() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = AVURLAsset(url: try Self.movie(in: folder, width: 640, height: 360, frames: 90))
            let whole = folder.appendingPathComponent("whole.mp4")
            try Self.export(source, preset: AVAssetExportPresetHighestQuality, to: whole)
            let wholeSize = try #require(try FileManager.default.attributesOfItem(atPath: whole.path)[.size] as? Int)
            let limit = Int64(wholeSize * 4 / 10)
            let url = folder.appendingPathComponent("limited.mp4")
            let session = try Self.export(source, preset: AVAssetExportPresetHighestQuality, to: url) {
                $0.fileLengthLimit = limit
            }
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
            #expect(Int64(size) <= limit, "\(size) bytes against a limit of \(limit)")
            let duration = try #require(try ProbedMovie(url).duration)
            #expect(duration > 0.3 && duration < 2.5, "\(duration) s of 3")
        }
    }
}
