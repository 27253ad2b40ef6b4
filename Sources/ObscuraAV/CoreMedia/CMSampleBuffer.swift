import Foundation

/// A timed media sample (`CMSampleBuffer`): an image buffer with its timing, format and attachments.
public final class CMSampleBuffer: @unchecked Sendable {
    /// The image and data buffers, or how to make them on first use (a photo's pixels are rendered
    /// only when a reader asks for them).
    private enum Content {
        case ready(image: CVImageBuffer?, data: CMBlockBuffer?)
        case deferred(() -> (image: CVImageBuffer?, data: CMBlockBuffer?))
    }
    private var content: Content
    private var contentNow: (image: CVImageBuffer?, data: CMBlockBuffer?) {
        lock.withLock {
            switch content {
            case .ready(let image, let data): return (image, data)
            case .deferred(let make):
                let made = make()
                content = .ready(image: made.image, data: made.data)
                return made
            }
        }
    }
    var imageBufferStorage: CVImageBuffer? { contentNow.image }
    let presentationTime: CMTime
    let sampleDuration: CMTime
    let format: CMFormatDescription?
    private let lock = NSLock()
    private var attachmentTable: [String: Any]
    /// Attachments made on first use (a photo's metadata, known once its pixels are rendered), merged under the
    /// ones set since.
    private var deferredAttachments: (() -> [String: Any])?
    /// The photo a photo sample buffer holds, for the data representations made from it.
    let photo: AVCapturePhoto?
    /// The output presentation time set explicitly, if any.
    private var outputTimeOverride: CMTime?

    /// Sets the output presentation time, or goes back to the default with an invalid time.
    func setOutputPresentationTime(_ time: CMTime) {
        lock.withLock { outputTimeOverride = time.isValid ? time : nil }
    }
    /// The sample's attachments (`CMSetAttachment`), such as the camera intrinsic matrix.
    var attachmentStorage: [String: Any] {
        get { lock.withLock { attachmentsNow() } }
        set {
            lock.withLock {
                _ = attachmentsNow()
                attachmentTable = newValue
            }
        }
    }
    /// The attachments, the deferred ones made now if not yet; called holding the lock.
    private func attachmentsNow() -> [String: Any] {
        if let make = deferredAttachments {
            deferredAttachments = nil
            attachmentTable = make().merging(attachmentTable) { _, set in set }
        }
        return attachmentTable
    }
    /// Audio samples or compressed image bytes; nil for uncompressed image samples.
    var dataBufferStorage: CMBlockBuffer? { contentNow.data }
    let sampleCount: Int

    init(
        imageBuffer: CVImageBuffer?, presentationTimeStamp: CMTime, duration: CMTime,
        formatDescription: CMFormatDescription?, attachments: [String: Any] = [:], dataBuffer: CMBlockBuffer? = nil,
        sampleCount: Int = 1
    ) {
        content = .ready(image: imageBuffer, data: dataBuffer)
        self.sampleCount = sampleCount
        presentationTime = presentationTimeStamp
        sampleDuration = duration
        format = formatDescription
        attachmentTable = attachments
        photo = nil
    }

