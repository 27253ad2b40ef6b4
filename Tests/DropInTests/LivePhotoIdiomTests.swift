import AVFoundation
import CoreMedia
import ExternalTools
import Foundation
import Testing

/// Records a photo request's callbacks, with the Live Photo movie's facts.
final class LivePhotoEvents: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [String] = []
    private var movie: (url: URL, duration: CMTime, displayTime: CMTime, error: Error?)?
    private var dimensions = CMVideoDimensions()
    private var stillMetadata: [String: Any] = [:]
    private let done = DispatchSemaphore(value: 0)

    var events: [String] { lock.withLock { calls } }
    var movieFacts: (url: URL, duration: CMTime, displayTime: CMTime, error: Error?)? { lock.withLock { movie } }
    var movieDimensions: CMVideoDimensions { lock.withLock { dimensions } }
    /// The still photo's metadata.
    var photoMetadata: [String: Any] { lock.withLock { stillMetadata } }

    private func note(_ event: String) { lock.withLock { calls.append(event) } }

    func photoOutput(
        _ output: AVCapturePhotoOutput, willBeginCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        lock.withLock {
            calls.append("willBeginCapture")
            dimensions = resolvedSettings.livePhotoMovieDimensions
        }
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, willCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        note("willCapturePhoto")
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didCapturePhotoFor resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        note("didCapturePhoto")
    }
    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: Error?) {
        lock.withLock {
            calls.append("didFinishProcessingPhoto")
            stillMetadata = photo.metadata
        }
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishRecordingLivePhotoMovieForEventualFileAt outputFileURL: URL,
        resolvedSettings: AVCaptureResolvedPhotoSettings
    ) {
        note("didFinishRecordingLivePhotoMovie")
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishProcessingLivePhotoToMovieFileAt outputFileURL: URL, duration: CMTime,
        photoDisplayTime: CMTime, resolvedSettings: AVCaptureResolvedPhotoSettings, error: Error?
    ) {
        lock.withLock {
            calls.append("didFinishProcessingLivePhotoToMovieFile")
            movie = (outputFileURL, duration, photoDisplayTime, error)
        }
    }
    func photoOutput(
        _ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings,
        error: Error?
    ) {
        note("didFinishCapture")
        done.signal()
    }

    func waitForFinish(seconds: Double = 300) -> Bool { done.wait(timeout: .now() + seconds) == .success }
}

/// A session under the `.photo` preset with the default camera and a photo output that has Live Photo
/// turned on where supported, configured as Apple's sample does.
final class LivePhotoRig: @unchecked Sendable {
    let session = AVCaptureSession()
    let output = AVCapturePhotoOutput()
    /// `isLivePhotoCaptureSupported` as read inside the configuration block, once both were added.
    let supportedWhileConfiguring: Bool

    init() throws {
        session.beginConfiguration()
        session.sessionPreset = .photo
        let camera = try #require(AVCaptureDevice.default(for: .video))
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if session.canAddOutput(output) { session.addOutput(output) }
        supportedWhileConfiguring = output.isLivePhotoCaptureSupported
        output.isLivePhotoCaptureEnabled = output.isLivePhotoCaptureSupported
        session.commitConfiguration()
    }
}

extension DropIn {
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct LivePhotoIdiomTests {
        // spec §6, §20 rule 12: Apple's sample turns Live Photo on when supported and gets a movie of
        // about 1.5 s each side of the photo, the movie callbacks after the photo's and before the end.
        @Test func livePhotoMovieSurroundsThePhoto() throws {
            let rig = try LivePhotoRig()
            try #require(rig.supportedWhileConfiguring)
            let (session, output) = (rig.session, rig.output)
            session.startRunning()
            defer { session.stopRunning() }

            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("live.mov")
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = url
            let events = LivePhotoEvents()
            output.capturePhoto(with: settings, delegate: events)
            #expect(events.waitForFinish())
            #expect(events.events == [
                "willBeginCapture", "willCapturePhoto", "didCapturePhoto", "didFinishProcessingPhoto",
                "didFinishRecordingLivePhotoMovie", "didFinishProcessingLivePhotoToMovieFile", "didFinishCapture",
            ])
            let movie = try #require(events.movieFacts)
            #expect(movie.error == nil)
            #expect(movie.url == url)
            #expect(abs(movie.duration.seconds - 3) < 1e-9)
            #expect(abs(movie.displayTime.seconds - 1.5) < 1e-9)

