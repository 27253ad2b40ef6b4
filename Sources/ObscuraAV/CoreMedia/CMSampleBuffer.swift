/// A timed media sample (`CMSampleBuffer`): an image buffer with its timing, format and attachments.
public final class CMSampleBuffer: @unchecked Sendable {
    let imageBufferStorage: CVImageBuffer?
    let presentationTime: CMTime
    let sampleDuration: CMTime
    let format: CMFormatDescription?
    let attachmentStorage: [String: Any]
    /// Audio samples (CMSampleBuffer+Audio.swift); nil for image samples.
    let dataBufferStorage: CMBlockBuffer?
    let sampleCount: Int

    init(
        imageBuffer: CVImageBuffer?, presentationTimeStamp: CMTime, duration: CMTime,
        formatDescription: CMFormatDescription?, attachments: [String: Any] = [:], dataBuffer: CMBlockBuffer? = nil,
        sampleCount: Int = 1
    ) {
        dataBufferStorage = dataBuffer
        self.sampleCount = sampleCount
        imageBufferStorage = imageBuffer
        presentationTime = presentationTimeStamp
        sampleDuration = duration
        format = formatDescription
        attachmentStorage = attachments
    }

    /// The image, if the sample carries one.
    public var imageBuffer: CVImageBuffer? { imageBufferStorage }
    /// When the sample is to be presented, on the session's clock.
    public var presentationTimeStamp: CMTime { presentationTime }
    /// How long the sample lasts.
    public var duration: CMTime { sampleDuration }
    /// The sample's format.
    public var formatDescription: CMFormatDescription? { format }
    /// Whether the sample holds valid data.
    public var isValid: Bool { true }
}

/// `CMSampleBufferGetImageBuffer`.
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? { sbuf.imageBufferStorage }
/// `CMSampleBufferGetPresentationTimeStamp`.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTime }
/// `CMSampleBufferGetDuration`.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.sampleDuration }
/// `CMSampleBufferGetFormatDescription`.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { sbuf.format }

/// `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix` (spec §1.5): a `matrix_float3x3` as Data.
public let kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix = "CameraIntrinsicMatrix"

/// `CMGetAttachment` for the sample's attachments.
public func CMGetAttachment(
    _ target: CMSampleBuffer, key: String, attachmentModeOut: UnsafeMutablePointer<UInt32>?
) -> Any? {
    target.attachmentStorage[key]
}
