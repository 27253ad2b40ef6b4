import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// Clips joined into one movie, as camera apps join the takes of a recording paused and resumed, cut out a
    /// stretch, or leave a gap: `AVMutableComposition` with a track per media type, `insertTimeRange`, then an export,
    /// an image generator or a reader. What comes out is read with ffprobe and decoded with `AVAssetReader`.
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct CompositionIdiomTests {
        typealias Clips = AssetExportIdiomTests

        /// The level of grey a picture of `Clips.movie` shows away from its white quarter: 20 + 20·(n mod 10).
        static func level(_ n: Int) -> Int { 20 + 20 * (n % 10) }

        /// A second recorded at VGA with the microphone (its 1 kHz tone at a quarter of full scale), in `folder`.
        static func take(in folder: URL) throws -> URL {
            let rig = try MovieRig(preset: .vga640x480, microphone: true)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 1)
            let url = folder.appendingPathComponent("take.mov")
            rig.record(to: url)
            return url
        }

        /// Each picture's time and the grey at (40, 30), read with an asset reader.
        static func pictures(of asset: AVAsset) throws -> [(time: Double, level: Int)] {
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(
                track: try #require(asset.tracks(withMediaType: .video).first),
                outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            reader.add(output)
            #expect(reader.startReading())
            var pictures: [(Double, Int)] = []
            while let sample = output.copyNextSampleBuffer() {
                let buffer = try #require(CMSampleBufferGetImageBuffer(sample))
                CVPixelBufferLockBaseAddress(buffer, .readOnly)
                let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
                let x = CVPixelBufferGetWidth(buffer) * 5 / 8, y = CVPixelBufferGetHeight(buffer) * 5 / 8
                pictures.append(
                    (
                        sample.presentationTimeStamp.seconds,
                        Int(base[y * CVPixelBufferGetBytesPerRow(buffer) + 4 * x + 1])
                    ))
                CVPixelBufferUnlockBaseAddress(buffer, .readOnly)
            }
            #expect(reader.status == .completed)
            return pictures
        }

        /// Two clips joined, the second from its 0.2 s for half a second: the composition lasts a second, its segments
        /// say where each comes from, and its pictures (read from the composition itself and from its export) are
        /// the first clip's fifteen and then the second's from its seventh picture, at 30 fps throughout.
        @Test func joinedClipsPlayOneAfterTheOther() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let first = AVURLAsset(url: try Clips.movie(in: folder, width: 160, height: 90, frames: 15, name: "a.mov"))
            let second = AVURLAsset(
                url: try Clips.movie(in: folder, width: 160, height: 90, frames: 30, name: "b.mov", first: 5))

            let composition = AVMutableComposition()
            let track = try #require(
                composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
            let a = try #require(first.tracks(withMediaType: .video).first)
            let b = try #require(second.tracks(withMediaType: .video).first)
            try track.insertTimeRange(CMTimeRange(start: .zero, duration: first.duration), of: a, at: .zero)
            let cut = CMTimeRange(start: CMTime(value: 6, timescale: 30), duration: CMTime(value: 15, timescale: 30))
            try track.insertTimeRange(cut, of: b, at: composition.duration)

            #expect(composition.duration == CMTime(value: 1, timescale: 1))
            #expect(track.trackID == 1 && composition.tracks.count == 1)
            #expect(track.naturalSize == CGSize(width: 160, height: 90))
            let segments = track.segments
            #expect(segments.count == 2)
            #expect(segments.map(\.sourceURL) == [first.url, second.url])
            #expect(segments[1].timeMapping.source == cut)
            #expect(
                segments[1].timeMapping.target
                    == CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: cut.duration))
            #expect(composition.tracks(withMediaType: .video).first?.segments.count == 2)

            let expected = (0..<30).map { j in j < 15 ? Self.level(j) : Self.level(5 + 6 + (j - 15)) }
            let read = try Self.pictures(of: composition)
            #expect(read.count == 30)
            for (j, picture) in read.enumerated() {
                #expect(abs(picture.time - Double(j) / 30) < 1e-3, "picture \(j) at \(picture.time) s")
                #expect(abs(picture.level - expected[j]) <= 6, "picture \(j): \(picture.level), not \(expected[j])")
            }

            let url = folder.appendingPathComponent("joined.mp4")
            let session = try Clips.export(composition, preset: AVAssetExportPresetHighestQuality, to: url)
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let probe = try ProbedMovie(url)
            #expect(probe.video?.frames == 30)
            #expect(abs((probe.duration ?? 0) - 1) < 0.05, "\(probe.duration ?? 0) s")
            let exported = try Self.pictures(of: AVURLAsset(url: url))
            #expect(
                exported.map(\.level).enumerated().allSatisfy { abs($1 - expected[$0]) <= 6 },
                "\(exported.map(\.level))")

            // The image generator shows the picture on screen at a time: the second clip's at 0.6 s.
            let generator = AVAssetImageGenerator(asset: composition)
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
            var actual = CMTime.zero
            let image = try generator.copyCGImage(at: CMTime(value: 3, timescale: 5), actualTime: &actual)
            #expect(abs(actual.seconds - 0.6) < 1e-3)
            #expect(image.width == 160 && image.height == 90)
        }

        /// Apple's editing rules, as the segments show them: an insertion pushes what was there later, a start past
        /// the end leaves an empty segment, a removal pulls what follows earlier, and a scaled range stretches.
        @Test func editsMoveWhatFollows() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let clip = AVURLAsset(url: try Clips.movie(in: folder, width: 64, height: 48, frames: 30))
            let source = try #require(clip.tracks(withMediaType: .video).first)
            let composition = AVMutableComposition()
            let track = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 7))
            #expect(track.trackID == 7)
            #expect(composition.addMutableTrack(withMediaType: .video, preferredTrackID: 7) == nil)
            func t(_ n: Int64) -> CMTime { CMTime(value: n, timescale: 10) }
            func range(_ a: Int64, _ b: Int64) -> CMTimeRange { CMTimeRange(start: t(a), end: t(b)) }
            func mappings() -> [String] {
                track.segments.map {
                    $0.isEmpty
                        ? "empty \($0.timeMapping.target.start.seconds)–\($0.timeMapping.target.end.seconds)"
                        : "\($0.timeMapping.source.start.seconds)–\($0.timeMapping.source.end.seconds) at "
                            + "\($0.timeMapping.target.start.seconds)–\($0.timeMapping.target.end.seconds)"
                }
            }
            try track.insertTimeRange(range(0, 10), of: source, at: .zero)
            // Inserted in the middle: the first second is cut in two and its second half moves after the insertion.
            try track.insertTimeRange(range(2, 4), of: source, at: t(5))
            #expect(mappings() == ["0.0–0.5 at 0.0–0.5", "0.2–0.4 at 0.5–0.7", "0.5–1.0 at 0.7–1.2"])
            // Past the end: an empty segment in between.
            try track.insertTimeRange(range(0, 1), of: source, at: t(15))
            #expect(mappings().suffix(2) == ["empty 1.2–1.5", "0.0–0.1 at 1.5–1.6"])
            #expect(track.timeRange.duration == t(16))
            track.removeTimeRange(range(4, 13))
            #expect(mappings() == ["0.0–0.4 at 0.0–0.4", "empty 0.4–0.6", "0.0–0.1 at 0.6–0.7"])
            track.insertEmptyTimeRange(range(0, 1))
            #expect(mappings().first == "empty 0.0–0.1")
            #expect(track.segment(forTrackTime: t(6))?.isEmpty == true)
            #expect(track.segment(forTrackTime: t(3))?.timeMapping.target == range(1, 5))
            // Twice as slow: the source's 0.4 s fill 0.8 s, and the rest follows them.
            track.scaleTimeRange(range(1, 5), toDuration: t(8))
            #expect(mappings() == ["empty 0.0–0.1", "0.0–0.4 at 0.1–0.9", "empty 0.9–1.1", "0.0–0.1 at 1.1–1.2"])
            #expect(composition.duration == t(12))

            // What cannot be inserted throws, and changes nothing.
            let sound = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: 0))
            #expect(sound.trackID == 8)
            #expect(throws: AVError.self) { try sound.insertTimeRange(range(0, 10), of: source, at: .zero) }
            #expect(throws: AVError.self) { try track.insertTimeRange(range(20, 30), of: source, at: .zero) }
            #expect(composition.duration == t(12))
            // A frozen copy keeps the segments the composition had.
            let frozen = try #require(composition.copy() as? AVComposition)
            track.removeTimeRange(range(0, 12))
            #expect(frozen.duration == t(12) && composition.duration == .zero)
            #expect(frozen.tracks(withMediaType: .video).first?.segments.count == 4)
        }

        /// A clip recorded with the microphone, joined to itself with `insertTimeRange(_:of:at:)` on the whole
        /// composition: both tracks double, and the exported sound is the 1 kHz tone throughout, unbroken at the join
        /// (its middle half second straddles it). The video track takes the recording's turn, as apps copy it.
        @Test func aRecordingsSoundFollowsItsPictures() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let recording = try Self.take(in: folder)
            let take = AVURLAsset(url: recording)
            let composition = AVMutableComposition()
            let whole = CMTimeRange(start: .zero, duration: take.duration)
            try composition.insertTimeRange(whole, of: take, at: .zero)
            try composition.insertTimeRange(whole, of: take, at: composition.duration)
            #expect(composition.tracks(withMediaType: .video).count == 1)
            #expect(composition.tracks(withMediaType: .audio).count == 1)
            let video = try #require(composition.tracks(withMediaType: .video).first)
            let sourceVideo = try #require(take.tracks(withMediaType: .video).first)
            video.preferredTransform = sourceVideo.preferredTransform
            #expect(abs(composition.duration.seconds - 2 * take.duration.seconds) < 1e-6)

            let url = folder.appendingPathComponent("twice.mp4")
            let session = try Clips.export(composition, preset: AVAssetExportPreset640x480, to: url)
            #expect(session.status == .completed, "\(String(describing: session.error))")
            let probe = try ProbedMovie(url)
            #expect(abs((probe.duration ?? 0) - 2 * take.duration.seconds) < 0.1, "\(probe.duration ?? 0) s")
            let audio = try #require(probe.audio)
            #expect(abs((audio.duration ?? 0) - 2 * take.duration.seconds) < 0.1, "\(audio.duration ?? 0) s of sound")
            #expect(probe.video?.frames == 2 * (try ProbedMovie(recording).video?.frames ?? 0))
            // Each copy's middle half second is the tone. (A recording's sound begins with the encoder's priming
            // frame, which decodes near silent, so the join is not tone throughout.)
            try Clips.expectTone(url, around: 0.25)
            try Clips.expectTone(url, around: 0.75)

            // Read from the composition itself, the sound runs on from one copy to the next without a gap or overlap
            // and ends with the composition.
            var end = 0.0
            for buffer in try Clips.soundBuffers(of: composition) {
                #expect(
                    abs(buffer.presentationTimeStamp.seconds - end) < 1.0 / 44_100,
                    "sound at \(buffer.presentationTimeStamp.seconds) s after \(end) s")
                end = (buffer.presentationTimeStamp + buffer.duration).seconds
            }
            #expect(abs(end - composition.duration.seconds) < 1.0 / 44_100, "the sound ends at \(end) s")
        }

        /// A second sound track, as apps lay music under a clip, is mixed into the export at its `preferredVolume`:
        /// the take's own tone under itself at half volume plays at one and a half times its level.
        @Test func aSecondSoundTrackIsMixedInAtItsVolume() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let recording = try Self.take(in: folder)
            let take = AVURLAsset(url: recording)
            let whole = CMTimeRange(start: .zero, duration: take.duration)
            let composition = AVMutableComposition()
            try composition.insertTimeRange(whole, of: take, at: .zero)
            let under = try #require(
                composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
            try under.insertTimeRange(whole, of: try #require(take.tracks(withMediaType: .audio).first), at: .zero)
            under.preferredVolume = 0.5
            #expect(composition.tracks(withMediaType: .audio).count == 2)

            let url = folder.appendingPathComponent("mixed.mp4")
            let session = try Clips.export(composition, preset: AVAssetExportPreset640x480, to: url)
            #expect(session.status == .completed, "\(String(describing: session.error))")
            #expect(try ProbedMovie(url).audio?.channels == 1)
            try Clips.expectTone(url, amplitude: 0.25 * 1.5)
        }

        /// A recording's sound starts its presentation inside its first AAC packet, after the encoder's priming, as
        /// its edit list says (ffprobe gives the first sample's time below zero): the reader leaves the priming out,
        /// so the sound starts at zero and ends where the presentation does, and keeps time with the pictures.
        @Test func aRecordingsSoundLeavesItsPrimingOut() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try Self.take(in: folder)
            let probed = try #require(try ProbedMovie(url).audio)
            let first = try #require(probed.startTime), length = try #require(probed.duration)
            #expect(first < 0, "the first sample at \(first) s")

            var start: Double?, end = 0.0
            for buffer in try Clips.soundBuffers(of: AVURLAsset(url: url)) {
                if start == nil { start = buffer.presentationTimeStamp.seconds }
                end = (buffer.presentationTimeStamp + buffer.duration).seconds
            }
            #expect(start == 0)
            #expect(abs(end - (first + length)) < 1.5 / 44_100, "the sound ends at \(end) s, not \(first + length) s")
        }
    }
}
