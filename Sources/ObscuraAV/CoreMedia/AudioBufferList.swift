import Foundation

// Core Audio's buffer list, as capture code reads an audio sample buffer's PCM through it
// (`CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer`, or the Swift overlay's `withAudioBufferList`). The
// structures have the C layout of CoreAudioTypes.h: a count, then that many buffers, of which the declaration holds
// the first.

/// `AudioBuffer`: one buffer of samples, interleaved over `mNumberChannels` channels.
public struct AudioBuffer: @unchecked Sendable {
    public var mNumberChannels: UInt32
    public var mDataByteSize: UInt32
    public var mData: UnsafeMutableRawPointer?

    public init() { self.init(mNumberChannels: 0, mDataByteSize: 0, mData: nil) }

    public init(mNumberChannels: UInt32, mDataByteSize: UInt32, mData: UnsafeMutableRawPointer?) {
        (self.mNumberChannels, self.mDataByteSize, self.mData) = (mNumberChannels, mDataByteSize, mData)
    }
}

/// `AudioBufferList`: `mNumberBuffers` buffers laid out one after another from `mBuffers`, which holds the first.
public struct AudioBufferList: @unchecked Sendable {
    public var mNumberBuffers: UInt32
    public var mBuffers: AudioBuffer

    public init() { self.init(mNumberBuffers: 0, mBuffers: AudioBuffer()) }

    public init(mNumberBuffers: UInt32, mBuffers: AudioBuffer) {
        (self.mNumberBuffers, self.mBuffers) = (mNumberBuffers, mBuffers)
    }

    /// The bytes a list of `maximumBuffers` buffers takes (the overlay's `sizeInBytes(maximumBuffers:)`).
    public static func sizeInBytes(maximumBuffers: Int) -> Int {
        precondition(maximumBuffers >= 1, "AudioBufferList must contain at least one AudioBuffer")
        return MemoryLayout<AudioBufferList>.size + (maximumBuffers - 1) * MemoryLayout<AudioBuffer>.stride
    }

    /// A zeroed list with room for `maximumBuffers` buffers, its count set to that; the caller frees it
    /// (`unsafeMutablePointer.deallocate()` or `free`).
    public static func allocate(maximumBuffers: Int) -> UnsafeMutableAudioBufferListPointer {
        let bytes = sizeInBytes(maximumBuffers: maximumBuffers)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<AudioBufferList>.alignment)
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        let list = UnsafeMutableAudioBufferListPointer(raw.assumingMemoryBound(to: AudioBufferList.self))
        list.count = maximumBuffers
        return list
    }
}

/// The overlay's `UnsafeMutableAudioBufferListPointer`: an `AudioBufferList` seen as a collection of its buffers.
public struct UnsafeMutableAudioBufferListPointer: MutableCollection, RandomAccessCollection {
    public let unsafeMutablePointer: UnsafeMutablePointer<AudioBufferList>

    public init(_ p: UnsafeMutablePointer<AudioBufferList>) { unsafeMutablePointer = p }

    public init?(_ p: UnsafeMutablePointer<AudioBufferList>?) {
        guard let p else { return nil }
        self.init(p)
    }

    public var unsafePointer: UnsafePointer<AudioBufferList> { UnsafePointer(unsafeMutablePointer) }

    /// The number of buffers (`mNumberBuffers`).
    public var count: Int {
        get { Int(unsafeMutablePointer.pointee.mNumberBuffers) }
        nonmutating set { unsafeMutablePointer.pointee.mNumberBuffers = UInt32(newValue) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The buffers start where the declaration's `mBuffers` does.
    private var buffers: UnsafeMutablePointer<AudioBuffer> {
        let offset = MemoryLayout<AudioBufferList>.offset(of: \.mBuffers) ?? MemoryLayout<UInt64>.size
        return (UnsafeMutableRawPointer(unsafeMutablePointer) + offset).assumingMemoryBound(to: AudioBuffer.self)
    }

    public subscript(index: Int) -> AudioBuffer {
        get {
            precondition(index >= 0 && index < count, "audio buffer index out of range")
            return buffers[index]
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "audio buffer index out of range")
            buffers[index] = newValue
        }
    }
}
