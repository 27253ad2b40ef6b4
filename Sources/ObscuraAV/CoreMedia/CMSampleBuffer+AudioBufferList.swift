import Foundation

/// `kCMSampleBufferError_InvalidMediaTypeForOperation`: the sample holds no audio.
public let kCMSampleBufferError_InvalidMediaTypeForOperation: OSStatus = -12741
/// `kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment`: the samples start on a 16-byte boundary (always
/// so here).
public let kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment: UInt32 = 1 << 0

extension CMSampleBuffer {
    /// The overlay's `CMSampleBuffer.Flags`.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let audioBufferListAssure16ByteAlignment = Flags(
            rawValue: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment)
    }

    /// The audio sample's PCM as one interleaved buffer (the capture's 16-bit samples), or nil for a sample that
    /// is not audio.
    var audioBuffer: (block: CMBlockBuffer, channels: UInt32)? {
        guard let format, let stream = format.audio?.stream, let block = dataBufferStorage else { return nil }
        return (block, stream.pointee.mChannelsPerFrame)
    }

    /// The overlay's `withAudioBufferList`: `body` gets the sample's buffer list and the block buffer that holds
    /// its bytes, valid during the call. A sample that is not audio throws (`NSOSStatusErrorDomain`, the status
    /// the C call returns).
    public func withAudioBufferList<R>(
        blockBufferMemoryAllocator: CFAllocator? = kCFAllocatorDefault, flags: CMSampleBuffer.Flags = [],
        body: (UnsafeMutableAudioBufferListPointer, CMBlockBuffer) throws -> R
    ) throws -> R {
        let list = AudioBufferList.allocate(maximumBuffers: 1)
        defer { list.unsafeMutablePointer.deallocate() }
        var block: CMBlockBuffer?
        let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
            self, bufferListSizeNeededOut: nil, bufferListOut: list.unsafeMutablePointer,
            bufferListSize: AudioBufferList.sizeInBytes(maximumBuffers: 1), blockBufferAllocator: nil,
            blockBufferMemoryAllocator: blockBufferMemoryAllocator, flags: flags.rawValue, blockBufferOut: &block)
        guard status == noErr, let block else {
            throw NSError(domain: "NSOSStatusErrorDomain", code: Int(status))
        }
        return try body(list, block)
    }
}

/// `CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer`: the audio sample's PCM as a buffer list, and the
/// block buffer that holds the bytes its buffers point into (valid while that block buffer lives).
///
/// The capture's audio is interleaved, so the list holds one buffer: `bufferListSizeNeededOut` receives the size of
/// a one-buffer list, a smaller `bufferListSize` returns `kCMSampleBufferError_ArrayTooSmall` and a larger one is
/// taken, and a sample that is not audio returns `kCMSampleBufferError_InvalidMediaTypeForOperation`.
@discardableResult
public func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
    _ sbuf: CMSampleBuffer, bufferListSizeNeededOut: UnsafeMutablePointer<Int>?,
    bufferListOut: UnsafeMutablePointer<AudioBufferList>?, bufferListSize: Int, blockBufferAllocator: CFAllocator?,
    blockBufferMemoryAllocator: CFAllocator?, flags: UInt32, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>?
) -> OSStatus {
    guard let (block, channels) = sbuf.audioBuffer else { return kCMSampleBufferError_InvalidMediaTypeForOperation }
    let needed = AudioBufferList.sizeInBytes(maximumBuffers: 1)
    bufferListSizeNeededOut?.pointee = needed
    if let bufferListOut {
        guard bufferListSize >= needed else { return kCMSampleBufferError_ArrayTooSmall }
        let pinned = block.pinnedBytes
        bufferListOut.pointee = AudioBufferList(
            mNumberBuffers: 1,
            mBuffers: AudioBuffer(
                mNumberChannels: channels, mDataByteSize: UInt32(pinned.count), mData: pinned.baseAddress))
    }
    blockBufferOut?.pointee = block
    return noErr
}