    /// A sample whose image or data buffer, and attachments, are made on first use; `photo` is the photo it holds.
    init(
        presentationTimeStamp: CMTime, duration: CMTime, formatDescription: CMFormatDescription?,
        photo: AVCapturePhoto? = nil, attachments: (() -> [String: Any])? = nil,
        deferred: @escaping () -> (image: CVImageBuffer?, data: CMBlockBuffer?)
    ) {
        content = .deferred(deferred)
        sampleCount = 1
        presentationTime = presentationTimeStamp
        sampleDuration = duration
        format = formatDescription
        attachmentTable = [:]
        deferredAttachments = attachments
        self.photo = photo
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
    /// When the sample is to be decoded: invalid, as for every sample that needs no reordering
    /// (uncompressed frames, and photos, each coded alone).
    public var decodeTimeStamp: CMTime { .invalid }
    /// The presentation time after edits: the one `CMSampleBufferSetOutputPresentationTimeStamp` set, else the
    /// presentation time (no trimming or speed attachments are made here). A writer writes the sample at it.
    public var outputPresentationTimeStamp: CMTime { lock.withLock { outputTimeOverride } ?? presentationTime }

    /// The same sample (its buffers, format, attachments and sample count) at another time.
    func retimed(presentationTimeStamp: CMTime, duration: CMTime) -> CMSampleBuffer {
        let now = contentNow
        return CMSampleBuffer(
            imageBuffer: now.image, presentationTimeStamp: presentationTimeStamp, duration: duration,
            formatDescription: format, attachments: attachmentStorage, dataBuffer: now.data, sampleCount: sampleCount)
    }
}

/// `CMSampleBufferGetImageBuffer`.
public func CMSampleBufferGetImageBuffer(_ sbuf: CMSampleBuffer) -> CVImageBuffer? { sbuf.imageBufferStorage }
/// `CMSampleBufferGetPresentationTimeStamp`.
public func CMSampleBufferGetPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.presentationTime }
/// `CMSampleBufferGetDuration`.
public func CMSampleBufferGetDuration(_ sbuf: CMSampleBuffer) -> CMTime { sbuf.sampleDuration }
/// `CMSampleBufferGetFormatDescription`.
public func CMSampleBufferGetFormatDescription(_ sbuf: CMSampleBuffer) -> CMFormatDescription? { sbuf.format }

/// `CMSampleBufferGetOutputPresentationTimeStamp`: the time set by `CMSampleBufferSetOutputPresentationTimeStamp`,
/// else the presentation time.
public func CMSampleBufferGetOutputPresentationTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime {
    sbuf.outputPresentationTimeStamp
}

/// `CMSampleBufferSetOutputPresentationTimeStamp`: the time the sample is presented at after edits, which an asset
/// writer writes it at (recorders move a second session's samples onto the first's clock this way); an invalid
/// time goes back to the presentation time.
@discardableResult
public func CMSampleBufferSetOutputPresentationTimeStamp(
    _ sbuf: CMSampleBuffer, newValue outputPresentationTimeStamp: CMTime
) -> OSStatus {
    sbuf.setOutputPresentationTime(outputPresentationTimeStamp)
    return noErr
}
/// `CMSampleBufferGetDecodeTimeStamp`: invalid, as for every uncompressed sample.
public func CMSampleBufferGetDecodeTimeStamp(_ sbuf: CMSampleBuffer) -> CMTime { .invalid }
/// `CMSampleBufferIsValid`.
public func CMSampleBufferIsValid(_ sbuf: CMSampleBuffer) -> Bool { sbuf.isValid }
/// `CMSampleBufferDataIsReady`: every sample here is ready.
public func CMSampleBufferDataIsReady(_ sbuf: CMSampleBuffer) -> Bool { true }

/// `CMSampleTimingInfo`: a sample's duration and time stamps.
public struct CMSampleTimingInfo: Sendable, Hashable {
    public var duration: CMTime
    public var presentationTimeStamp: CMTime
    public var decodeTimeStamp: CMTime

    /// All invalid.
    public init() {
        duration = .invalid
        presentationTimeStamp = .invalid
        decodeTimeStamp = .invalid
    }

    public init(duration: CMTime, presentationTimeStamp: CMTime, decodeTimeStamp: CMTime) {
        self.duration = duration
        self.presentationTimeStamp = presentationTimeStamp
        self.decodeTimeStamp = decodeTimeStamp
    }
}

/// `kCMSampleBufferError_RequiredParameterMissing`.
public let kCMSampleBufferError_RequiredParameterMissing: OSStatus = -12731
/// `kCMSampleBufferError_InvalidMediaFormat`: the description does not match the image buffer.
public let kCMSampleBufferError_InvalidMediaFormat: OSStatus = -12743

