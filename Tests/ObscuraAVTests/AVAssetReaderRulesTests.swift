import AVFoundation
import CoreMedia
import Foundation
import Obscura
import Testing

/// `AVAssetReader`'s rules (Capture rules §25 rules 6–9): when outputs may be added and settings changed, what
/// fails the reader, copying before reading, and reading again over new ranges.
@Suite(.needs(.ffmpeg)) struct AVAssetReaderRulesTests {
    /// A movie of four frames at 30 fps, written here, and its folder.
    static func movie() throws -> (URL, URL) {
        let (writer, input, folder) = try AVAssetWriterRulesTests.rig()
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        for i in 0..<4 { #expect(input.append(AVAssetWriterRulesTests.sample(Int64(i)))) }
        input.markAsFinished()
        AVAssetWriterRulesTests.finish(writer)
        return (writer.outputURL, folder)
    }

    static var bgra: [String: Any] { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }

    static func times(_ output: AVAssetReaderOutput) -> [Int] {
        var frames: [Int] = []
        while let sample = output.copyNextSampleBuffer() {
            frames.append(Int((CMSampleBufferGetPresentationTimeStamp(sample).seconds * 30).rounded()))
        }
        return frames
    }

    // rule 6 [D][O]: outputs and settings are fixed once reading starts.
    @Test func configurationIsFixedOnceReadingStarts() throws {
        let (url, folder) = try Self.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        let track = try #require(asset.tracks(withMediaType: .video).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: Self.bgra)
        reader.add(output)
        #expect(!reader.canAdd(output), "an output joins one reader once")
        let twice = Emulator.catchException { reader.add(output) }
        #expect(twice?.name == .invalidArgumentException)
        let elsewhere = AVAssetReaderTrackOutput(
            track: try #require(AVURLAsset(url: url).tracks.first), outputSettings: Self.bgra)
        #expect(!reader.canAdd(elsewhere), "a track of another asset")
        #expect(reader.startReading())
        #expect(!reader.startReading(), "a second start changes nothing")
        #expect(reader.status == .reading)
        let late = AVAssetReaderTrackOutput(track: track, outputSettings: Self.bgra)
        #expect(!reader.canAdd(late))
        #expect(Emulator.catchException { reader.add(late) }?.reason?.contains("after reading has started") == true)
        let range = Emulator.catchException { reader.timeRange = CMTimeRange(start: .zero, duration: .zero) }
        #expect(range?.name == .internalInconsistencyException)
        #expect(Emulator.catchException { output.supportsRandomAccess = true }?.name == .internalInconsistencyException)
    }

    // rule 7 [I]: what is not read here fails the reader with an error, at once.
    @Test func whatIsNotReadHereFailsTheReader() throws {
        let (url, folder) = try Self.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        for settings in [nil, [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_OneComponent8]]
            as [[String: Any]?]
        {
            let asset = AVURLAsset(url: url)
            let reader = try AVAssetReader(asset: asset)
            let output = AVAssetReaderTrackOutput(
                track: try #require(asset.tracks(withMediaType: .video).first), outputSettings: settings)
            reader.add(output)
            #expect(!reader.startReading())
            #expect(reader.status == .failed)
            #expect((reader.error as? AVError)?.code == .operationNotSupportedForAsset)
            #expect(output.copyNextSampleBuffer() == nil)
        }
        #expect(throws: AVError.self) {
            try AVAssetReader(asset: AVURLAsset(url: folder.appendingPathComponent("none.mov")))
        }
    }

    // rule 8 [O]: copying before the reader starts raises.
    @Test func copyingBeforeReadingRaises() throws {
        let (url, folder) = try Self.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        let output = AVAssetReaderTrackOutput(
            track: try #require(asset.tracks(withMediaType: .video).first), outputSettings: Self.bgra)
        let loose = Emulator.catchException { _ = output.copyNextSampleBuffer() }
        #expect(loose?.name == .internalInconsistencyException)
        #expect(loose?.reason?.contains("calling -startReading") == true)
        let reader = try AVAssetReader(asset: asset)
        reader.add(output)
        #expect(Emulator.catchException { _ = output.copyNextSampleBuffer() } != nil)
        #expect(reader.startReading())
        #expect(Self.times(output) == [0, 1, 2, 3])
        #expect(reader.status == .completed)
    }

    // rule 9 [D]: an output with random access reads again over new ranges, and finishes once marked final.
    @Test func randomAccessReadsRangesAgain() throws {
        let (url, folder) = try Self.movie()
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = AVURLAsset(url: url)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(
            track: try #require(asset.tracks(withMediaType: .video).first), outputSettings: Self.bgra)
        output.supportsRandomAccess = true
        reader.add(output)
        #expect(reader.startReading())
        let early = Emulator.catchException {
            output.reset(forReadingTimeRanges: [NSValue(timeRange: CMTimeRange(start: .zero, duration: .zero))])
        }
        #expect(early?.name == .internalInconsistencyException, "before the output has given its last sample")
        #expect(Self.times(output) == [0, 1, 2, 3])
        #expect(reader.status == .reading, "not finished until marked final")
        let third = CMTime(value: 1, timescale: 60)
        let unordered = [
            CMTimeRange(start: CMTime(value: 3, timescale: 30), duration: third),
            CMTimeRange(start: .zero, duration: third),
        ].map { NSValue(timeRange: $0) }
        #expect(
            Emulator.catchException { output.reset(forReadingTimeRanges: unordered) }?.name == .invalidArgumentException
        )
        let ranges = [
            CMTimeRange(start: .zero, duration: third),
            CMTimeRange(start: CMTime(value: 3, timescale: 30), duration: third),
        ]
        #expect(NSValue(timeRange: ranges[1]).timeRangeValue == ranges[1])
        output.reset(forReadingTimeRanges: ranges.map { NSValue(timeRange: $0) })
        #expect(Self.times(output) == [0, 3])
        output.markConfigurationAsFinal()
        #expect(reader.status == .completed)
        let plain = AVAssetReaderTrackOutput(track: try #require(asset.tracks.first), outputSettings: Self.bgra)
        #expect(
            Emulator.catchException { plain.reset(forReadingTimeRanges: []) }?.name == .internalInconsistencyException)
    }
}
