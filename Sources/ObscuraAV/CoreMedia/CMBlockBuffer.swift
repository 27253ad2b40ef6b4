import Foundation

/// A block of media bytes (`CMBlockBuffer`): the 16-bit PCM of an audio sample buffer, or a photo's compressed bytes.
public final class CMBlockBuffer: @unchecked Sendable {
    let bytes: Data
    private let lock = NSLock()
    /// A copy of `bytes` at an address that stays put while the block buffer lives, made when a caller first asks
    /// for a pointer (`CMBlockBufferGetDataPointer`, an audio buffer list): `Data` keeps no address of its own.
    private var pinned: UnsafeMutableRawBufferPointer?

    init(bytes: Data) { self.bytes = bytes }

    deinit { pinned?.deallocate() }

    /// The number of bytes.
    public var dataLength: Int { bytes.count }

    /// The bytes at a fixed address, 16-byte aligned, valid while the block buffer lives.
    var pinnedBytes: UnsafeMutableRawBufferPointer {
        lock.withLock {
            let storage = pinned ?? {
                let made = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
                bytes.copyBytes(to: made)
                pinned = made
                return made
            }()
            return UnsafeMutableRawBufferPointer(rebasing: storage[0..<bytes.count])
        }
    }

    /// The Swift overlay's `dataBytes()`: a copy of the bytes.
    public func dataBytes() throws -> Data { bytes }
}

/// `kCMBlockBufferNoErr`.
public let kCMBlockBufferNoErr: OSStatus = 0
/// `kCMBlockBufferBadOffsetParameterErr`: an offset outside the buffer.
public let kCMBlockBufferBadOffsetParameterErr: OSStatus = -12703
/// `kCMBlockBufferBadLengthParameterErr`: a length reaching past the buffer.
public let kCMBlockBufferBadLengthParameterErr: OSStatus = -12704
/// `kCMBlockBufferEmptyBBufErr`: the buffer holds no bytes.
public let kCMBlockBufferEmptyBBufErr: OSStatus = -12706

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
        return kCMBlockBufferBadLengthParameterErr
    }
    theSourceBuffer.bytes.withUnsafeBytes { raw in
        guard let base = raw.baseAddress else { return }
        destination.copyMemory(from: base + offsetToData, byteCount: dataLength)
    }
    return 0
}

/// `CMBlockBufferGetDataPointer`: the address of the byte at `offset`, with the bytes from there on and the buffer's
/// whole length. The bytes lie at one address, so the length at the offset is all that follows it. An offset outside
/// the buffer returns `kCMBlockBufferBadOffsetParameterErr`, an empty buffer `kCMBlockBufferEmptyBBufErr`.
@discardableResult
public func CMBlockBufferGetDataPointer(
    _ theBuffer: CMBlockBuffer, atOffset offset: Int, lengthAtOffsetOut: UnsafeMutablePointer<Int>?,
    totalLengthOut: UnsafeMutablePointer<Int>?, dataPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<Int8>?>?
) -> OSStatus {
    let total = theBuffer.bytes.count
    guard total > 0 else { return kCMBlockBufferEmptyBBufErr }
    guard offset >= 0, offset < total else { return kCMBlockBufferBadOffsetParameterErr }
    lengthAtOffsetOut?.pointee = total - offset
    totalLengthOut?.pointee = total
    if let dataPointerOut, let base = theBuffer.pinnedBytes.baseAddress {
        dataPointerOut.pointee = (base + offset).assumingMemoryBound(to: Int8.self)
    }
    return kCMBlockBufferNoErr
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