/// `CMSampleBufferCreateReadyWithImageBuffer`: a sample wrapping `imageBuffer` with its timing. The format
/// description must match the buffer (`CMVideoFormatDescriptionMatchesImageBuffer`), else
/// `kCMSampleBufferError_InvalidMediaFormat` (spec §18.4 [D]).
@discardableResult
public func CMSampleBufferCreateReadyWithImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, formatDescription: CMVideoFormatDescription,
    sampleTiming: UnsafePointer<CMSampleTimingInfo>, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard CMVideoFormatDescriptionMatchesImageBuffer(formatDescription, imageBuffer: imageBuffer) else {
        return kCMSampleBufferError_InvalidMediaFormat
    }
    let timing = sampleTiming.pointee
    sampleBufferOut.pointee = CMSampleBuffer(
        imageBuffer: imageBuffer, presentationTimeStamp: timing.presentationTimeStamp, duration: timing.duration,
        formatDescription: formatDescription)
    return 0
}

/// `kCMSampleBufferError_SampleIndexOutOfRange`: the index lies outside the samples the buffer holds.
public let kCMSampleBufferError_SampleIndexOutOfRange: OSStatus = -12734
/// `kCMSampleBufferError_BufferHasNoSampleTimingInfo`: the buffer carries no timing. Every sample the capture
/// delivers or the functions here make has timing, so none returns it; it is named for code that compares against it.
public let kCMSampleBufferError_BufferHasNoSampleTimingInfo: OSStatus = -12736

/// `CMSampleBufferGetSampleTimingInfo`: the timing of sample `sampleIndex` (only 0 for an image sample; an audio
/// buffer's samples share its one entry). An index outside the samples returns
/// `kCMSampleBufferError_SampleIndexOutOfRange`, the code Core Media documents for it.
@discardableResult
public func CMSampleBufferGetSampleTimingInfo(
    _ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex, timingInfoOut: UnsafeMutablePointer<CMSampleTimingInfo>
) -> OSStatus {
    guard sampleIndex >= 0, sampleIndex < sbuf.sampleCount else { return kCMSampleBufferError_SampleIndexOutOfRange }
    timingInfoOut.pointee = CMSampleTimingInfo(
        duration: sbuf.sampleDuration, presentationTimeStamp: sbuf.presentationTime, decodeTimeStamp: .invalid)
    return 0
}

extension CMSampleBuffer {
    /// The overlay's `sampleTimingInfo(at:)`: `CMSampleBufferGetSampleTimingInfo`, throwing its status as an error
    /// of `NSOSStatusErrorDomain` (an index outside the samples: `kCMSampleBufferError_SampleIndexOutOfRange`).
    public func sampleTimingInfo(at sampleIndex: CMItemIndex) throws -> CMSampleTimingInfo {
        var timing = CMSampleTimingInfo()
        let status = CMSampleBufferGetSampleTimingInfo(self, at: sampleIndex, timingInfoOut: &timing)
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        return timing
    }

    /// The overlay's `sampleTimingInfos()`: the buffer's timing entries (`CMSampleBufferGetSampleTimingInfoArray`),
    /// one here.
    public func sampleTimingInfos() throws -> [CMSampleTimingInfo] {
        var count: CMItemCount = 0
        CMSampleBufferGetSampleTimingInfoArray(self, entryCount: 0, arrayToFill: nil, entriesNeededOut: &count)
        var entries = [CMSampleTimingInfo](repeating: CMSampleTimingInfo(), count: count)
        let status = entries.withUnsafeMutableBufferPointer { buffer in
            CMSampleBufferGetSampleTimingInfoArray(
                self, entryCount: count, arrayToFill: buffer.baseAddress, entriesNeededOut: nil)
        }
        guard status == noErr else { throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status)) }
        return entries
    }
}

/// `kCMSampleBufferError_ArrayTooSmall`: the array given holds fewer entries than there are.
public let kCMSampleBufferError_ArrayTooSmall: OSStatus = -12737