            let probe = try ProbedMovie(url)
            let video = try #require(probe.video)
            #expect(video.codec == "h264")
            let size = events.movieDimensions
            #expect(video.width == Int(size.width) && video.height == Int(size.height))
            #expect(events.movieDimensions.width > 0)
            let frameRate = try #require(video.frameRate?.split(separator: "/").compactMap { Double($0) })
            let fps = frameRate[0] / frameRate[1]
            let duration = try #require(video.duration)
            #expect(abs(duration - movie.duration.seconds) <= 1 / fps + 1e-6)
            #expect(video.frames == Int((movie.duration.seconds * fps).rounded()))
        }

        // spec §20 rule 12: the codecs come with H.264, the default, first, and the common idiom that asks for
        // HEVC where it is offered gets an HEVC movie; outside a session there are none.
        @Test func livePhotoMovieTakesTheCodecAsked() throws {
            #expect(AVCapturePhotoOutput().availableLivePhotoVideoCodecTypes.isEmpty)
            #expect(AVCapturePhotoSettings().livePhotoVideoCodecType == .h264)
            let rig = try LivePhotoRig()
            try #require(rig.supportedWhileConfiguring)
            let (session, output) = (rig.session, rig.output)
            #expect(output.availableLivePhotoVideoCodecTypes.first == .h264)
            #expect(output.isLivePhotoAutoTrimmingEnabled)
            session.startRunning()
            defer { session.stopRunning() }
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("live.mov")
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = url
            if output.availableLivePhotoVideoCodecTypes.contains(.hevc) {
                settings.livePhotoVideoCodecType = .hevc
            }
            #expect(AVCapturePhotoSettings(from: settings).livePhotoVideoCodecType == settings.livePhotoVideoCodecType)
            let events = LivePhotoEvents()
            output.capturePhoto(with: settings, delegate: events)
            #expect(events.waitForFinish())
            #expect(events.movieFacts?.error == nil)
            let video = try #require(try ProbedMovie(url).video)
            #expect(video.codec == (settings.livePhotoVideoCodecType == .hevc ? "hevc" : "h264"))
        }

        // spec §20 rule 12 [D]: the movie always carries a content identifier, and the still's maker note repeats
        // it (key 17), which is how the two halves of a Live Photo are paired; the app's own items ride along, and
        // an identifier the app gives is the one used.
        @Test func livePhotoMovieAndStillShareAContentIdentifier() async throws {
            let rig = try LivePhotoRig()
            try #require(rig.supportedWhileConfiguring)
            let (session, output) = (rig.session, rig.output)
            session.startRunning()
            defer { session.stopRunning() }
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }

            func take(_ name: String, metadata: [AVMetadataItem]?) async throws -> (still: String?, movie: [AVMetadataItem]) {
                let url = folder.appendingPathComponent(name)
                let settings = AVCapturePhotoSettings()
                settings.livePhotoMovieFileURL = url
                settings.livePhotoMovieMetadata = metadata
                let events = LivePhotoEvents()
                output.capturePhoto(with: settings, delegate: events)
                #expect(events.waitForFinish())
                #expect(events.movieFacts?.error == nil)
                let maker = events.photoMetadata[kCGImagePropertyMakerAppleDictionary as String] as? [String: Any]
                let movie = try await AVURLAsset(url: url).load(.metadata)
                return (maker?["17"] as? String, movie)
            }
            func identifiers(_ items: [AVMetadataItem]) -> [String] {
                AVMetadataItem.metadataItems(from: items, filteredByIdentifier: .quickTimeMetadataContentIdentifier)
                    .compactMap(\.stringValue)
            }

            #expect(AVCapturePhotoSettings().livePhotoMovieMetadata.isEmpty)
            let title = AVMutableMetadataItem()
            title.identifier = .quickTimeMetadataTitle
            title.value = "Garden" as NSString
            let first = try await take("first.mov", metadata: [title])
            let generated = try #require(first.still)
            #expect(identifiers(first.movie) == [generated])
            #expect(UUID(uuidString: generated) != nil)
            #expect(AVMetadataItem.metadataItems(from: first.movie, filteredByIdentifier: .quickTimeMetadataTitle)
                .first?.stringValue == "Garden")

            let second = try await take("second.mov", metadata: nil)
            #expect(second.still != nil && second.still != generated)

            let chosen = AVMutableMetadataItem()
            chosen.identifier = .quickTimeMetadataContentIdentifier
            chosen.value = "pair-7" as NSString
            let third = try await take("third.mov", metadata: [chosen])
            #expect(third.still == "pair-7")
            #expect(identifiers(third.movie) == ["pair-7"])
        }

        // A suspension the app set ends when the session stops, unless the app asked to keep it.
        @Test func stoppingTheSessionEndsASuspensionUnlessKept() throws {
            let rig = try LivePhotoRig()
            let (session, output) = (rig.session, rig.output)
            session.startRunning()
            output.isLivePhotoCaptureSuspended = true
            session.stopRunning()
            #expect(!output.isLivePhotoCaptureSuspended)
            output.preservesLivePhotoCaptureSuspendedOnSessionStop = true
            session.startRunning()
            output.isLivePhotoCaptureSuspended = true
            session.stopRunning()
            #expect(output.isLivePhotoCaptureSuspended)
        }

        // spec §20 rules 10, 12: the photo connection's rotation turns the Live Photo movie through its
        // track matrix, as it does a recording.
        @Test func livePhotoMovieKeepsThePhotoConnectionsRotation() throws {
            let rig = try LivePhotoRig()
            try #require(rig.supportedWhileConfiguring)
            let (session, output) = (rig.session, rig.output)
            let connection = try #require(output.connection(with: .video))
            connection.videoRotationAngle = 270
            session.startRunning()
            defer { session.stopRunning() }

            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("live-turned.mov")
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = url
            let events = LivePhotoEvents()
            output.capturePhoto(with: settings, delegate: events)
            #expect(events.waitForFinish())
            let video = try #require(ProbedMovie(url).video)
            // 270° clockwise is a quarter turn anticlockwise: ffprobe states it as 90.
            #expect(video.rotation == 90)
        }

        // spec §20 rule 4 [D]: the movie goes to its URL and nowhere else. Entries planted beside it
        // under names a writer might use for its temporary (a link to a file elsewhere, another
        // file's leftover) are neither followed, truncated nor removed.
        @Test func livePhotoMovieNeverWritesThroughPlantedNames() throws {
            let rig = try LivePhotoRig()
            try #require(rig.supportedWhileConfiguring)
            let (session, output) = (rig.session, rig.output)
            session.startRunning()
            defer { session.stopRunning() }

            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let elsewhere = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: elsewhere) }
            let victim = elsewhere.appendingPathComponent("victim.txt")
            try Data("keep me".utf8).write(to: victim)
            let fm = FileManager.default
            try fm.createSymbolicLink(
                atPath: folder.appendingPathComponent(".live.mov.partial").path, withDestinationPath: victim.path)
            try Data("leftover".utf8).write(to: folder.appendingPathComponent(".other.mov.partial"))

            let url = folder.appendingPathComponent("live.mov")
            let settings = AVCapturePhotoSettings()
            settings.livePhotoMovieFileURL = url
            let events = LivePhotoEvents()
            output.capturePhoto(with: settings, delegate: events)
            #expect(events.waitForFinish())
            #expect(events.movieFacts?.error == nil)
            #expect(try ProbedMovie(url).video != nil)
            #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
            #expect(try fm.contentsOfDirectory(atPath: folder.path).sorted()
                == [".live.mov.partial", ".other.mov.partial", "live.mov"])
        }

        // spec §3.1 [D]: a movie file output in the session rules Live Photo out.
        @Test func movieOutputRulesOutLivePhoto() throws {
            let rig = try MovieRig(preset: .photo)
            let photo = AVCapturePhotoOutput()
            if rig.session.canAddOutput(photo) { rig.session.addOutput(photo) }
            #expect(!photo.isLivePhotoCaptureSupported)
            rig.session.removeOutput(rig.output)
            #expect(photo.isLivePhotoCaptureSupported)
        }
    }
}
