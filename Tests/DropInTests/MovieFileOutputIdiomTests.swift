import AVFoundation
import CoreMedia
import ExternalTools
import Foundation
import Testing

/// Movies are written with FFmpeg's libraries, loaded at run time, and read back with ffprobe; CI
/// installs both. The suites that record take `.needs(.ffmpeg, .ffprobe)`.
enum MovieSupport {
    /// A fresh folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("movies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// What `ffprobe -show_streams -show_format -count_frames` reports about a file: an independent
/// reader, so a test compares the file with what the API promised, not with our own writer.
struct ProbedMovie {
    struct Stream {
        let codec: String
        let kind: String
        let width: Int?
        let height: Int?
        let frameRate: String?
        let duration: Double?
        let frames: Int?
        let sampleRate: Int?
        let channels: Int?
        let tag: String?
        /// The display matrix's rotation as ffprobe states it (anticlockwise degrees); nil without a matrix.
        let rotation: Int?
        /// The display matrix's nine entries, row by row, as ffprobe prints them; empty without one.
        let displayMatrix: [Int]
        /// The stream's bits per second, as ffprobe states it.
        var bitRate: Int? = nil
        /// The presentation time of the stream's first sample, seconds: below zero where an edit list starts the
        /// presentation inside it (an AAC track's priming).
        var startTime: Double? = nil
    }

    let streams: [Stream]
    let duration: Double?
    let json: String
    /// The container's metadata, as ffprobe names its tags.
    let formatTags: [String: String]

    init(_ url: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.ffprobe.require())
        process.arguments = [
            "-v", "error", "-count_frames", "-show_streams", "-show_format", "-of", "json", url.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        json = String(decoding: data, as: UTF8.self)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        func number(_ value: Any?) -> Double? { (value as? String).flatMap(Double.init) ?? (value as? Double) }
        streams = (root["streams"] as? [[String: Any]] ?? []).map { s in
            Stream(
                codec: s["codec_name"] as? String ?? "", kind: s["codec_type"] as? String ?? "",
                width: s["width"] as? Int, height: s["height"] as? Int, frameRate: s["r_frame_rate"] as? String,
                duration: number(s["duration"]), frames: (s["nb_read_frames"] as? String).flatMap { Int($0) },
                sampleRate: (s["sample_rate"] as? String).flatMap { Int($0) }, channels: s["channels"] as? Int,
                tag: s["codec_tag_string"] as? String,
                rotation: Self.displayMatrix(s).flatMap {
                    ($0["rotation"] as? Int) ?? ($0["rotation"] as? Double).map { Int($0.rounded()) }
                },
                // ffprobe prints the matrix as three lines "0000000r:  a  b  u" of decimal entries.
                displayMatrix: (Self.displayMatrix(s)?["displaymatrix"] as? String ?? "")
                    .split(separator: "\n")
                    .flatMap { line in (line.split(separator: ":").last ?? "").split(separator: " ") }
                    .compactMap { Int($0) }, bitRate: (s["bit_rate"] as? String).flatMap { Int($0) },
                startTime: number(s["start_time"]))
        }
        duration = number((root["format"] as? [String: Any])?["duration"])
        formatTags = (root["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
    }

    private static func displayMatrix(_ stream: [String: Any]) -> [String: Any]? {
        (stream["side_data_list"] as? [[String: Any]] ?? []).first { $0["side_data_type"] as? String == "Display Matrix" }
    }

    var video: Stream? { streams.first { $0.kind == "video" } }
    var audio: Stream? { streams.first { $0.kind == "audio" } }
}

/// Records the delegate's calls in order and signals the end.
final class RecordingEvents: NSObject, AVCaptureFileOutputRecordingDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [String] = []
    private var finishError: Error?
    private let done = DispatchSemaphore(value: 0)
    private var recordingWhenFinished: Bool?

    var events: [String] { lock.withLock { calls } }
    var error: Error? { lock.withLock { finishError } }
    var wasRecordingInFinish: Bool? { lock.withLock { recordingWhenFinished } }

    func fileOutput(
        _ output: AVCaptureFileOutput, didStartRecordingTo fileURL: URL, from connections: [AVCaptureConnection]
    ) {
        lock.withLock { calls.append("start") }
    }

    func fileOutput(
        _ output: AVCaptureFileOutput, didPauseRecordingTo fileURL: URL, from connections: [AVCaptureConnection]
    ) {
        lock.withLock { calls.append("pause") }
    }

    func fileOutput(
        _ output: AVCaptureFileOutput, didResumeRecordingTo fileURL: URL, from connections: [AVCaptureConnection]
    ) {
        lock.withLock { calls.append("resume") }
    }

    func fileOutput(
        _ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL, from connections: [AVCaptureConnection],
        error: Error?
    ) {
        // The file is complete by now: its size no longer changes.
        let recording = output.isRecording
        lock.withLock {
            calls.append("finish")
            finishError = error
            recordingWhenFinished = recording
        }
        done.signal()
    }

    /// Waits for `didFinishRecordingTo`; false on timeout.
    func waitForFinish(seconds: Double = 300) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}

/// A session with the default camera at a preset, optionally a microphone, and a movie file output.
final class MovieRig: @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCaptureMovieFileOutput()
    let camera: AVCaptureDevice

