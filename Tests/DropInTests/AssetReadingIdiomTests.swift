import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// Movies read back the way apps show what they recorded: `AVURLAsset` for the duration and the video track's
    /// size, frame rate and transform, loaded with `load`, and `AVAssetImageGenerator` for the picture at a time.
    /// The movie is written here with `AVAssetWriter`: ten 64 × 48 frames at 30 frames a second, frame i a grey of
    /// level 20 + 20·i with a white 16 × 16 block in its top-left corner, its track turned a quarter clockwise as a
    /// portrait recording is.
    @Suite(.needs(.ffmpeg))
    struct AssetReadingIdiomTests {
        static func movie(in folder: URL) throws -> URL {
            let url = folder.appendingPathComponent("portrait.mov")
            let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
            let input = AVAssetWriterInput(
                mediaType: .video,
                outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
            input.transform = CGAffineTransform(rotationAngle: .pi / 2)
            let adaptor = AVAssetWriterInputPixelBufferAdaptor(
                assetWriterInput: input,
                sourcePixelBufferAttributes: [
                    kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA,
                    kCVPixelBufferWidthKey as String: 64, kCVPixelBufferHeightKey as String: 48,
                ])
            writer.add(input)
            // The maker under its common key: a movie carries it as its QuickTime counterpart.
            let make = AVMutableMetadataItem()
            make.keySpace = .common
            make.key = AVMetadataKey.commonKeyMake.rawValue as NSString
            make.value = "Obscura" as NSString
            writer.metadata = [make]
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: .zero)
            let pool = try #require(adaptor.pixelBufferPool)
            for i in 0..<10 {
                var buffer: CVPixelBuffer?
                #expect(CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool, &buffer) == kCVReturnSuccess)
                let frame = try #require(buffer)
                CVPixelBufferLockBaseAddress(frame, [])
                let base = try #require(CVPixelBufferGetBaseAddress(frame)).assumingMemoryBound(to: UInt8.self)
                let stride = CVPixelBufferGetBytesPerRow(frame)
                for y in 0..<48 {
                    for x in 0..<64 {
                        let level: UInt8 = x < 16 && y < 16 ? 255 : UInt8(20 + 20 * i)
                        for c in 0..<4 { base[y * stride + 4 * x + c] = level }
                    }
                }
                CVPixelBufferUnlockBaseAddress(frame, [])
                #expect(adaptor.append(frame, withPresentationTime: CMTime(value: Int64(i), timescale: 30)))
            }
            input.markAsFinished()
            let done = DispatchSemaphore(value: 0)
            writer.finishWriting { done.signal() }
            #expect(done.wait(timeout: .now() + 60) == .success)
            #expect(writer.status == .completed, "\(String(describing: writer.error))")
            return url
        }

        /// A generator for the test movie written into `folder` that asks for the exact frame shown at a time (no
        /// tolerance either way).
        static func exactGenerator(in folder: URL) throws -> AVAssetImageGenerator {
            let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try movie(in: folder)))
            generator.requestedTimeToleranceBefore = .zero
            generator.requestedTimeToleranceAfter = .zero
            return generator
        }

        /// The red of pixel (x, y) of an 8-bit RGB(X) image.
        static func red(_ image: CGImage, _ x: Int, _ y: Int) throws -> Int {
            let data = try #require(image.dataProvider?.data) as Data
            return Int(data[y * image.bytesPerRow + x * image.bitsPerPixel / 8])
        }

        @Test func aRecordedMovieReadsBack() async throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try Self.movie(in: folder))
            let (duration, tracks, playable) = try await asset.load(.duration, .tracks, .isPlayable)
            #expect(abs(duration.seconds - 1.0 / 3) < 0.01, "\(duration.seconds) s")
            #expect(playable)
            #expect(tracks.count == 1)
            #expect(asset.tracks(withMediaType: .audio).isEmpty)
            let metadata = try await asset.load(.metadata)
            let make = AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: .quickTimeMetadataMake)
            #expect(make.map(\.stringValue) == ["Obscura"], "\(metadata.map { $0.identifier?.rawValue ?? "?" })")
            let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
            let (size, transform, rate) = try await video.load(.naturalSize, .preferredTransform, .nominalFrameRate)
            #expect(size == CGSize(width: 64, height: 48))
            // A quarter turn clockwise, moved back onto the canvas by the stored height.
            #expect(transform == CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 48, ty: 0), "\(transform)")
            #expect(abs(rate - 30) < 0.01, "\(rate)")
            // The turned size, as apps compute it to lay out a player.
            let shown = size.applying(transform)
            #expect(abs(shown.width) == 48 && abs(shown.height) == 64)
        }

        @Test func theGeneratorGivesTheFrameShownAtATime() async throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let generator = try Self.exactGenerator(in: folder)
            var actual = CMTime.invalid
            // 0.11 s falls in the fourth frame's display, from 0.1 s to 0.133 s: within a zero tolerance.
            let third = try generator.copyCGImage(at: CMTime(seconds: 0.11, preferredTimescale: 600), actualTime: &actual)
            #expect(abs(actual.seconds - 0.1) < 1e-3, "\(actual.seconds) s")
            #expect((third.width, third.height) == (64, 48))
            let (thirdLevel, thirdBlock) = (try Self.red(third, 40, 30), try Self.red(third, 4, 4))
            #expect(abs(thirdLevel - 80) <= 6 && thirdBlock >= 240, "\(thirdLevel), \(thirdBlock)")
            let (first, at) = try await generator.image(at: .zero)
            let firstLevel = try Self.red(first, 40, 30)
            #expect(at.seconds == 0 && abs(firstLevel - 20) <= 6)
            // After the end, no frame lies within a zero tolerance; the default tolerance takes the last.
            #expect(throws: (any Error).self) { try generator.copyCGImage(at: CMTime(value: 5, timescale: 1), actualTime: nil) }
            generator.requestedTimeToleranceBefore = .positiveInfinity
            let last = try generator.copyCGImage(at: CMTime(value: 5, timescale: 1), actualTime: &actual)
            let lastLevel = try Self.red(last, 40, 30)
            #expect(abs(actual.seconds - 0.3) < 1e-3 && abs(lastLevel - 200) <= 6, "\(actual.seconds) s, \(lastLevel)")
            // Upright: the stored top-left block ends at the top right; the size fits the bound.
            generator.appliesPreferredTrackTransform = true
            let upright = try generator.copyCGImage(at: .zero, actualTime: nil)
            #expect((upright.width, upright.height) == (48, 64))
            let (block, grey) = (try Self.red(upright, 44, 4), try Self.red(upright, 4, 4))
            #expect(block >= 240 && abs(grey - 20) <= 6, "\(block), \(grey)")
            generator.appliesPreferredTrackTransform = false
            generator.maximumSize = CGSize(width: 32, height: 32)
            let small = try generator.copyCGImage(at: .zero, actualTime: nil)
            #expect((small.width, small.height) == (32, 24))
        }

        /// A scrubber's thumbnails: times as `NSValue`s, handed back in order, each the frame shown at its time,
        /// whether a request comes after the last one (decoding goes on) or before it (decoding starts again).
        @Test func thumbnailsForAListOfTimes() async throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let generator = try Self.exactGenerator(in: folder)
            let seconds = [0.0, 0.11, 0.25, 0.05, 0.3]
            let times = seconds.map { NSValue(time: CMTime(seconds: $0, preferredTimescale: 600)) }
            #expect(times.map { $0.timeValue.seconds } == seconds.map { CMTime(seconds: $0, preferredTimescale: 600).seconds })
            final class Collected: @unchecked Sendable {
                let lock = NSLock()
                var results: [(CMTime, Int?, CMTime, AVAssetImageGenerator.Result)] = []
            }
            let collected = Collected()
            let done = DispatchSemaphore(value: 0)
            generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, actual, result, _ in
                let level = image.flatMap { try? Self.red($0, 40, 30) }
                let count = collected.lock.withLock {
                    collected.results.append((requested, level, actual, result))
                    return collected.results.count
                }
                if count == times.count { done.signal() }
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            let results = collected.lock.withLock { collected.results }
            #expect(results.map { $0.0.seconds } == times.map { $0.timeValue.seconds })
            // Frame i shows from i/30 s, a grey of level 20 + 20·i.
            for (r, s) in zip(results, seconds) {
                let frame = Int((s * 30 + 1e-9).rounded(.down))
                #expect(r.3 == .succeeded)
                #expect(abs(r.2.seconds - Double(frame) / 30) < 1e-3, "\(s) s: frame at \(r.2.seconds) s")
                #expect(abs((r.1 ?? -100) - (20 + 20 * frame)) <= 6, "\(s) s: level \(r.1 ?? -1)")
            }
        }

        /// The same thumbnails through the asynchronous sequence, as Swift concurrency code asks for them; a time past
        /// the end with no tolerance fails and the sequence goes on.
        @Test func thumbnailsAsAnAsynchronousSequence() async throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let generator = try Self.exactGenerator(in: folder)
            let seconds = [0.2, 5.0, 0.04]
            var outcomes: [(Double, Int?, Double?)] = []
            for await result in generator.images(for: seconds.map { CMTime(seconds: $0, preferredTimescale: 600) }) {
                let level = (try? result.image).flatMap { try? Self.red($0, 40, 30) }
                outcomes.append((result.requestedTime.seconds, level, try? result.actualTime.seconds))
            }
            #expect(outcomes.map(\.0) == seconds.map { CMTime(seconds: $0, preferredTimescale: 600).seconds })
            // 0.2 s is frame 6's start; 0.04 s lies in frame 1.
            #expect(abs((outcomes[0].1 ?? -100) - 140) <= 6 && abs((outcomes[0].2 ?? -1) - 0.2) < 1e-3, "\(outcomes[0])")
            #expect(outcomes[1].1 == nil && outcomes[1].2 == nil)
            #expect(abs((outcomes[2].1 ?? -100) - 40) <= 6 && abs((outcomes[2].2 ?? -1) - 1.0 / 30) < 1e-3, "\(outcomes[2])")
        }

        /// A time put in an `NSValue` comes back with every field: value, timescale, flags and epoch.
        @Test func timesRoundTripThroughValues() {
            let times = [
                CMTime(value: 7, timescale: 30), CMTime(value: -123_456_789_012, timescale: 90_000),
                CMTime(value: 1, timescale: 600, flags: [.valid, .hasBeenRounded], epoch: -42), .positiveInfinity,
                .negativeInfinity, .indefinite, .invalid, .zero,
            ]
            for time in times {
                let back = NSValue(time: time).timeValue
                #expect(
                    back.value == time.value && back.timescale == time.timescale && back.flags == time.flags
                        && back.epoch == time.epoch, "\(time) came back as \(back)")
                // Equal times make equal values, as an app's `times.firstIndex(of:)` expects.
                #expect(NSValue(time: time).isEqual(NSValue(time: time)))
            }
            // A value that holds no time reads as an invalid one.
            #expect(!NSValue(range: NSRange(location: 1, length: 2)).timeValue.isValid)
        }

        /// The app's own flow: record a portrait clip with sound through the movie file output, then read the file
        /// back for its tracks and an upright thumbnail no larger than 200 × 200.
        @Test func aPortraitRecordingReadsBackUpright() async throws {
            let rig = try MovieRig(preset: .hd1280x720, microphone: true)
            try rig.use(.h264)
            let connection = try #require(rig.output.connection(with: .video))
            connection.videoRotationAngle = 90
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
            // Where it was recorded, as a camera app tags its clips.
            let place = AVMutableMetadataItem()
            place.keySpace = .quickTimeMetadata
            place.key = AVMetadataKey.quickTimeMetadataKeyLocationISO6709.rawValue as NSString
            place.value = "+48.8584+002.2945+035.000/" as NSString
            rig.output.metadata = [place]
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("portrait.mov")
            rig.record(to: url)
            let asset = AVURLAsset(url: url)
            let duration = try await asset.load(.duration)
            #expect(abs(duration.seconds - 0.5) <= 1 / rig.framesPerSecond + 1e-6, "\(duration.seconds) s")
            let tracks = try await asset.load(.tracks)
            #expect(tracks.map(\.mediaType) == [.video, .audio])
            let video = try #require(tracks.first)
            // The same track objects each time they are asked for.
            #expect(asset.tracks.first === video && asset.track(withTrackID: video.trackID) === video)
            // The location back through the common key space, as a gallery reads it.
            let common = try await asset.load(.commonMetadata)
            let location = AVMetadataItem.metadataItems(from: common, withKey: AVMetadataKey.commonKeyLocation, keySpace: .common)
            #expect(location.first?.stringValue == "+48.8584+002.2945+035.000/", "\(common.map { $0.identifier?.rawValue ?? "?" })")
            // The item as stored, with its common key; the common identifier finds it among all the metadata too.
            #expect(location.first?.identifier == .quickTimeMetadataLocationISO6709)
            let all = try await asset.load(.metadata)
            let byIdentifier = AVMetadataItem.metadataItems(from: all, filteredByIdentifier: .commonIdentifierLocation)
            #expect(byIdentifier.count == 1 && byIdentifier.first?.commonKey == .commonKeyLocation)
            let formats = try await asset.load(.availableMetadataFormats)
            #expect(formats == [AVMetadataFormat.quickTimeMetadata])
            let (size, transform) = try await video.load(.naturalSize, .preferredTransform)
            #expect(size == CGSize(width: 1280, height: 720))
            #expect(transform == CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 720, ty: 0), "\(transform)")
            let generator = AVAssetImageGenerator(asset: asset)
            generator.appliesPreferredTrackTransform = true
            generator.maximumSize = CGSize(width: 200, height: 200)
            let (thumbnail, _) = try await generator.image(at: CMTime(value: 1, timescale: 4))
            #expect(thumbnail.height == 200 && abs(thumbnail.width - 113) <= 1, "\(thumbnail.width)×\(thumbnail.height)")
        }

        @Test func aMissingFileIsNotPlayable() async throws {
            let asset = AVURLAsset(url: URL(fileURLWithPath: "/nonexistent/movie-\(UUID().uuidString).mov"))
            #expect(!asset.isPlayable)
            #expect(asset.tracks.isEmpty && asset.metadata.isEmpty)
            #expect(!asset.duration.isValid)
            await #expect(throws: AVError.self) { _ = try await asset.load(.duration) }
            #expect(throws: AVError.self) {
                try AVAssetImageGenerator(asset: asset).copyCGImage(at: .zero, actualTime: nil)
            }
        }
    }
}
