import AVFoundation
import Foundation
import Testing

extension DropIn {
    /// Without FFmpeg's libraries the app sees a phone without movie hardware: no codec offered, no
    /// Live Photo, and a recording that ends with `AVError.encoderNotFound` naming what to install
    /// (spec §20 rule 5). These run where the libraries are absent; `.ci/run` hides them in a private
    /// mount namespace and runs this suite again.
    @Suite(.enabled(if: AVCaptureMovieFileOutput().availableVideoCodecTypes.isEmpty, "FFmpeg's libraries are present"))
    struct MovieCodecAbsenceTests {
        @Test func nothingIsOfferedAndLivePhotoIsUnsupported() throws {
            let session = AVCaptureSession()
            session.beginConfiguration()
            session.sessionPreset = .photo
            let camera = try #require(AVCaptureDevice.default(for: .video))
            let input = try AVCaptureDeviceInput(device: camera)
            if session.canAddInput(input) { session.addInput(input) }
            let photo = AVCapturePhotoOutput()
            if session.canAddOutput(photo) { session.addOutput(photo) }
            session.commitConfiguration()
            defer { withExtendedLifetime(session) {} }
            #expect(AVCaptureMovieFileOutput().availableVideoCodecTypes.isEmpty)
            #expect(!photo.isLivePhotoCaptureSupported)
        }

        @Test func recordingEndsWithEncoderNotFound() throws {
            let rig = try MovieRig(preset: .hd1280x720)
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("clip.mov")
            let events = RecordingEvents()
            rig.session.startRunning()
            defer { rig.session.stopRunning() }
            rig.output.startRecording(to: url, recordingDelegate: events)
            #expect(events.waitForFinish(seconds: 60))
            #expect((events.error as? AVError)?.code == .encoderNotFound)
            let reason = (events.error as NSError?)?.localizedFailureReason ?? ""
            #expect(reason.contains("libavcodec59"), "\(reason)")
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }

        // spec §23 rule 4: an asset writer takes its inputs, then fails to start, naming the packages.
        /// A movie cannot be read either: the asset is not playable, has no tracks, and loading says why.
        @Test func anAssetIsNotPlayable() async throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let url = folder.appendingPathComponent("clip.mov")
            try Data("not read".utf8).write(to: url)
            let asset = AVURLAsset(url: url)
            #expect(!asset.isPlayable && asset.tracks.isEmpty)
            do {
                _ = try await asset.load(.duration)
                Issue.record("loading succeeded without FFmpeg's libraries")
            } catch let error as AVError {
                #expect(error.code == .decodeFailed)
                #expect("\(error.userInfo[NSLocalizedFailureReasonErrorKey] ?? "")".contains("libavformat59"))
            }
        }

        @Test func assetWriterFailsToStartWithEncoderNotFound() throws {
            let folder = try MovieSupport.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let writer = try AVAssetWriter(outputURL: folder.appendingPathComponent("clip.mov"), fileType: .mov)
            let input = AVAssetWriterInput(
                mediaType: .video,
                outputSettings: [AVVideoCodecKey: AVVideoCodecType.h264, AVVideoWidthKey: 64, AVVideoHeightKey: 48])
            #expect(writer.canAdd(input))
            writer.add(input)
            #expect(!writer.startWriting())
            #expect(writer.status == .failed)
            #expect((writer.error as? AVError)?.code == .encoderNotFound)
            let reason = (writer.error as NSError?)?.localizedFailureReason ?? ""
            #expect(reason.contains("libavcodec59"), "\(reason)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }
}
