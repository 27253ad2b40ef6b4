import AVFoundation
import ExternalTools
import Foundation
import QuartzCore
import Testing

/// A camera written as Apple's 2024 camera sample writes it: the preview view gets the session, and
/// the capture service later finds its preview layer through the session's connections, stopping
/// when it is not there.
final class PreviewLookupCamera: @unchecked Sendable {
    let captureSession = AVCaptureSession()
    let preview = AVCaptureVideoPreviewLayer()

    /// The sample's lookup: the first connection that feeds a preview layer.
    var videoPreviewLayer: AVCaptureVideoPreviewLayer? {
        captureSession.connections.compactMap({ $0.videoPreviewLayer }).first
    }

    func configure() throws -> AVCaptureDeviceInput {
        preview.session = captureSession
        captureSession.beginConfiguration()
        defer { captureSession.commitConfiguration() }
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        let input = try AVCaptureDeviceInput(device: camera)
        if captureSession.canAddInput(input) { captureSession.addInput(input) }
        let photoOutput = AVCapturePhotoOutput()
        if captureSession.canAddOutput(photoOutput) { captureSession.addOutput(photoOutput) }
        return input
    }
}

extension DropIn {
    @Suite struct PreviewLayerLookupProgramTests {
        // spec §19.1 [D]: a preview layer's connection is one of the session's connections from when the
        // layer has the session and the session a camera, until either goes.
        @Test func thePreviewLayerIsFoundThroughTheSessionsConnections() throws {
            let camera = PreviewLookupCamera()
            #expect(camera.videoPreviewLayer == nil)
            let input = try camera.configure()
            let found = try #require(camera.videoPreviewLayer)
            #expect(found === camera.preview)
            let connection = try #require(camera.captureSession.connections.first { $0.videoPreviewLayer != nil })
            #expect(connection === camera.preview.connection)
            #expect(connection.output == nil)
            // The outputs' own connections are still only theirs.
            for output in camera.captureSession.outputs {
                #expect(!output.connections.contains { $0.videoPreviewLayer != nil })
            }
            // The rotation coordinator's usual client: the preview's connection can be turned.
            #expect(connection.isVideoRotationAngleSupported(90))

            camera.captureSession.beginConfiguration()
            camera.captureSession.removeInput(input)
            camera.captureSession.commitConfiguration()
            #expect(camera.videoPreviewLayer == nil)
            camera.captureSession.beginConfiguration()
            if camera.captureSession.canAddInput(input) { camera.captureSession.addInput(input) }
            camera.captureSession.commitConfiguration()
            #expect(camera.videoPreviewLayer === camera.preview)
            camera.preview.session = nil
            #expect(camera.videoPreviewLayer == nil)
        }
    }
}

/// The 2024 camera sample's movie path: a session at `.high` with the camera, the microphone, a photo
/// output and a movie file output, started on a queue of its own; each take starts, runs for a while
/// of wall time and stops, and the delegate hears of the end.
final class MovieTakeCamera: @unchecked Sendable {
    let session = AVCaptureSession()
    let movieOutput = AVCaptureMovieFileOutput()
    private let sessionQueue = DispatchQueue(label: "session queue")

    func configure() throws {
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .high
        guard let camera = AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back) else {
            throw CocoaError(.featureUnsupported)
        }
        let input = try AVCaptureDeviceInput(device: camera)
        if session.canAddInput(input) { session.addInput(input) }
        if let microphone = AVCaptureDevice.default(for: .audio) {
            let audio = try AVCaptureDeviceInput(device: microphone)
            if session.canAddInput(audio) { session.addInput(audio) }
        }
        let photoOutput = AVCapturePhotoOutput()
        if session.canAddOutput(photoOutput) { session.addOutput(photoOutput) }
        if session.canAddOutput(movieOutput) { session.addOutput(movieOutput) }
    }

    func start() {
        let started = DispatchSemaphore(value: 0)
        sessionQueue.async {
            self.session.startRunning()
            started.signal()
        }
        started.wait()
    }

    /// One take of `seconds` of wall time; the delegate's events and error.
    func take(to url: URL, seconds: Double) -> RecordingEvents {
        let events = RecordingEvents()
        movieOutput.startRecording(to: url, recordingDelegate: events)
        Thread.sleep(forTimeInterval: seconds)
        movieOutput.stopRecording()
        _ = events.waitForFinish(seconds: 120)
        return events
    }
}

extension DropIn {
    @Suite(.needs(.ffmpeg, .ffprobe))
    struct MovieTakeProgramTests {
        // spec §20: a recording holds the wall-clock time between startRecording and stopRecording, from
        // the first take on, whatever lead the free-running stream has.
        @Test func threeTakesEachHoldTheirWallTime() throws {
            let camera = MovieTakeCamera()
            try camera.configure()
            camera.start()
            defer { camera.session.stopRunning() }
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            for take in 1...3 {
                let url = folder.appendingPathComponent("take\(take).mov")
                let events = camera.take(to: url, seconds: 3)
                #expect(events.error == nil, "take \(take): \(String(describing: events.error))")
                #expect(events.events.first == "start" && events.events.last == "finish", "take \(take)")
                let video = try #require(try ProbedMovie(url).video, "take \(take)")
                let duration = try #require(video.duration)
                let fps = try #require(video.frameRate?.split(separator: "/").compactMap { Double($0) })
                let frame = fps[1] / fps[0]
                #expect(abs(duration - 3) <= frame + 0.05, "take \(take): \(duration) s")
            }
        }
    }
}
