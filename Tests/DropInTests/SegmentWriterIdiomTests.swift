import AVFoundation
import CoreMedia
import ExternalTools
import Foundation
import Testing
import UniformTypeIdentifiers

/// Collects what an asset writer hands its delegate, as an HLS packager does before writing its playlist.
final class SegmentCollector: NSObject, AVAssetWriterDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [(data: Data, type: AVAssetSegmentType, report: AVAssetSegmentReport?)] = []

    var segments: [(data: Data, type: AVAssetSegmentType, report: AVAssetSegmentReport?)] { lock.withLock { received } }

    func assetWriter(
        _ writer: AVAssetWriter, didOutputSegmentData segmentData: Data, segmentType: AVAssetSegmentType,
        segmentReport: AVAssetSegmentReport?
    ) {
        lock.withLock { received.append((segmentData, segmentType, segmentReport)) }
    }
}

extension DropIn {
    /// A writer made with `init(contentType:)` hands fragmented MPEG-4 to its delegate (spec §23 rule 11). ffprobe
    /// reads the segments joined, as a player reads an HLS stream, and their packets are where the reports say.
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct SegmentWriterIdiomTests {
        /// One packet of the joined segments as ffprobe lists it.
        struct Packet {
            let stream: Int
            let time: Double
            let position: Int
            let size: Int
            let key: Bool
        }

        static func packets(_ url: URL) throws -> [Packet] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try ExternalTool.ffprobe.require())
            process.arguments = [
                "-v", "error", "-show_entries", "packet=stream_index,pts_time,pos,size,flags", "-of", "csv=p=0",
                url.path,
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text.split(separator: "\n").compactMap { line in
                let f = line.split(separator: ",").map(String.init)
                guard f.count >= 5, let stream = Int(f[0]), let time = Double(f[1]), let size = Int(f[2]),
                    let position = Int(f[3])
                else { return nil }
                return Packet(stream: stream, time: time, position: position, size: size, key: f[4].hasPrefix("K"))
            }
        }

        // spec §23 rule 11: 75 frames at 30 fps in segments of 0.8 s make an initialization segment (no report) and
        // four media segments of 24, 24, 24 and 3 frames, each starting with a sync sample, 0.8 s apart (so the
        // writer made key frames the encoder's 30-frame interval alone would not have).
        // Joined, they are one movie of 75 frames with its sound, whose key frames and packets lie where the reports
        // say.
        @Test func cameraAndMicrophoneMakeHLSSegments() throws {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .vga640x480
            let camera = try #require(AVCaptureDevice.default(for: .video))
            session.addInput(try AVCaptureDeviceInput(device: camera))
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
            let videoOutput = AVCaptureVideoDataOutput()
            let audioOutput = AVCaptureAudioDataOutput()
            session.addOutput(videoOutput)
            session.addOutput(audioOutput)
            session.commitConfiguration()
            // The first frame's time starts both the session and the first segment.
            let writer = AVAssetWriter(contentType: UTType(AVFileType.mp4.rawValue)!)
            let collector = SegmentCollector()
            writer.outputFileTypeProfile = .mpeg4AppleHLS
            writer.preferredOutputSegmentInterval = CMTime(value: 4, timescale: 5)
            writer.delegate = collector
            let recorder = WriterRecorder(
                writer: writer, video: videoOutput.recommendedVideoSettingsForAssetWriter(writingTo: .mp4),
                audio: audioOutput.recommendedAudioSettingsForAssetWriter(writingTo: .mp4), frames: 75)
            recorder.beforeStart = { writer.initialSegmentStartTime = $0 }
            let queue = DispatchQueue(label: "segments")
            videoOutput.setSampleBufferDelegate(recorder, queue: queue)
            audioOutput.setSampleBufferDelegate(recorder, queue: queue)
            session.startRunning()
            #expect(recorder.done.wait(timeout: .now() + 120) == .success)
            session.stopRunning()
            #expect(recorder.writer.status == .completed, "\(String(describing: recorder.writer.error))")

            let segments = collector.segments
            #expect(segments.map(\.type) == [.initialization, .separable, .separable, .separable, .separable])
            #expect(segments.first?.report == nil)
            let initialization = try #require(segments.first?.data)
            #expect(String(decoding: initialization[4..<8], as: UTF8.self) == "ftyp")

            // The reports: the video track's first sample is a sync sample at 0, 1 and 2 s; the segments last
            // 1, 1 and 0.5 s.
            var videoStarts: [Double] = [], videoDurations: [Double] = [], firstSamples: [(Int, Int)] = []
            for segment in segments.dropFirst() {
                let report = try #require(segment.report)
                #expect(report.segmentType == .separable)
                #expect(Set(report.trackReports.map(\.mediaType)) == [.video, .audio])
                let video = try #require(report.trackReports.first { $0.mediaType == .video })
                let first = try #require(video.firstVideoSampleInformation)
                #expect(first.isSyncSample && first.presentationTimeStamp == video.earliestPresentationTimeStamp)
                #expect(first.offset > 0 && first.offset + first.length <= segment.data.count)
                videoStarts.append(video.earliestPresentationTimeStamp.seconds)
                videoDurations.append(video.duration.seconds)
                firstSamples.append((first.offset, first.length))
                #expect(report.trackReports.first { $0.mediaType == .audio }?.firstVideoSampleInformation == nil)
            }
            // Each segment starts where the one before ends, an interval after it, on the segments' own time line;
            // the last holds three frames. (The first frame lasts longer by the sound's encoder delay, which shifts
            // the whole movie, so the first segment does too.)
            #expect(videoStarts.count == 4 && videoDurations.count == 4)
            for i in 1..<3 {
                #expect(abs(videoStarts[i + 1] - videoStarts[i] - 0.8) < 1e-6 && abs(videoDurations[i] - 0.8) < 1e-6)
            }
            #expect(abs(videoDurations[3] - 0.1) < 1e-6)
            for i in 0..<3 { #expect(abs(videoStarts[i] + videoDurations[i] - videoStarts[i + 1]) < 1e-6) }

            // Joined, as a player reads them.
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("joined.mp4")
            try Data(segments.map(\.data).joined()).write(to: url)
            let probe = try ProbedMovie(url)
            #expect(probe.video?.frames == 75 && probe.video?.codec == "h264")
            #expect(probe.audio?.codec == "aac")
            let video = try Self.packets(url).filter { $0.stream == 0 }
            #expect(video.count == 75)
            #expect(video.indices.filter { video[$0].key } == [0, 24, 48, 72])
            // ffprobe finds each segment's first frame at the time its report gives.
            for (index, seconds) in zip([0, 24, 48, 72], videoStarts) {
                #expect(abs(video[index].time - seconds) < 1e-5)
            }
            // Each segment's first video sample is the key frame's packet, where its segment starts in the join.
            var start = initialization.count
            for ((offset, length), (segment, index)) in zip(firstSamples, zip(segments.dropFirst(), [0, 24, 48, 72])) {
                #expect(video[index].position == start + offset && video[index].size == length)
                start += segment.data.count
            }
        }
    }
}
