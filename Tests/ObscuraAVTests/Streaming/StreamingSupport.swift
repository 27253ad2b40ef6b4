import Obscura
import Foundation
import ObscuraAV
import Testing

/// Records every streaming callback, in order.
final class StreamRecorder: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureDepthDataOutputDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, AVCaptureMetadataOutputObjectsDelegate,
    AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable
{
    private let lock = NSLock()
    private var _video: [CMSampleBuffer] = []
    private var _videoDrops = 0
    private var _depth: [(AVDepthData, CMTime)] = []
    private var _depthDrops: [AVCaptureOutput.DataDroppedReason] = []
    private var _audio: [CMSampleBuffer] = []
    private var _metadata: [[AVMetadataObject]] = []
    private var _collections: [AVCaptureSynchronizedDataCollection] = []
    var sleep: TimeInterval = 0

    var video: [CMSampleBuffer] { lock.withLock { _video } }
    var videoDrops: Int { lock.withLock { _videoDrops } }
    var depth: [(AVDepthData, CMTime)] { lock.withLock { _depth } }
    var depthDrops: [AVCaptureOutput.DataDroppedReason] { lock.withLock { _depthDrops } }
    var audio: [CMSampleBuffer] { lock.withLock { _audio } }
    var metadata: [[AVMetadataObject]] { lock.withLock { _metadata } }
    var collections: [AVCaptureSynchronizedDataCollection] { lock.withLock { _collections } }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if output is AVCaptureAudioDataOutput {
            lock.withLock { _audio.append(sampleBuffer) }
        } else {
            lock.withLock { _video.append(sampleBuffer) }
            if sleep > 0 { Thread.sleep(forTimeInterval: sleep) }
        }
    }
    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        lock.withLock { _videoDrops += 1 }
    }
    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection
    ) {
        lock.withLock { _depth.append((depthData, timestamp)) }
        if sleep > 0 { Thread.sleep(forTimeInterval: sleep) }
    }
    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection, reason: AVCaptureOutput.DataDroppedReason
    ) {
        lock.withLock { _depthDrops.append(reason) }
    }
    func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection
    ) {
        lock.withLock { _metadata.append(metadataObjects) }
    }
    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer, didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection
    ) {
        lock.withLock { _collections.append(synchronizedDataCollection) }
    }
}

/// A dual-camera session (iPhone 7 Plus, `.photo`: 1440×1080 video at 30 fps, 320×240 depth).
struct StreamRig {
    let session = AVCaptureSession()
    let device: AVCaptureDevice
    let video = AVCaptureVideoDataOutput()
    let depth = AVCaptureDepthDataOutput()
    let audio = AVCaptureAudioDataOutput()
    let metadata = AVCaptureMetadataOutput()
    let queue = DispatchQueue(label: "stream-test")

    /// A rig on the task's world. The clock is manual unless `clock` says otherwise, so that
    /// `Emulator.run(for:)` gives exact frame counts.
    init(
        type: AVCaptureDevice.DeviceType = .builtInDualCamera, outputs: Set<String> = ["video", "depth"],
        clock: Emulator.ClockMode = .manual
    ) throws {
        Emulator.shared.clockMode = clock
        device = try #require(AVCaptureDevice.default(type, for: .video, position: .back))
        session.beginConfiguration()
        session.sessionPreset = .photo
        session.addInput(try AVCaptureDeviceInput(device: device))
        if outputs.contains("video") { session.addOutput(video) }
        if outputs.contains("depth") { session.addOutput(depth) }
        if outputs.contains("audio") {
            let microphone = try #require(AVCaptureDevice.default(for: .audio))
            session.addInput(try AVCaptureDeviceInput(device: microphone))
            session.addOutput(audio)
        }
        if outputs.contains("metadata") { session.addOutput(metadata) }
        session.commitConfiguration()
    }
}

extension StreamRig {
    /// The depth data of the first `frames` frames of an unfiltered depth stream on the current device (a depth-only
    /// rig, manual clock), in delivery order.
    static func unfilteredDepth(frames: Int) throws -> [AVDepthData] {
        let rig = try StreamRig(outputs: ["depth"])
        let recorder = StreamRecorder()
        rig.depth.isFilteringEnabled = false
        rig.depth.setDelegate(recorder, callbackQueue: rig.queue)
        rig.session.startRunning()
        defer { rig.session.stopRunning() }
        Emulator.shared.runFrames(frames)
        return recorder.depth.map(\.0)
    }
}
