import Foundation
import ObscuraAV

/// What the data outputs and the synchronizer delivered while a scenario streamed: one delegate
/// for every data output and for the synchronizer, recording each delivery with its virtual time.
final class StreamRecord: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, AVCaptureDepthDataOutputDelegate,
    AVCaptureAudioDataOutputSampleBufferDelegate, AVCaptureMetadataOutputObjectsDelegate,
    AVCaptureDataOutputSynchronizerDelegate, @unchecked Sendable
{
    /// One delivery: the output's scenario name, the kind of data, its time, and what it carried.
    struct Delivery: Sendable, Codable {
        /// `video`, `depth`, `audio`, `metadata` or `synchronizer`.
        let kind: String
        /// The output's scenario name (`synchronizer` for collections).
        let output: String
        let seconds: Double
        let dropped: Bool
        /// Video: the frame carries the camera intrinsic matrix attachment.
        var hasIntrinsicMatrix = false
        /// Depth: the map is filtered.
        var isFiltered = false
        /// Depth map or video frame size, `WxH`.
        var dimensions: String?
        /// Synchronizer: each output of the collection, `present` or `dropped` (absent ones left out).
        var collection: [String: String]?

        enum CodingKeys: String, CodingKey {
            case kind, output, seconds, dropped, hasIntrinsicMatrix = "has_intrinsic_matrix"
            case isFiltered = "is_filtered", dimensions, collection
        }
    }

    private let lock = NSLock()
    private var list: [Delivery] = []
    private var lastDepthMap: AVDepthData?
    private var names: [ObjectIdentifier: String] = [:]
    /// The delivery queue, one for every output: deliveries are recorded in order.
    let queue = DispatchQueue(label: "org.obscura.scenario.stream")

    var deliveries: [Delivery] { lock.withLock { list } }
    /// The newest delivered depth data, for saving.
    var lastDepth: AVDepthData? { lock.withLock { lastDepthMap } }

    /// Starts a step's record afresh.
    func reset() { lock.withLock { list = []; lastDepthMap = nil } }

    /// Tells the record the scenario name of an output.
    func name(_ output: AVCaptureOutput, _ name: String) { lock.withLock { names[ObjectIdentifier(output)] = name } }

    private func nameOf(_ output: AVCaptureOutput) -> String {
        lock.withLock { names[ObjectIdentifier(output)] ?? String(describing: type(of: output)) }
    }

    private func add(_ delivery: Delivery) { lock.withLock { list.append(delivery) } }

    private static func size(_ buffer: CVPixelBuffer) -> String {
        "\(CVPixelBufferGetWidth(buffer))x\(CVPixelBufferGetHeight(buffer))"
    }

    private func video(_ output: AVCaptureOutput, _ buffer: CMSampleBuffer, dropped: Bool) {
        let kind = output is AVCaptureAudioDataOutput ? "audio" : "video"
        var d = Delivery(kind: kind, output: nameOf(output), seconds: buffer.presentationTimeStamp.seconds, dropped: dropped)
        if kind == "video" {
            d.hasIntrinsicMatrix = CMGetAttachment(
                buffer, key: kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix, attachmentModeOut: nil) != nil
            d.dimensions = buffer.imageBuffer.map(Self.size)
        }
        add(d)
    }

    private func depth(_ output: AVCaptureOutput, _ data: AVDepthData, _ time: CMTime, dropped: Bool) {
        var d = Delivery(kind: "depth", output: nameOf(output), seconds: time.seconds, dropped: dropped)
        d.isFiltered = data.isDepthDataFiltered
        d.dimensions = Self.size(data.depthDataMap)
        add(d)
        if !dropped { lock.withLock { lastDepthMap = data } }
    }

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        video(output, sampleBuffer, dropped: false)
    }

    func captureOutput(_ output: AVCaptureOutput, didDrop sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        video(output, sampleBuffer, dropped: true)
    }

    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didOutput depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection
    ) {
        depth(output, depthData, timestamp, dropped: false)
    }

    func depthDataOutput(
        _ output: AVCaptureDepthDataOutput, didDrop depthData: AVDepthData, timestamp: CMTime,
        connection: AVCaptureConnection, reason: AVCaptureOutput.DataDroppedReason
    ) {
        depth(output, depthData, timestamp, dropped: true)
    }

    func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject],
        from connection: AVCaptureConnection
    ) {
        let time = metadataObjects.first?.time.seconds ?? .nan
        add(Delivery(kind: "metadata", output: nameOf(output), seconds: time, dropped: false))
    }

    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer,
        didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection
    ) {
        var shape: [String: String] = [:]
        var time = Double.nan
        for output in synchronizer.dataOutputs {
            guard let data = synchronizedDataCollection[output] else { continue }
            if time.isNaN { time = data.timestamp.seconds }
            var dropped = false
            switch data {
            case let v as AVCaptureSynchronizedSampleBufferData:
                dropped = v.sampleBufferWasDropped
                video(output, v.sampleBuffer, dropped: dropped)
            case let d as AVCaptureSynchronizedDepthData:
                dropped = d.depthDataWasDropped
                depth(output, d.depthData, d.timestamp, dropped: dropped)
            case is AVCaptureSynchronizedMetadataObjectData:
                add(Delivery(kind: "metadata", output: nameOf(output), seconds: data.timestamp.seconds, dropped: false))
            default: break
            }
            shape[nameOf(output)] = dropped ? "dropped" : "present"
        }
        var d = Delivery(kind: "synchronizer", output: "synchronizer", seconds: time, dropped: false)
        d.collection = shape
        add(d)
    }
}
