import Foundation

/// One output's data for one time, inside a synchronized collection (spec §8 [D]).
open class AVCaptureSynchronizedData: NSObject, @unchecked Sendable {
    /// On the session's synchronization clock.
    public let timestamp: CMTime
    init(timestamp: CMTime) {
        self.timestamp = timestamp
        super.init()
    }
}

/// A video or audio sample in a collection. A dropped frame still appears, as a shell buffer
/// with format and timing (spec §8 [D]).
open class AVCaptureSynchronizedSampleBufferData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// Never nil; valid during the callback unless retained.
    public let sampleBuffer: CMSampleBuffer
    /// Whether the frame was dropped.
    public let sampleBufferWasDropped: Bool
    /// Why; `.none` when delivered.
    public let droppedReason: AVCaptureOutput.DataDroppedReason

    init(sampleBuffer: CMSampleBuffer, dropped reason: AVCaptureOutput.DataDroppedReason) {
        self.sampleBuffer = sampleBuffer
        sampleBufferWasDropped = reason != .none
        droppedReason = reason
        super.init(timestamp: sampleBuffer.presentationTimeStamp)
    }
}

/// A depth map in a collection; a dropped one is a shell with format and calibration (spec §8 [D]).
open class AVCaptureSynchronizedDepthData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// The depth data.
    public let depthData: AVDepthData
    /// Whether it was dropped.
    public let depthDataWasDropped: Bool
    /// Why; `.none` when delivered.
    public let droppedReason: AVCaptureOutput.DataDroppedReason

    init(depthData: AVDepthData, timestamp: CMTime, dropped reason: AVCaptureOutput.DataDroppedReason) {
        self.depthData = depthData
        depthDataWasDropped = reason != .none
        droppedReason = reason
        super.init(timestamp: timestamp)
    }
}

/// Detected objects in a collection; never nil, empty for none (spec §8 [D]).
open class AVCaptureSynchronizedMetadataObjectData: AVCaptureSynchronizedData, @unchecked Sendable {
    /// The objects.
    public let metadataObjects: [AVMetadataObject]

    init(metadataObjects: [AVMetadataObject], timestamp: CMTime) {
        self.metadataObjects = metadataObjects
        super.init(timestamp: timestamp)
    }
}
