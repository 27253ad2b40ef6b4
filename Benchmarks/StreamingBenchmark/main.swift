import AVFoundation
import Foundation

/// Free-running streaming throughput, measured the way an app receives frames: no Obscura call.
/// The device comes from `OBSCURA_DEVICE` (the script sets the iPhone 7 Plus): its dual camera gives
/// 1440×1080 video at 30 fps and 320×240 depth, with the microphone's audio and a synchronizer.
/// The program starts the session, waits on a semaphore for 300 synchronized collections (10 s of
/// stream time) that hold a video frame, stops, and prints video frames per wall-clock second and the multiple of real time.
final class Sink: NSObject, AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable {
    let target: Int
    let done = DispatchSemaphore(value: 0)
    private(set) var videoFrames = 0
    private(set) var depthFrames = 0
    private(set) var audioBuffers = 0
    weak var video: AVCaptureVideoDataOutput?
    weak var depth: AVCaptureDepthDataOutput?
    weak var audio: AVCaptureAudioDataOutput?

    init(target: Int) { self.target = target }

    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput collection: AVCaptureSynchronizedDataCollection
    ) {
        // Audio buffers that fall between video frames come in collections of their own.
        if let audio, collection.synchronizedData(for: audio) != nil { audioBuffers += 1 }
        guard let video, collection.synchronizedData(for: video) != nil else { return }
        videoFrames += 1
        if let depth, collection.synchronizedData(for: depth) != nil { depthFrames += 1 }
        if videoFrames == target { done.signal() }
    }
}

let frames = 300
guard let camera = AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back),
    let microphone = AVCaptureDevice.default(for: .audio)
else {
    print("error: the device needs a dual camera (set OBSCURA_DEVICE=iphone-7-plus)")
    exit(1)
}
let session = AVCaptureSession()
let video = AVCaptureVideoDataOutput()
let depth = AVCaptureDepthDataOutput()
let audio = AVCaptureAudioDataOutput()
do {
    session.beginConfiguration()
    session.sessionPreset = .photo
    session.addInput(try AVCaptureDeviceInput(device: camera))
    session.addInput(try AVCaptureDeviceInput(device: microphone))
    for output in [video, depth, audio] as [AVCaptureOutput] where session.canAddOutput(output) {
        session.addOutput(output)
    }
    session.commitConfiguration()
} catch {
    print("error: \(error)")
    exit(1)
}
let sink = Sink(target: frames)
sink.video = video
sink.depth = depth
sink.audio = audio
let sync = AVCaptureDataOutputSynchronizer(dataOutputs: [video, depth, audio])
sync.setDelegate(sink, queue: DispatchQueue(label: "bench"))
let start = Date()
session.startRunning()
guard sink.done.wait(timeout: .now() + 600) == .success else {
    print("error: \(sink.videoFrames) of \(frames) frames after 600 s")
    exit(1)
}
let seconds = Date().timeIntervalSince(start)
session.stopRunning()
var usage = rusage()
getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
let d = CMVideoFormatDescriptionGetDimensions(camera.activeFormat.formatDescription)
print(
    String(
        format: "%dx%d video: %d frames in %.3f s wall: %.1f frames/s (%.1fx real time); %d with depth, %d collections with audio; peak RSS %d MB",
        d.width, d.height, frames, seconds, Double(frames) / seconds, Double(frames) / 30 / seconds, sink.depthFrames,
        sink.audioBuffers, usage.ru_maxrss / 1024))
