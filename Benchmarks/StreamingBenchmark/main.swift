import Obscura
import Foundation
import ObscuraAV

/// 10 s of virtual time on the iPhone 7 Plus dual camera: 1440×1080 video at 30 fps, 320×240
/// depth (15 fps), audio and metadata through a data output synchronizer. Prints video frames
/// per wall-clock second.
final class Sink: NSObject, AVCaptureDataOutputSynchronizerDelegate, AVCaptureAudioDataOutputSampleBufferDelegate,
    @unchecked Sendable
{
    var collections = 0
    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection
    ) { collections += 1 }
}

do {
    try Emulator.shared.use(device: "iphone-7-plus")
    guard let device = AVCaptureDevice.default(.builtInDualCamera, for: .video, position: .back) else {
        fatalError("no dual camera")
    }
    let session = AVCaptureSession()
    let video = AVCaptureVideoDataOutput(), depth = AVCaptureDepthDataOutput(), audio = AVCaptureAudioDataOutput()
    let metadata = AVCaptureMetadataOutput()
    session.beginConfiguration()
    session.sessionPreset = .photo
    session.addInput(try AVCaptureDeviceInput(device: device))
    for output in [video, depth, audio, metadata] as [AVCaptureOutput] { session.addOutput(output) }
    session.commitConfiguration()
    metadata.metadataObjectTypes = [.salientObject]
    let sink = Sink()
    let queue = DispatchQueue(label: "bench")
    let sync = AVCaptureDataOutputSynchronizer(dataOutputs: [video, depth, audio, metadata])
    sync.setDelegate(sink, queue: queue)
    session.startRunning()
    let start = Date()
    Emulator.shared.run(for: CMTime(value: 10, timescale: 1))
    let seconds = Date().timeIntervalSince(start)
    print(String(format: "300 frames in %.3f s wall: %.1f frames/s (%.1fx real time), %d collections",
        seconds, 300 / seconds, 10 / seconds, sink.collections))
} catch {
    print("error: \(error)")
    exit(1)
}