/// `CMSampleBufferGetSampleTimingInfoArray`: the sample's timing entries. A sample here has one, which all its
/// samples share (an audio buffer's duration is the whole buffer's). `entriesNeededOut` gets the number of entries;
/// with an array to fill that holds fewer, the answer is `kCMSampleBufferError_ArrayTooSmall`. Recorders that pause
/// read the timing this way and write the sample again later (`CMSampleBufferCreateCopyWithNewTiming`).
@discardableResult
public func CMSampleBufferGetSampleTimingInfoArray(
    _ sbuf: CMSampleBuffer, entryCount: CMItemCount, arrayToFill: UnsafeMutablePointer<CMSampleTimingInfo>?,
    entriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    entriesNeededOut?.pointee = 1
    guard let arrayToFill else { return noErr }
    guard entryCount >= 1 else { return kCMSampleBufferError_ArrayTooSmall }
    arrayToFill.pointee = CMSampleTimingInfo(
        duration: sbuf.sampleDuration, presentationTimeStamp: sbuf.presentationTime, decodeTimeStamp: .invalid)
    return noErr
}

/// `CMSampleBufferCreateCopyWithNewTiming`: the sample with new timing, sharing its buffers, format and
/// attachments. One entry times the whole sample; several (one per sample) start at the first's time and last their
/// durations' sum. No entry is `kCMSampleBufferError_RequiredParameterMissing`.
@discardableResult
public func CMSampleBufferCreateCopyWithNewTiming(
    allocator: CFAllocator?, sampleBuffer originalSBuf: CMSampleBuffer,
    sampleTimingEntryCount numSampleTimingEntries: CMItemCount,
    sampleTimingArray: UnsafePointer<CMSampleTimingInfo>?, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    guard numSampleTimingEntries >= 1, let sampleTimingArray else {
        return kCMSampleBufferError_RequiredParameterMissing
    }
    let entries = UnsafeBufferPointer(start: sampleTimingArray, count: numSampleTimingEntries)
    let duration = entries.dropFirst().reduce(entries[0].duration) { $0 + $1.duration }
    sampleBufferOut.pointee = originalSBuf.retimed(
        presentationTimeStamp: entries[0].presentationTimeStamp, duration: duration)
    return noErr
}

/// `CMItemIndex`.
public typealias CMItemIndex = Int
/// `CMItemCount`: a number of samples.
public typealias CMItemCount = Int
/// `CMAttachmentBearer`: a sample or image buffer.
public typealias CMAttachmentBearer = CFTypeRef
/// `CMAttachmentMode`: `kCMAttachmentMode_ShouldNotPropagate` (0) or `kCMAttachmentMode_ShouldPropagate` (1).
public typealias CMAttachmentMode = UInt32
/// `kCMAttachmentMode_ShouldNotPropagate`.
public let kCMAttachmentMode_ShouldNotPropagate: CMAttachmentMode = 0
/// `kCMAttachmentMode_ShouldPropagate`.
public let kCMAttachmentMode_ShouldPropagate: CMAttachmentMode = 1

/// `kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix` (spec §1.5): a `matrix_float3x3` as Data.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_CameraIntrinsicMatrix: CFString = "CameraIntrinsicMatrix"

/// `kCMSampleBufferAttachmentKey_DroppedFrameReason` (spec §21 rule 4): on a sample buffer handed to
/// `captureOutput(_:didDrop:from:)`, why the frame was dropped, one of the
/// `kCMSampleBufferDroppedFrameReason_…` strings.
nonisolated(unsafe) public let kCMSampleBufferAttachmentKey_DroppedFrameReason: CFString = "DroppedFrameReason"
/// `kCMSampleBufferDroppedFrameReason_FrameWasLate`: the frame came while the delegate's queue was busy.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReason_FrameWasLate: CFString = "FrameWasLate"
/// `kCMSampleBufferDroppedFrameReason_OutOfBuffers`: the client held on to too many buffers of the pool.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReason_OutOfBuffers: CFString = "OutOfBuffers"
/// `kCMSampleBufferDroppedFrameReason_Discontinuity`: the source lost an unknown number of frames.
nonisolated(unsafe) public let kCMSampleBufferDroppedFrameReason_Discontinuity: CFString = "Discontinuity"

