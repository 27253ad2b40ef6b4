import Foundation

/// `kCMSampleBufferError_BufferHasNoSampleSizes`: the sample holds no sized samples (an image buffer's).
public let kCMSampleBufferError_BufferHasNoSampleSizes: OSStatus = -12735

/// `CMSampleBufferCreateCopy`: a shallow copy, as Core Media makes one: the same image and data buffers and format
/// description, the same timing, and the attachments as they are now (later changes to either sample's attachments
/// do not reach the other). `allocator` is not used.
@discardableResult
public func CMSampleBufferCreateCopy(
    allocator: CFAllocator?, sampleBuffer sbuf: CMSampleBuffer, sampleBufferOut: UnsafeMutablePointer<CMSampleBuffer?>
) -> OSStatus {
    sampleBufferOut.pointee = sbuf.retimed(presentationTimeStamp: sbuf.presentationTime, duration: sbuf.sampleDuration)
    return noErr
}

/// `CMSampleBufferGetTotalSampleSize`: the bytes of the sample's data buffer (an audio sample's PCM); 0 for a sample
/// holding an image buffer, whose samples have no size.
public func CMSampleBufferGetTotalSampleSize(_ sbuf: CMSampleBuffer) -> Int {
    CMSampleBufferGetDataBuffer(sbuf).map(CMBlockBufferGetDataLength) ?? 0
}

/// `CMSampleBufferGetSampleSize`: the bytes of sample `sampleIndex` (an audio frame's, the same for every frame);
/// 0 for an index outside the sample or a sample without sized samples.
public func CMSampleBufferGetSampleSize(_ sbuf: CMSampleBuffer, at sampleIndex: CMItemIndex) -> Int {
    guard sampleIndex >= 0, sampleIndex < sbuf.sampleCount, sbuf.sampleCount > 0 else { return 0 }
    return CMSampleBufferGetTotalSampleSize(sbuf) / sbuf.sampleCount
}

/// `CMSampleBufferGetSampleSizeArray`: the samples' sizes. Samples of one size (an audio sample's frames) give one
/// entry; a sample without sized samples (an image) is `kCMSampleBufferError_BufferHasNoSampleSizes` with no entries
/// needed; an array shorter than needed is `kCMSampleBufferError_ArrayTooSmall`. With no array, only the count
/// needed is given.
@discardableResult
public func CMSampleBufferGetSampleSizeArray(
    _ sbuf: CMSampleBuffer, entryCount: CMItemCount, arrayToFill: UnsafeMutablePointer<Int>?,
    entriesNeededOut: UnsafeMutablePointer<CMItemCount>?
) -> OSStatus {
    let size = CMSampleBufferGetSampleSize(sbuf, at: 0)
    guard size > 0 else {
        entriesNeededOut?.pointee = 0
        return kCMSampleBufferError_BufferHasNoSampleSizes
    }
    entriesNeededOut?.pointee = 1
    guard let arrayToFill else { return noErr }
    guard entryCount >= 1 else { return kCMSampleBufferError_ArrayTooSmall }
    arrayToFill.pointee = size
    return noErr
}

/// `CMPropagateAttachments`: copies the attachments of `source` that propagate onto `destination` (sample or image
/// buffers, in either direction), replacing the destination's values under the same keys. A sample buffer's
/// attachments all propagate.
public func CMPropagateAttachments(_ source: CMAttachmentBearer, destination: CMAttachmentBearer) {
    guard
        let table = CMCopyDictionaryOfAttachments(
            allocator: nil, target: source, attachmentMode: kCMAttachmentMode_ShouldPropagate) as? [String: Any]
    else { return }
    for (key, value) in table {
        CMSetAttachment(
            destination, key: key as CFString, value: value as AnyObject,
            attachmentMode: kCMAttachmentMode_ShouldPropagate)
    }
}
