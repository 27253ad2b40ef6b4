import AVFoundation
import CoreImage

/// Records what a filter makes of the camera's frames, as apps with live looks do: each frame from a video data
/// output goes through Core Image into a buffer of the writer's pool, and an `AVAssetWriter` encodes it with the
/// microphone's sound beside it. The writer's session starts at the first frame's time.
public final class FilteredRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable
{
    public let session = AVCaptureSession()
    private let videoOutput = AVCaptureVideoDataOutput()
    private let audioOutput = AVCaptureAudioDataOutput()
    private let queue = DispatchQueue(label: "recorder.samples")
    private let context = CIContext()
    private let filterName: String

    // Touched on `queue` only.
    private var writer: AVAssetWriter?
    private var videoInput: AVAssetWriterInput?
    private var audioInput: AVAssetWriterInput?
    private var adaptor: AVAssetWriterInputPixelBufferAdaptor?
    private var sessionStarted = false
    private var framesLeft = 0
    private var finished: (@Sendable (AVAssetWriter) -> Void)?
    /// Frames written to the movie so far.
    public private(set) var framesWritten = 0

    /// A recorder whose frames go through the Core Image filter `filterName` (one with just an input image).
    public init(filterName: String = "CIPhotoEffectMono") {
        self.filterName = filterName
        super.init()
    }

    /// The back camera at 720p, and the microphone where there is one.
    public func configure() throws {
        guard let camera = AVCaptureDevice.default(for: .video) else { throw Camera.CameraError.noCamera }
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        session.sessionPreset = .hd1280x720
        let input = try AVCaptureDeviceInput(device: camera)
        guard session.canAddInput(input) else { throw Camera.CameraError.cannotAddInput }
        session.addInput(input)
        if let mic = AVCaptureDevice.default(for: .audio), let micInput = try? AVCaptureDeviceInput(device: mic),
            session.canAddInput(micInput)
        {
            session.addInput(micInput)
        }
        videoOutput.videoSettings = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA]
        videoOutput.setSampleBufferDelegate(self, queue: queue)
        if session.canAddOutput(videoOutput) { session.addOutput(videoOutput) }
        audioOutput.setSampleBufferDelegate(self, queue: queue)
        if session.canAddOutput(audioOutput) { session.addOutput(audioOutput) }
    }

    /// Records `frames` filtered frames to `url` (a QuickTime movie), then calls `completion` with the finished
    /// writer, whose `status` and `error` say how it went.
    public func record(to url: URL, frames: Int, completion: @escaping @Sendable (AVAssetWriter) -> Void) throws {
        let writer = try AVAssetWriter(outputURL: url, fileType: .mov)
        let video = AVAssetWriterInput(
            mediaType: .video, outputSettings: videoOutput.recommendedVideoSettingsForAssetWriter(writingTo: .mov))
        video.expectsMediaDataInRealTime = true
        let adaptor = AVAssetWriterInputPixelBufferAdaptor(
            assetWriterInput: video,
            sourcePixelBufferAttributes: [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA])
        if writer.canAdd(video) { writer.add(video) }
        var audio: AVAssetWriterInput?
        if let settings = audioOutput.recommendedAudioSettingsForAssetWriter(writingTo: .mov) {
            let input = AVAssetWriterInput(mediaType: .audio, outputSettings: settings)
            input.expectsMediaDataInRealTime = true
            if writer.canAdd(input) {
                writer.add(input)
                audio = input
            }
        }
        queue.sync {
            self.writer = writer
            videoInput = video
            audioInput = audio
            self.adaptor = adaptor
            sessionStarted = false
            framesLeft = frames
            framesWritten = 0
            finished = completion
            if !writer.startWriting() { finish() }
        }
    }

    public func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        guard let writer, writer.status == .writing, framesLeft > 0 else { return }
        let time = CMSampleBufferGetPresentationTimeStamp(sampleBuffer)
        if output is AVCaptureAudioDataOutput {
            if sessionStarted, let audioInput, audioInput.isReadyForMoreMediaData { _ = audioInput.append(sampleBuffer) }
            return
        }
        guard let frame = CMSampleBufferGetImageBuffer(sampleBuffer), let videoInput, let adaptor else { return }
        if !sessionStarted {
            writer.startSession(atSourceTime: time)
            sessionStarted = true
        }
        guard videoInput.isReadyForMoreMediaData, let pool = adaptor.pixelBufferPool,
            let filtered = CIImage(cvPixelBuffer: frame).applyingFilter(filterName, parameters: [:]) as CIImage?
        else { return }
        var target: CVPixelBuffer?
        guard CVPixelBufferPoolCreatePixelBuffer(kCFAllocatorDefault, pool, &target) == kCVReturnSuccess,
            let target
        else { return }
        context.render(filtered, to: target)
        guard adaptor.append(target, withPresentationTime: time) else { return finish() }
        framesWritten += 1
        framesLeft -= 1
        if framesLeft == 0 { finish() }
    }

    /// Finishes the movie and hands the writer over; on `queue`.
    private func finish() {
        guard let writer, let completion = finished else { return }
        finished = nil
        framesLeft = 0
        if writer.status != .writing { return completion(writer) }
        videoInput?.markAsFinished()
        audioInput?.markAsFinished()
        writer.finishWriting { completion(writer) }
    }
}
