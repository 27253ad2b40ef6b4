import Foundation
import Obscura
import ObscuraAV
import Testing

/// The movie file output's contract violations (spec §20): each raises before anything is recorded.
@Suite struct AVCaptureMovieFileOutputTests {
    final class Silent: NSObject, AVCaptureFileOutputRecordingDelegate {
        func fileOutput(
            _ output: AVCaptureFileOutput, didFinishRecordingTo outputFileURL: URL,
            from connections: [AVCaptureConnection], error: Error?
        ) {}
    }

    /// A session with the default camera and a movie file output, not running.
    func rig() throws -> (AVCaptureSession, AVCaptureMovieFileOutput) {
        let session = AVCaptureSession()
        let output = AVCaptureMovieFileOutput()
        let device = try #require(AVCaptureDevice.default(for: .video))
        session.addInput(try AVCaptureDeviceInput(device: device))
        session.addOutput(output)
        return (session, output)
    }

    // spec §20 rule 1 [D].
    @Test func startRecordingNeedsAFileURL() throws {
        try onDevice {
            let (session, output) = try rig()
            defer { withExtendedLifetime(session) {} }
            let web = try #require(URL(string: "https://example.com/clip.mov"))
            expectException(.invalidArgumentException, "not a file URL") {
                output.startRecording(to: web, recordingDelegate: Silent())
            }
            #expect(!output.isRecording)
        }
    }

    // spec §20 rule 3 [O]: an output outside a session has no connection to record from.
    @Test func startRecordingNeedsAConnection() throws {
        let output = AVCaptureMovieFileOutput()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).mov")
        expectException(.invalidArgumentException, "No active/enabled connections") {
            output.startRecording(to: url, recordingDelegate: Silent())
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    // spec §20 rule 2 [D]: only offered codecs, and only keys the connection supports.
    @Test func outputSettingsRefuseWhatIsNotOffered() throws {
        try onDevice {
            let (session, output) = try rig()
            defer { withExtendedLifetime(session) {} }
            let connection = try #require(output.connection(with: .video))
            expectException(.invalidArgumentException, "AVVideoCodecKey") {
                output.setOutputSettings([AVVideoCodecKey: AVVideoCodecType.jpeg], for: connection)
            }
            expectException(.invalidArgumentException, "Unsupported output settings key") {
                output.setOutputSettings([AVVideoWidthKey: 640], for: connection)
            }
            for codec in output.availableVideoCodecTypes {
                expectNoException { output.setOutputSettings([AVVideoCodecKey: codec], for: connection) }
                #expect(output.outputSettings(for: connection)[AVVideoCodecKey] as? AVVideoCodecType == codec)
            }
            output.setOutputSettings(nil, for: connection)
            #expect(
                output.outputSettings(for: connection)[AVVideoCodecKey] as? AVVideoCodecType
                    == output.availableVideoCodecTypes.first ?? .h264)
        }
    }

    // spec §20 rule 2: audio values the writer can make are taken however they are spelled; others raise.
    @Test func audioSettingsTakeWhatTheWriterCanMake() throws {
        try onDevice {
            let session = AVCaptureSession()
            let output = AVCaptureMovieFileOutput()
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .video))))
            session.addInput(try AVCaptureDeviceInput(device: try #require(AVCaptureDevice.default(for: .audio))))
            session.addOutput(output)
            let connection = try #require(output.connection(with: .audio))
            let plain: [String: Any] = [
                AVFormatIDKey: kAudioFormatMPEG4AAC, AVSampleRateKey: 44100, AVNumberOfChannelsKey: 1,
            ]
            expectNoException { output.setOutputSettings(plain, for: connection) }
            let stereo: [String: Any] = [AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 2]
            expectNoException { output.setOutputSettings(stereo, for: connection) }
            #expect(output.outputSettings(for: connection)[AVNumberOfChannelsKey] as? Int == 2)
            expectException(.invalidArgumentException, "1 or 2 channels") {
                output.setOutputSettings([AVNumberOfChannelsKey: 6], for: connection)
            }
            expectException(.invalidArgumentException, "kHz") {
                output.setOutputSettings([AVSampleRateKey: 44_000], for: connection)
            }
            output.setOutputSettings(nil, for: connection)
            #expect(output.outputSettings(for: connection)[AVNumberOfChannelsKey] as? Int == 1)
        }
    }

    // spec §20 rules 7, 11 [D]: the limits' and fragments' defaults.
    @Test func defaults() {
        let output = AVCaptureMovieFileOutput()
        #expect(!output.maxRecordedDuration.isValid)
        #expect(output.maxRecordedFileSize == 0)
        #expect(output.movieFragmentInterval == CMTime(value: 10, timescale: 1))
        #expect(output.recordedDuration == .zero)
        #expect(!output.isRecording && output.outputFileURL == nil)
    }
}
