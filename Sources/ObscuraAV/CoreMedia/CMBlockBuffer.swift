import Foundation

/// A block of media bytes (`CMBlockBuffer`), here the 16-bit PCM of an audio sample buffer.
public final class CMBlockBuffer: @unchecked Sendable {
    let bytes: Data

    init(bytes: Data) { self.bytes = bytes }

    /// The number of bytes.
    public var dataLength: Int { bytes.count }
}

/// `OSStatus`: 0 for success.
public typealias OSStatus = Int32
/// `noErr`: the status of success.
public let noErr: OSStatus = 0

/// `kCMMediaType_Audio` (`'soun'`).
public let kCMMediaType_Audio: CMMediaType = 0x736F_756E
/// `kAudioFormatLinearPCM` (`'lpcm'`), the subtype of uncompressed audio.
public let kAudioFormatLinearPCM: FourCharCode = 0x6C70_636D

/// `CMBlockBufferGetDataLength`.
public func CMBlockBufferGetDataLength(_ theBuffer: CMBlockBuffer) -> Int { theBuffer.bytes.count }

/// `CMBlockBufferCopyDataBytes`: copies `dataLength` bytes from `offsetToData`.
@discardableResult
public func CMBlockBufferCopyDataBytes(
    _ theSourceBuffer: CMBlockBuffer, atOffset offsetToData: Int, dataLength: Int,
    destination: UnsafeMutableRawPointer
) -> OSStatus {
    guard offsetToData >= 0, dataLength >= 0, offsetToData + dataLength <= theSourceBuffer.bytes.count else {
        return -12781  // kCMBlockBufferBadLengthParameterErr
    }
    theSourceBuffer.bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        destination.copyMemory(from: base + offsetToData, byteCount: dataLength)
    }
    return 0
}

/// `CMSampleBufferGetDataBuffer`: the bytes of an audio sample buffer; nil for images.
public func CMSampleBufferGetDataBuffer(_ sbuf: CMSampleBuffer) -> CMBlockBuffer? { sbuf.dataBufferStorage }

/// `CMSampleBufferGetNumSamples`: audio frames in an audio buffer, 1 for a video frame.
public func CMSampleBufferGetNumSamples(_ sbuf: CMSampleBuffer) -> Int { sbuf.sampleCount }

extension CMSampleBuffer {
    /// The Swift overlay's `numSamples`.
    public var numSamples: Int { sampleCount }
    /// The Swift overlay's `dataBuffer`.
    public var dataBuffer: CMBlockBuffer? { dataBufferStorage }
}