    init(preset: AVCaptureSession.Preset = .hd1920x1080, microphone: Bool = false) throws {
        camera = try #require(AVCaptureDevice.default(for: .video))
        session.beginConfiguration()
        session.sessionPreset = preset
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if microphone, let mic = AVCaptureDevice.default(for: .audio) {
            let audio = try AVCaptureDeviceInput(device: mic)
            if session.canAddInput(audio) { session.addInput(audio) }
        }
        if session.canAddOutput(output) { session.addOutput(output) }
        session.commitConfiguration()
    }

    /// The camera's frame rate, as the app would read it.
    var framesPerSecond: Double { 1 / camera.activeVideoMinFrameDuration.seconds }

    func use(_ codec: AVVideoCodecType) throws {
        let connection = try #require(output.connection(with: .video))
        output.setOutputSettings([AVVideoCodecKey: codec], for: connection)
    }

    /// Runs the session and records `name` in a new folder until the output's own limit ends the
    /// recording; returns what ffprobe reads of the file and the delegate's record. The folder goes.
    func recordToLimit(_ name: String) throws -> (probe: ProbedMovie, events: RecordingEvents) {
        let folder = try MovieSupport.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(name)
        let events = record(to: url)
        return (try ProbedMovie(url), events)
    }

    /// Runs the session and records to `url` until the output's own limit ends the recording, then stops the
    /// session; returns the delegate's record.
    @discardableResult
    func record(to url: URL) -> RecordingEvents {
        let events = RecordingEvents()
        session.startRunning()
        defer { session.stopRunning() }
        output.startRecording(to: url, recordingDelegate: events)
        #expect(events.waitForFinish())
        return events
    }
}

extension DropIn {
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct MovieFileOutputIdiomTests {
        /// Checks a finished clip against the API: one frame per frame duration, at the format's size.
        func expectClip(
            _ probe: ProbedMovie, codec: String, rig: MovieRig, seconds: Double,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let video = try #require(probe.video, sourceLocation: sourceLocation)
            let fps = rig.framesPerSecond
            let dimensions = CMVideoFormatDescriptionGetDimensions(rig.camera.activeFormat.formatDescription)
            #expect(video.codec == codec, sourceLocation: sourceLocation)
            #expect(
                video.width == Int(dimensions.width) && video.height == Int(dimensions.height),
                sourceLocation: sourceLocation)
            #expect(video.frameRate == "\(Int(fps.rounded()))/1", sourceLocation: sourceLocation)
            let duration = try #require(video.duration, sourceLocation: sourceLocation)
            #expect(abs(duration - seconds) <= 1 / fps + 1e-6, "duration \(duration)", sourceLocation: sourceLocation)
            #expect(video.frames == Int((seconds * fps).rounded()), sourceLocation: sourceLocation)
        }

