import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// A recorded movie's frames read back one by one, as tests of a recording check it: `AVAssetReader` with a
    /// track output asking for BGRA or 4:2:0 Y'CbCr, `copyNextSampleBuffer()` until nil. The movie is
    /// `AssetReadingIdiomTests`'s: ten 64 × 48 frames at 30 fps, frame i a grey of level 20 + 20·i with a white
    /// 16 × 16 block at its top left, its track turned a quarter clockwise.
    @Suite(.needs(.ffmpeg))
    struct AssetReaderIdiomTests {
        /// Every sample of the video track, with the output settings given.
        static func samples(_ url: URL, settings: [String: Any], range: CMTimeRange? = nil) throws
            -> (AVAssetReader, [CMSampleBuffer])
        {
            let asset = AVURLAsset(url: url)
            let track = try #require(asset.tracks(withMediaType: .video).first)
            let reader = try AVAssetReader(asset: asset)
            if let range { reader.timeRange = range }
            let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
            output.alwaysCopiesSampleData = false
            #expect(reader.canAdd(output))
            reader.add(output)
            #expect(reader.startReading(), "\(String(describing: reader.error))")
            #expect(reader.status == .reading)
            var samples: [CMSampleBuffer] = []
            while let sample = output.copyNextSampleBuffer() { samples.append(sample) }
            return (reader, samples)
        }

        @Test func everyFrameComesBackInOrderWithItsTime() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetReadingIdiomTests.movie(in: folder)
            let (reader, samples) = try Self.samples(
                url, settings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
            #expect(reader.status == .completed)
            #expect(samples.count == 10)
            for (i, sample) in samples.enumerated() {
                let time = CMSampleBufferGetPresentationTimeStamp(sample)
                #expect(abs(time.seconds - Double(i) / 30) < 1e-3, "frame \(i) at \(time.seconds)")
                #expect(abs(CMSampleBufferGetDuration(sample).seconds - 1.0 / 30) < 1e-3)
                let buffer = try #require(CMSampleBufferGetImageBuffer(sample))
                #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_32BGRA)
                // Frames come as stored: 64 × 48, the track's turn not applied.
                #expect(CVPixelBufferGetWidth(buffer) == 64 && CVPixelBufferGetHeight(buffer) == 48)
                CVPixelBufferLockBaseAddress(buffer, .readOnly)
                defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
                let base = try #require(CVPixelBufferGetBaseAddress(buffer)).assumingMemoryBound(to: UInt8.self)
                let rowBytes = CVPixelBufferGetBytesPerRow(buffer)
                // H.264 keeps a flat grey within a few levels, and the white block white.
                let grey = Int(base[30 * rowBytes + 4 * 40 + 1])
                #expect(abs(grey - (20 + 20 * i)) <= 6, "frame \(i): grey \(grey)")
                #expect(base[4 * rowBytes + 4 * 4 + 1] > 235, "frame \(i): the white block")
            }
            // Past the last, nil again.
            #expect(reader.outputs.first?.copyNextSampleBuffer() == nil)
        }

        @Test func aTimeRangeGivesTheFramesShownWithinIt() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = try AssetReadingIdiomTests.movie(in: folder)
            // From half way through frame 2 to half way through frame 6.
            let range = CMTimeRange(start: CMTime(value: 5, timescale: 60), duration: CMTime(value: 8, timescale: 60))
            let (_, samples) = try Self.samples(
                url,
                settings: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarFullRange],
                range: range)
            let frames = samples.map { Int((CMSampleBufferGetPresentationTimeStamp($0).seconds * 30).rounded()) }
            #expect(frames == [2, 3, 4, 5, 6])
            let buffer = try #require(samples.first.flatMap(CMSampleBufferGetImageBuffer))
            #expect(CVPixelBufferGetPixelFormatType(buffer) == kCVPixelFormatType_420YpCbCr8BiPlanarFullRange)
            #expect(CVPixelBufferGetPlaneCount(buffer) == 2)
            CVPixelBufferLockBaseAddress(buffer, .readOnly)
            defer { CVPixelBufferUnlockBaseAddress(buffer, .readOnly) }
            // Full-range luma of a grey is its level.
            let luma = try #require(CVPixelBufferGetBaseAddressOfPlane(buffer, 0)).assumingMemoryBound(to: UInt8.self)
            let y = Int(luma[30 * CVPixelBufferGetBytesPerRowOfPlane(buffer, 0) + 40])
            #expect(abs(y - 60) <= 6, "frame 2's luma \(y)")
        }

        @Test func cancellingStopsTheSamples() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let asset = AVURLAsset(url: try AssetReadingIdiomTests.movie(in: folder))
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(
                track: try #require(asset.tracks(withMediaType: .video).first),
                outputSettings: [kCVPixelBufferPixelFormatTypeKey as String: [kCVPixelFormatType_32BGRA]])
            reader.add(output)
            #expect(reader.startReading())
            #expect(output.copyNextSampleBuffer() != nil)
            reader.cancelReading()
            #expect(reader.status == .cancelled)
            #expect(output.copyNextSampleBuffer() == nil)
        }

        /// A clip recorded with the microphone, its sound read back as 16-bit linear PCM: the microphone's 1 kHz tone
        /// at a quarter of full scale, timed without gaps.
        @Test func aRecordingsSoundReadsBackAsPCM() throws {
            let rig = try MovieRig(preset: .vga640x480, microphone: true)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 1)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("voice.mov")
            rig.record(to: url)

            let asset = AVURLAsset(url: url)
            let track = try #require(asset.tracks(withMediaType: .audio).first)
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(
                track: track,
                outputSettings: [
                    AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 16, AVLinearPCMIsFloatKey: false,
                    AVLinearPCMIsBigEndianKey: false, AVLinearPCMIsNonInterleaved: false,
                ])
            reader.add(output)
            #expect(reader.startReading(), "\(String(describing: reader.error))")
            var samples: [Int16] = []
            var next = CMTime.zero
            while let buffer = output.copyNextSampleBuffer() {
                let description = try #require(CMSampleBufferGetFormatDescription(buffer))
                let stream = try #require(CMAudioFormatDescriptionGetStreamBasicDescription(description)).pointee
                #expect(stream.mSampleRate == 44_100 && stream.mChannelsPerFrame == 1 && stream.mBitsPerChannel == 16)
                // Each buffer starts where the one before ended.
                let start = CMSampleBufferGetPresentationTimeStamp(buffer)
                #expect(abs((start - next).seconds) < 1e-6, "\(start.seconds) after \(next.seconds)")
                next = start + CMSampleBufferGetDuration(buffer)
                let block = try #require(CMSampleBufferGetDataBuffer(buffer))
                var length = 0
                var pointer: UnsafeMutablePointer<CChar>?
                #expect(
                    CMBlockBufferGetDataPointer(
                        block, atOffset: 0, lengthAtOffsetOut: nil, totalLengthOut: &length, dataPointerOut: &pointer)
                        == kCMBlockBufferNoErr)
                let raw = UnsafeRawPointer(try #require(pointer))
                samples += (0..<(length / 2)).map { raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self) }
                #expect(CMSampleBufferGetNumSamples(buffer) == length / 2)
            }
            #expect(reader.status == .completed)
            // A second of sound, to within two of AAC's 1,024-sample frames.
            #expect(abs(samples.count - 44_100) <= 2048, "\(samples.count) samples")
            // The middle half: sign changes give the frequency, the RMS the level (a quarter of full scale, a sine's
            // RMS 1/√2 of its peak).
            let middle = Array(samples[(samples.count / 4)..<(3 * samples.count / 4)])
            let crossings = zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            let frequency = Double(crossings) / 2 / (Double(middle.count) / 44_100)
            #expect(abs(frequency - 1000) < 10, "\(frequency) Hz")
            let rms = (middle.map { pow(Double($0) / 32768, 2) }.reduce(0, +) / Double(middle.count)).squareRoot()
            #expect(abs(rms - 0.25 / 2.0.squareRoot()) < 0.02, "RMS \(rms)")
            // Sound is not resampled: asking for another rate fails the reader, with the reason.
            let resampled = try AVAssetReader(asset: asset)
            resampled.add(
                AVAssetReaderTrackOutput(
                    track: track, outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 48_000]))
            #expect(!resampled.startReading())
            #expect(
                resampled.status == .failed && (resampled.error as? AVError)?.code == .operationNotSupportedForAsset)
        }
    }
}
