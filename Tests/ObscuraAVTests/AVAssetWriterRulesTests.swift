import Foundation
import Obscura
import ObscuraAV
import Testing

/// The asset writer's contract (spec §23): what raises, what fails with an error, and what a failed
/// or cancelled writer leaves behind.
@Suite(.needs(.ffmpeg)) struct AVAssetWriterRulesTests {
    /// A writer to a new file in a fresh folder, with one H.264 video input of 64 × 48.
    static func rig(_ name: String = "movie.mov") throws -> (AVAssetWriter, AVAssetWriterInput, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let writer = try AVAssetWriter(outputURL: folder.appendingPathComponent(name), fileType: .mov)
        let input = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        writer.add(input)
        return (writer, input, folder)
    }

    /// Keeps the segment data a writer hands its delegate.
    final class Collector: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var received: [(data: Data, type: AVAssetSegmentType)] = []
        var segments: [(data: Data, type: AVAssetSegmentType)] { lock.withLock { received } }
        func assetWriter(_ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType) {
            lock.withLock { received.append((segmentData, segmentType)) }
        }
    }

    // spec §23 rule 11: what a writer of segments needs is checked when writing starts: a delegate, the HLS or
    // CMAF profile, a positive interval with a start time, one track for CMAF. Each missing piece fails
    // `startWriting()` saying which; `flushSegment()` raises unless the interval is indefinite.
    @Test func aWriterOfSegmentsSaysWhatItLacks() throws {
        func writer(
            profile: AVFileTypeProfile? = .mpeg4AppleHLS, interval: CMTime = CMTime(value: 6, timescale: 1),
            start: CMTime = .zero, delegate: AVAssetWriterDelegate? = nil, audio: Bool = false
        ) -> AVAssetWriter {
            let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
            writer.outputFileTypeProfile = profile
            writer.preferredOutputSegmentInterval = interval
            writer.initialSegmentStartTime = start
            writer.delegate = delegate
            writer.add(
                AVAssetWriterInput(
                    mediaType: .video,
                    outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 320, AVVideoHeightKey: 240]))
            if audio { writer.add(AVAssetWriterInput(mediaType: .audio, outputSettings: nil)) }
            return writer
        }
        func failure(_ writer: AVAssetWriter) -> String {
            #expect(!writer.startWriting() && writer.status == .failed)
            return (writer.error as NSError?)?.localizedFailureReason ?? ""
        }
        let collector = Collector()
        #expect(failure(writer()).contains("delegate"))
        #expect(failure(writer(profile: nil, delegate: collector)).contains("outputFileTypeProfile"))
        #expect(failure(writer(interval: .invalid, delegate: collector)).contains("preferredOutputSegmentInterval"))
        #expect(failure(writer(start: .invalid, delegate: collector)).contains("initialSegmentStartTime"))
        #expect(
            failure(writer(profile: .mpeg4CMAFCompliant, delegate: collector, audio: true)).contains("More than one track"))

        let ready = writer(delegate: collector)
        #expect(ready.startWriting() && ready.status == .writing)
        #expect(ready.outputFileType == .mp4)
        expectException(.internalInconsistencyException, "kCMTimeIndefinite") { ready.flushSegment() }
        let undelegated = writer()
        expectException(.internalInconsistencyException, "delegate method to output segment data") {
            undelegated.flushSegment()
        }
        ready.cancelWriting()
        #expect(collector.segments.allSatisfy { $0.type == .initialization })
    }

    static func frame() -> CVPixelBuffer {
        var buffer: CVPixelBuffer?
        _ = CVPixelBufferCreate(nil, 64, 48, kCVPixelFormatType_32BGRA, nil, &buffer)
        return buffer!
    }

    static func sample(_ seconds: Int64, _ scale: Int32 = 30) -> CMSampleBuffer {
        var format: CMVideoFormatDescription?
        let frame = frame()
        _ = CMVideoFormatDescriptionCreateForImageBuffer(allocator: nil, imageBuffer: frame, formatDescriptionOut: &format)
        var timing = CMSampleTimingInfo(
            duration: CMTime(value: 1, timescale: scale), presentationTimeStamp: CMTime(value: seconds, timescale: scale),
            decodeTimeStamp: .invalid)
        var sample: CMSampleBuffer?
        _ = CMSampleBufferCreateReadyWithImageBuffer(
            allocator: nil, imageBuffer: frame, formatDescription: format!, sampleTiming: &timing, sampleBufferOut: &sample)
        return sample!
    }

    static func finish(_ writer: AVAssetWriter) {
        let done = DispatchSemaphore(value: 0)
        writer.finishWriting { done.signal() }
        _ = done.wait(timeout: .now() + 60)
    }

    // rule 11: a CMAF writer of one video track, its session and first segment starting at 10 s, with 1.5 s of
    // frames at 30 fps in segments of one second: the initialization segment when writing starts (the settings give
    // the size), then two media segments on the movie's time line, 0 s for 1 s and 1 s for 0.5 s, each starting with
    // a sync sample, the first once the frame at 11 s arrives and the last at finishing.
    @Test func segmentsFollowTheSessionsTimeLine() throws {
        /// Writes the 45 frames for `delegate`, checking what has arrived as it goes.
        func write(for delegate: AVAssetWriterDelegate, arrived: () -> [AVAssetSegmentType]) {
            let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
            writer.outputFileTypeProfile = .mpeg4CMAFCompliant
            writer.preferredOutputSegmentInterval = CMTime(value: 1, timescale: 1)
            writer.initialSegmentStartTime = CMTime(value: 10, timescale: 1)
            writer.delegate = delegate
            let input = AVAssetWriterInput(
                mediaType: .video,
                outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
            writer.add(input)
            #expect(writer.startWriting())
            #expect(arrived() == [.initialization])
            writer.startSession(atSourceTime: CMTime(value: 300, timescale: 30))
            for k in Int64(300)..<345 { #expect(input.append(Self.sample(k))) }
            #expect(arrived() == [.initialization, .separable])
            Self.finish(writer)
            #expect(writer.status == .completed)
            #expect(arrived() == [.initialization, .separable, .separable])
        }
        // A delegate that implements only the call without a report hears every segment through it.
        let collector = Collector()
        write(for: collector) { collector.segments.map(\.type) }
        // The initialization segment declares CMAF: its file type box lists the brand 'cmfc' (ISO/IEC 23000-19).
        let initialization = try #require(collector.segments.first?.data)
        #expect(String(decoding: initialization[4..<8], as: UTF8.self) == "ftyp")
        let ftypSize = Int(initialization[0]) << 24 | Int(initialization[1]) << 16 | Int(initialization[2]) << 8
            | Int(initialization[3])
        let brands = String(decoding: initialization[8..<ftypSize], as: UTF8.self)
        #expect(brands.contains("cmfc"), "brands \(brands)")

        final class Reports: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
            var reports: [(type: AVAssetSegmentType, report: AVAssetSegmentReport?)] = []
            func assetWriter(
                _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
                segmentReport: AVAssetSegmentReport?
            ) { reports.append((segmentType, segmentReport)) }
        }
        let reporting = Reports()
        write(for: reporting) { reporting.reports.map(\.type) }
        #expect(reporting.reports.first.map { $0.report == nil } == true)
        let tracks = reporting.reports.dropFirst().compactMap { $0.report?.trackReports.first }
        #expect(tracks.count == 2)
        for (track, (start, duration)) in zip(tracks, [(0.0, 1.0), (1.0, 0.5)]) {
            #expect(track.trackID == 1 && track.mediaType == .video)
            #expect(abs(track.earliestPresentationTimeStamp.seconds - start) < 1e-9)
            #expect(abs(track.duration.seconds - duration) < 1e-9)
            #expect(track.firstVideoSampleInformation?.isSyncSample == true)
        }
    }

    // rule 11: a delegate may append from inside its callback, as a packager that paces its source by segments
    // does: the sample is taken, the writer goes on, and the segments still arrive in order, the last before the
    // completion handler.
    @Test func aDelegateMayAppendFromItsCallback() throws {
        final class Pacer: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
            var input: AVAssetWriterInput?
            var next: Int64 = 0
            var types: [AVAssetSegmentType] = []
            var appendedInside = false
            func assetWriter(
                _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType
            ) {
                types.append(segmentType)
                if segmentType == .separable, !appendedInside, let input {
                    appendedInside = input.append(AVAssetWriterRulesTests.sample(next))
                    next += 1
                }
            }
        }
        let pacer = Pacer()
        let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
        writer.outputFileTypeProfile = .mpeg4AppleHLS
        writer.preferredOutputSegmentInterval = CMTime(value: 1, timescale: 2)
        writer.initialSegmentStartTime = .zero
        writer.delegate = pacer
        let input = AVAssetWriterInput(
            mediaType: .video,
            outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
        writer.add(input)
        pacer.input = input
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            #expect(writer.startWriting())
            writer.startSession(atSourceTime: .zero)
            while pacer.next < 40 {
                pacer.next += 1
                #expect(input.append(Self.sample(pacer.next - 1)))
            }
            writer.finishWriting { finished.signal() }
        }
        #expect(finished.wait(timeout: .now() + 60) == .success, "the writer stalled")
        #expect(writer.status == .completed)
        #expect(pacer.appendedInside)
        // 41 frames at 30 fps in half-second segments: the initialization segment, then 15, 15 and 11 frames.
        #expect(pacer.types == [.initialization, .separable, .separable, .separable])
    }

    // rule 5 [D]: samples follow startSession, which follows startWriting.
    @Test func sessionOrderIsEnforced() throws {
        let (writer, input, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        let early = Emulator.catchException { writer.startSession(atSourceTime: .zero) }
        #expect(early?.name == .internalInconsistencyException)
        #expect(writer.startWriting())
        let unstarted = Emulator.catchException { _ = input.append(Self.sample(0)) }
        #expect(unstarted?.name == .internalInconsistencyException)
        #expect(unstarted?.reason?.contains("Must start a session") == true)
        let invalid = Emulator.catchException { writer.startSession(atSourceTime: .invalid) }
        #expect(invalid?.name == .invalidArgumentException)
        writer.startSession(atSourceTime: .zero)
        #expect(input.append(Self.sample(0)))
        writer.cancelWriting()
    }

    // rule 2 [D]: inputs are added before writing starts; one of each media type is written, and a second
    // one, which canAdd refuses, is taken without an exception and fails startWriting with the reason.
    @Test func inputsAreAddedBeforeWriting() throws {
        let (writer, _, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        let second = AVAssetWriterInput(mediaType: .video, outputSettings: nil)
        #expect(!writer.canAdd(second))
        let (twice, _, other) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: other) }
        twice.add(second)
        #expect(Emulator.catchException { twice.add(second) } == nil)
        #expect(!twice.startWriting())
        let reason = (twice.error as NSError?)?.localizedFailureReason ?? ""
        #expect(reason.contains("one video input"), "\(reason)")
        let audio = AVAssetWriterInput(mediaType: .audio, outputSettings: nil)
        #expect(writer.canAdd(audio))
        #expect(writer.startWriting())
        #expect(!writer.canAdd(audio))
        let late = Emulator.catchException { writer.add(audio) }
        #expect(late?.name == .internalInconsistencyException)
        #expect(writer.inputs.count == 1)
        writer.cancelWriting()
    }

    // rule 4 [D]: a file already at the URL fails the writer at startWriting and is left as it was.
    @Test func anExistingFileIsNeverReplaced() throws {
        let (writer, _, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = Data("keep me".utf8)
        try existing.write(to: writer.outputURL)
        #expect(!writer.startWriting())
        #expect(writer.status == .failed)
        #expect((writer.error as? AVError)?.code == .fileAlreadyExists)
        #expect(try Data(contentsOf: writer.outputURL) == existing)
    }

    // rules 3, 4 [I]: settings that cannot be written fail startWriting with the reason; codecs other than
    // H.264 and HEVC are not found; a non-file URL or another file type is refused at once.
    @Test func unwritableSettingsFailWithAReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let writer = try AVAssetWriter(outputURL: folder.appendingPathComponent("a.mov"), fileType: .mov)
        let jpeg: [String: Any] = [AVVideoCodecKey: AVVideoCodecType.jpeg, AVVideoWidthKey: 64, AVVideoHeightKey: 48]
        #expect(!writer.canApply(outputSettings: jpeg, forMediaType: .video))
        writer.add(AVAssetWriterInput(mediaType: .video, outputSettings: jpeg))
        #expect(!writer.startWriting())
        #expect((writer.error as? AVError)?.code == .encoderNotFound)

        let odd: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44_000, AVNumberOfChannelsKey: 1]
        #expect(!writer.canApply(outputSettings: odd, forMediaType: .audio))
        let surround: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 6]
        #expect(!writer.canApply(outputSettings: surround, forMediaType: .audio))
        let stereo48k: [String: Any] = [AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2]
        #expect(writer.canApply(outputSettings: stereo48k, forMediaType: .audio))
        #expect(!writer.canApply(outputSettings: [AVFormatIDKey: kAudioFormatLinearPCM], forMediaType: .audio))

        #expect(throws: AVError.self) { try AVAssetWriter(outputURL: URL(string: "https://example.com/a.mov")!, fileType: .mov) }
        #expect(throws: AVError.self) { try AVAssetWriter(outputURL: folder.appendingPathComponent("a.jpg"), fileType: .jpg) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    // rule 6 [O]: a picture that does not follow the last one fails the writer, and nothing is left
    // under the name or beside it.
    @Test func timesMustIncrease() throws {
        let (writer, input, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        #expect(input.append(Self.sample(1)))
        #expect(!input.append(Self.sample(1)))
        #expect(writer.status == .failed)
        #expect((writer.error as? AVError)?.code == .unknown)
        #expect(!input.isReadyForMoreMediaData)
        #expect(!input.append(Self.sample(2)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    // rule 6 [I]: a time that is not a number fails the writer rather than the process; an end at
    // positive infinity leaves the session open.
    @Test func timesThatAreNotNumbersAreRefused() throws {
        let (writer, input, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        writer.endSession(atSourceTime: .positiveInfinity)
        #expect(adaptor.append(Self.frame(), withPresentationTime: CMTime(value: 1, timescale: 30)))
        #expect(!adaptor.append(Self.frame(), withPresentationTime: .indefinite))
        #expect(writer.status == .failed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    // rule 8 [D]: a second finishWriting waits for the first; samples appended once finishing has
    // begun are not taken and do not fail the finished movie.
    @Test func finishingTwiceCompletesOnce() throws {
        let (writer, input, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        #expect(input.append(Self.sample(0)))
        let both = DispatchGroup()
        both.enter()
        both.enter()
        writer.finishWriting { both.leave() }
        writer.finishWriting { both.leave() }
        #expect(!input.append(Self.sample(1)))
        #expect(both.wait(timeout: .now() + 60) == .success)
        #expect(writer.status == .completed)
        #expect(!input.append(Self.sample(2)))
        #expect(writer.status == .completed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["movie.mov"])
    }

    // rule 8 [D]: cancelling removes what was written; finishing before starting raises.
    @Test func cancelLeavesNothing() throws {
        let (writer, input, folder) = try Self.rig()
        defer { try? FileManager.default.removeItem(at: folder) }
        let early = Emulator.catchException { writer.finishWriting {} }
        #expect(early?.name == .internalInconsistencyException)
        #expect(writer.startWriting())
        writer.startSession(atSourceTime: .zero)
        #expect(input.append(Self.sample(0)))
        writer.cancelWriting()
        #expect(writer.status == .cancelled)
        #expect(!input.isReadyForMoreMediaData)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