        // spec §20 rules 6, 7: the limit stops the recording after exactly that much media; the
        // error says so and that the file is good, and the file is complete before the callback.
        @Test func maxRecordedDurationStopsAnH264Clip() throws {
            let rig = try MovieRig()
            try rig.use(.h264)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 1)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("clip.mov")
            let events = RecordingEvents()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            rig.output.startRecording(to: url, recordingDelegate: events)
            #expect(rig.output.isRecording)
            #expect(events.waitForFinish())
            #expect(events.events == ["start", "finish"])
            let error = try #require(events.error as? AVError)
            #expect(error.code == .maximumDurationReached)
            #expect(error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
            #expect((events.error as NSError?)?.code == AVError.Code.maximumDurationReached.rawValue)
            #expect(rig.output.recordedDuration == CMTime(value: 1, timescale: 1))
            // Nothing but the movie: the partial file was renamed, not left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["clip.mov"])
            let probe = try ProbedMovie(url)
            #expect(probe.streams.count == 1)
            try expectClip(probe, codec: "h264", rig: rig, seconds: 1)
        }

        // spec §20 rule 10: the connection's rotation (here the portrait turn a rotation coordinator gives
        // the back camera) is kept in the track matrix, as Apple documents for movie file outputs; the
        // stored pictures keep the sensor's landscape size.
        @Test func rotationIsKeptInTheTrackMatrix() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            try rig.use(.h264)
            let connection = try #require(rig.output.connection(with: .video))
            #expect(connection.isVideoRotationAngleSupported(90))
            connection.videoRotationAngle = 90
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
            let video = try #require(rig.recordToLimit("portrait.mov").probe.video)
            #expect(video.width == 1280 && video.height == 720)
            // A clockwise quarter turn is −90 in ffprobe's anticlockwise convention. The matrix is an
            // iPhone portrait recording's: (0, 1, −1, 0) and the picture moved right by the stored
            // height (16.16 fixed point; the last column 2.30, w = 1).
            #expect(video.rotation == -90)
            #expect(video.displayMatrix == [0, 65536, 0, -65536, 0, 0, 720 * 65536, 0, 1 << 30])
        }

        // spec §20 rule 15: the metadata items an app sets before recording travel in the movie as QuickTime
        // metadata, as a phone's location-tagged video carries them: a QuickTime item under its key, a common
        // one under its com.apple.quicktime counterpart; an item of another key space is left out.
        @Test func metadataItemsTravelWithTheMovie() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            try rig.use(.h264)
            let location = AVMutableMetadataItem()
            location.identifier = .quickTimeMetadataLocationISO6709
            location.value = "+48.8584+002.2945+035.000/" as NSString
            let title = AVMutableMetadataItem()
            title.keySpace = .common
            title.key = AVMetadataKey.commonKeyTitle.rawValue as NSString
            title.value = "Harbour at dusk" as NSString
            let userData = AVMutableMetadataItem()
            userData.keySpace = .quickTimeUserData
            userData.key = "©cmt" as NSString
            userData.value = "left out" as NSString
            #expect(title.identifier == .commonIdentifierTitle)
            #expect(location.keySpace == .quickTimeMetadata)
            #expect((location.key as? NSString) == AVMetadataKey.quickTimeMetadataKeyLocationISO6709.rawValue as NSString)
            rig.output.metadata = [location, title, userData]
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
            let tags = try rig.recordToLimit("tagged.mov").probe.formatTags
            #expect(tags["com.apple.quicktime.location.ISO6709"] == "+48.8584+002.2945+035.000/", "\(tags)")
            #expect(tags["com.apple.quicktime.title"] == "Harbour at dusk", "\(tags)")
            #expect(!tags.values.contains("left out"))
        }

        // spec §20 rule 10: without a rotation the track has no display matrix to turn it.
        @Test func unrotatedMovieHasNoTurn() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            try rig.use(.h264)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
            let video = try #require(rig.recordToLimit("landscape.mov").probe.video)
            #expect(video.rotation == nil && video.displayMatrix.isEmpty)
        }

        // spec §20 rule 13 (iOS 18): a paused recording writes nothing while the stream runs on; after
        // the resume the file continues where it stopped, video and audio alike, with no gap.
        @Test func pausedStretchIsLeftOutOfTheFile() throws {
            let rig = try MovieRig(preset: .hd1280x720, microphone: true)
            try rig.use(.h264)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("paused.mov")
            let events = RecordingEvents()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            #expect(!rig.output.isRecordingPaused)
            rig.output.startRecording(to: url, recordingDelegate: events)
            let frame = rig.camera.activeVideoMinFrameDuration.seconds
            /// Waits until the output has recorded at least `seconds`; false after a minute.
            func recorded(atLeast seconds: Double) -> Bool {
                let deadline = Date().addingTimeInterval(60)
                while rig.output.recordedDuration.seconds < seconds - 1e-9 {
                    if Date() > deadline { return false }
                    Thread.sleep(forTimeInterval: 0.005)
                }
                return true
            }
            #expect(recorded(atLeast: 0.5))
            rig.output.pauseRecording()
            #expect(rig.output.isRecordingPaused)
            let atPause = rig.output.recordedDuration
            // The stream runs on (its frames reach a video data output meanwhile) but none is written.
            let probeOutput = AVCaptureVideoDataOutput()
            let counter = FrameCounter()
            probeOutput.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "paused.frames"))
            rig.session.beginConfiguration()
            if rig.session.canAddOutput(probeOutput) { rig.session.addOutput(probeOutput) }
            rig.session.commitConfiguration()
            #expect((0..<15).allSatisfy { _ in counter.frames.wait(timeout: .now() + 60) == .success })
            #expect(rig.output.recordedDuration == atPause)
            rig.output.resumeRecording()
            #expect(!rig.output.isRecordingPaused)
            #expect(recorded(atLeast: atPause.seconds + 0.5))
            rig.output.stopRecording()
            #expect(events.waitForFinish())
            #expect(events.error == nil)
            #expect(events.events == ["start", "pause", "resume", "finish"])
            let written = rig.output.recordedDuration.seconds
            let probe = try ProbedMovie(url)
            let video = try #require(probe.video)
            // The file holds the recorded frames only: the paused stretch (15 frames or more) is absent.
            #expect(video.frames == Int((written / frame).rounded()))
            let duration = try #require(video.duration)
            #expect(abs(duration - written) <= frame + 1e-6, "video \(duration) s, recorded \(written) s")
            let audio = try #require(probe.audio)
            let audioDuration = try #require(audio.duration)
            // As for an unpaused clip, the audio covers the video to within two 1,024-sample buffers.
            #expect(abs(audioDuration - written) <= 2 * 2048.0 / 44_100, "audio \(audioDuration) s")
        }

        // spec §20 rules 6, 10: with a microphone the movie carries AAC audio alongside the video.
        @Test func microphoneAddsAnAACTrack() throws {
            let rig = try MovieRig(preset: .hd1280x720, microphone: true)
            #expect(rig.output.connection(with: .audio) != nil)
            try rig.use(.h264)
            rig.output.maxRecordedDuration = CMTime(value: 2, timescale: 1)
            let probe = try rig.recordToLimit("voice.mov").probe
            #expect(probe.streams.count == 2)
            try expectClip(probe, codec: "h264", rig: rig, seconds: 2)
            let audio = try #require(probe.audio)
            #expect(audio.codec == "aac")
            #expect(audio.sampleRate == 44_100 && audio.channels == 1)
            // The microphone's buffers and AAC's frames are 1,024 samples: the track covers the video and
            // ends within two of them (one of buffer granularity, one of the encoder's padding).
            let audioDuration = try #require(audio.duration)
            #expect(
                audioDuration >= 2 - 1e-6 && audioDuration <= 2 + 2048.0 / 44_100, "audio duration \(audioDuration)")
        }

        // spec §20 rule 2: audio settings as apps write them (plain integers, stereo, 48 kHz, a bit rate) are
        // taken, and the recording's AAC track has them.
        @Test func audioSettingsAsAppsWriteThemAreHonoured() throws {
            let rig = try MovieRig(preset: .hd1280x720, microphone: true)
            let connection = try #require(rig.output.connection(with: .audio))
            let settings: [String: Any] = [
                AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 48_000, AVNumberOfChannelsKey: 2,
                AVEncoderBitRateKey: 128_000,
            ]
            rig.output.setOutputSettings(settings, for: connection)
            let chosen = rig.output.outputSettings(for: connection)
            #expect((chosen[AVSampleRateKey] as? Int) == 48_000 && (chosen[AVNumberOfChannelsKey] as? Int) == 2)
            try rig.use(.h264)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 1)
            let audio = try #require(try rig.recordToLimit("stereo.mov").probe.audio)
            #expect(audio.codec == "aac" && audio.sampleRate == 48_000 && audio.channels == 2)
        }

        // spec §20 rule 6: stopRecording ends a clip without error; what the output reported as
        // recorded is what the file holds.
        @Test func stopRecordingFinishesTheFile() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            try rig.use(.h264)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("stopped.mp4")
            let events = RecordingEvents()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            rig.output.startRecording(to: url, recordingDelegate: events)
            #expect(rig.output.outputFileURL == url)
            let deadline = Date().addingTimeInterval(120)
            while rig.output.recordedDuration.seconds < 0.5, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            rig.output.stopRecording()
            #expect(events.waitForFinish())
            #expect(events.error == nil)
            #expect(events.events == ["start", "finish"])
            // isRecording turns false once didFinishRecordingTo has returned, not before.
            #expect(events.wasRecordingInFinish == true)
            let settled = Date().addingTimeInterval(10)
            while rig.output.isRecording, Date() < settled { Thread.sleep(forTimeInterval: 0.001) }
            #expect(!rig.output.isRecording)
            let seconds = rig.output.recordedDuration.seconds
            #expect(seconds >= 0.5)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64)
            #expect(rig.output.recordedFileSize == size)
            try expectClip(try ProbedMovie(url), codec: "h264", rig: rig, seconds: seconds)
        }

        // spec §20 rule 8: stopping the session ends the recording; the file is finished and good.
        @Test func stopRunningFinishesTheFile() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            try rig.use(.h264)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("interrupted.mov")
            let events = RecordingEvents()
            rig.session.startRunning()
            rig.output.startRecording(to: url, recordingDelegate: events)
            let deadline = Date().addingTimeInterval(120)
            while rig.output.recordedDuration.seconds < 0.3, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            rig.session.stopRunning()
            #expect(events.waitForFinish())
            #expect(events.events == ["start", "finish"])
            let error = try #require(events.error as? AVError)
            #expect(error.code == .sessionNotRunning)
            #expect(error.userInfo[AVErrorRecordingSuccessfullyFinishedKey] as? Bool == true)
            let seconds = try #require(error.userInfo[AVErrorTimeKey] as? CMTime).seconds
            #expect(seconds >= 0.3)
            try expectClip(try ProbedMovie(url), codec: "h264", rig: rig, seconds: seconds)
        }

        // spec §20 rule 2: HEVC is offered first, so it is the default; its QuickTime tag is hvc1.
        @Test func hevcIsTheDefaultCodec() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            let connection = try #require(rig.output.connection(with: .video))
            #expect(rig.output.availableVideoCodecTypes.first == .hevc)
            #expect(rig.output.outputSettings(for: connection)[AVVideoCodecKey] as? AVVideoCodecType == .hevc)
            rig.output.maxRecordedDuration = CMTime(value: 1, timescale: 2)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("hevc.mov")
            let events = RecordingEvents()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            rig.output.startRecording(to: url, recordingDelegate: events)
            #expect(events.waitForFinish())
            let probe = try ProbedMovie(url)
            try expectClip(probe, codec: "hevc", rig: rig, seconds: 0.5)
            #expect(probe.video?.tag == "hvc1")
        }

        // spec §20 rule 4: an existing file is never replaced; the recording fails without starting.
        @Test func existingFileFailsTheRecording() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("taken.mov")
            try Data("keep".utf8).write(to: url)
            let events = RecordingEvents()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            rig.output.startRecording(to: url, recordingDelegate: events)
            #expect(events.waitForFinish())
            #expect(events.events == ["finish"])
            #expect((events.error as? AVError)?.code == .fileAlreadyExists)
            #expect(try Data(contentsOf: url) == Data("keep".utf8))
        }

        // spec §20 rule 8: a session that is not running records nothing.
        @Test func recordingNeedsARunningSession() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("idle.mov")
            let events = RecordingEvents()
            rig.output.startRecording(to: url, recordingDelegate: events)
            #expect(events.waitForFinish())
            #expect(events.events == ["finish"])
            #expect((events.error as? AVError)?.code == .sessionNotRunning)
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
    }
}