/// `CMGetAttachment`: the attachment of a sample buffer or an image buffer, or nil.
public func CMGetAttachment(
    _ target: CMAttachmentBearer, key: CFString, attachmentModeOut: UnsafeMutablePointer<CMAttachmentMode>?
) -> CFTypeRef? {
    switch target {
    case let sample as CMSampleBuffer:
        guard let value = sample.attachmentStorage[key as String] else { return nil }
        attachmentModeOut?.pointee = kCMAttachmentMode_ShouldPropagate
        return value as AnyObject
    case let image as CVBuffer:
        var mode = CVAttachmentMode.shouldPropagate
        let value = CVBufferCopyAttachment(image, key, &mode)
        if value != nil { attachmentModeOut?.pointee = mode.rawValue }
        return value
    default:
        return nil
    }
}

/// `CMCopyDictionaryOfAttachments`: the attachments of one mode of a sample buffer or an image buffer, or nil when
/// it has none. A sample buffer's attachments all propagate; `allocator` is not used.
public func CMCopyDictionaryOfAttachments(
    allocator: CFAllocator?, target: CMAttachmentBearer, attachmentMode: CMAttachmentMode
) -> CFDictionary? {
    switch target {
    case let sample as CMSampleBuffer:
        let table = sample.attachmentStorage
        guard attachmentMode == kCMAttachmentMode_ShouldPropagate, !table.isEmpty else { return nil }
        return NSDictionary(dictionary: table)
    case let image as CVBuffer:
        return CVBufferCopyAttachments(image, CVAttachmentMode(rawValue: attachmentMode) ?? .shouldPropagate)
    default:
        return nil
    }
}

/// `CMSetAttachment`: attaches `value` to a sample buffer or an image buffer.
public func CMSetAttachment(
    _ target: CMAttachmentBearer, key: CFString, value: CFTypeRef?, attachmentMode: CMAttachmentMode
) {
    switch target {
    case let sample as CMSampleBuffer:
        sample.attachmentStorage[key as String] = value
    case let image as CVBuffer:
        if let value {
            CVBufferSetAttachment(image, key, value, CVAttachmentMode(rawValue: attachmentMode) ?? .shouldPropagate)
        } else {
            CVBufferRemoveAttachment(image, key)
        }
    default:
        break
    }
}

/// `CMRemoveAttachment`.
public func CMRemoveAttachment(_ target: CMAttachmentBearer, key: CFString) {
    CMSetAttachment(target, key: key, value: nil, attachmentMode: kCMAttachmentMode_ShouldNotPropagate)
}

/// `CMSampleBufferMakeDataReadyCallback`: makes a sample's data ready when it was created not ready. A C function
/// pointer on Apple's platforms; a Swift class cannot appear in one here, so it is a plain function type, which
/// the same `nil` or closure literal fills.
public typealias CMSampleBufferMakeDataReadyCallback = (CMSampleBuffer, UnsafeMutableRawPointer?) -> OSStatus

/// `CMSampleBufferCreateForImageBuffer`: as `CMSampleBufferCreateReadyWithImageBuffer`; an image buffer's
/// pixels are always ready here, so the callback is never needed and never called.
@discardableResult
public func CMSampleBufferCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer, dataReady: Bool,
    makeDataReadyCallback: CMSampleBufferMakeDataReadyCallback?, refcon: UnsafeMutableRawPointer?,
    formatDescription: CMVideoFormatDescription, sampleTiming: UnsafePointer<CMSampleTimingInfo>,
    sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    CMSampleBufferCreateReadyWithImageBuffer(
        allocator: allocator, imageBuffer: imageBuffer, formatDescription: formatDescription,
        sampleTiming: sampleTiming, sampleBufferOut: sampleBufferOut)
}
