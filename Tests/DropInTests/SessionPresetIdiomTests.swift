import AVFoundation
import CoreMedia
import CoreVideo
import Foundation
import Testing

extension DropIn {
    /// The session presets apps set before adding a camera, as a phone takes them.
    @Suite struct SessionPresetIdiomTests {
        /// One frame through a video data output under `preset`: its buffer's size.
        func frameSize(_ preset: AVCaptureSession.Preset, camera: AVCaptureDevice) throws -> (Int, Int) {
            let session = AVCaptureSession()
            let output = AVCaptureVideoDataOutput()
            let counter = FrameCounter()
            output.setSampleBufferDelegate(counter, queue: DispatchQueue(label: "preset.frames"))
            session.beginConfiguration()
            #expect(session.canSetSessionPreset(preset))
            session.sessionPreset = preset
            let input = try AVCaptureDeviceInput(device: camera)
            #expect(session.canAddInput(input))
            session.addInput(input)
            session.addOutput(output)
            session.commitConfiguration()
            session.startRunning()
            defer { session.stopRunning() }
            #expect(counter.frames.wait(timeout: .now() + 60) == .success)
            let buffer = try #require(counter.last.flatMap(CMSampleBufferGetImageBuffer))
            return (CVPixelBufferGetWidth(buffer), CVPixelBufferGetHeight(buffer))
        }

        // spec §1.1 [D]: the quality presets and the small named sizes give frames of their size on the back camera.
        @Test func smallPresetsGiveFramesOfTheirSize() throws {
            let camera = try #require(AVCaptureDevice.default(.builtInWideAngleCamera, for: .video, position: .back))
            let expected: [(AVCaptureSession.Preset, Int, Int)] = [
                (.medium, 480, 360), (.low, 192, 144), (.cif352x288, 352, 288), (.iFrame960x540, 960, 540),
            ]
            for (preset, width, height) in expected {
                let size = try frameSize(preset, camera: camera)
                #expect(size == (width, height), "\(preset.rawValue)")
            }
        }

        // Apple's TrueDepth samples run the front depth camera at 1280x720 before adding it.
        @Test func trueDepthCameraTakesTheHDPreset() throws {
            let camera = try #require(
                AVCaptureDevice.default(.builtInTrueDepthCamera, for: .video, position: .front))
            #expect(camera.supportsSessionPreset(.hd1280x720) && camera.supportsSessionPreset(.hd1920x1080))
            let size = try frameSize(.hd1280x720, camera: camera)
            #expect(size == (1280, 720))
        }
    }
}
