import Foundation

// Core Audio's format structures, as capture code reads them from an audio sample's format description
// (`CMAudioFormatDescriptionGetStreamBasicDescription`) and hands them to a writer (`AVChannelLayoutKey`). Field
// names, sizes and constants are Apple's (CoreAudioTypes.h), so the bytes of a layout mean the same here.

/// `AudioFormatID`: a four-character code such as `kAudioFormatLinearPCM`.
public typealias AudioFormatID = UInt32
/// `AudioFormatFlags`.
public typealias AudioFormatFlags = UInt32
/// `AudioChannelLayoutTag`: the channel count in the low 16 bits, the layout's kind above.
public typealias AudioChannelLayoutTag = UInt32
/// `AudioChannelBitmap`.
public typealias AudioChannelBitmap = UInt32
/// `AudioChannelLabel`.
public typealias AudioChannelLabel = UInt32
/// `AudioChannelFlags`.
public typealias AudioChannelFlags = UInt32

public let kAudioFormatFlagIsFloat: AudioFormatFlags = 1 << 0
public let kAudioFormatFlagIsBigEndian: AudioFormatFlags = 1 << 1
public let kAudioFormatFlagIsSignedInteger: AudioFormatFlags = 1 << 2
public let kAudioFormatFlagIsPacked: AudioFormatFlags = 1 << 3
public let kAudioFormatFlagIsNonInterleaved: AudioFormatFlags = 1 << 5
/// The linear PCM spelling of the same flags.
public let kLinearPCMFormatFlagIsSignedInteger = kAudioFormatFlagIsSignedInteger
public let kLinearPCMFormatFlagIsPacked = kAudioFormatFlagIsPacked
public let kLinearPCMFormatFlagIsFloat = kAudioFormatFlagIsFloat

/// The layout is described by its channel descriptions.
public let kAudioChannelLayoutTag_UseChannelDescriptions: AudioChannelLayoutTag = 0
/// The layout is described by its channel bitmap.
public let kAudioChannelLayoutTag_UseChannelBitmap: AudioChannelLayoutTag = 1 << 16
/// One channel.
public let kAudioChannelLayoutTag_Mono: AudioChannelLayoutTag = (100 << 16) | 1
/// Left and right.
public let kAudioChannelLayoutTag_Stereo: AudioChannelLayoutTag = (101 << 16) | 2

/// `AudioStreamBasicDescription`: how a stream's samples are laid out.
public struct AudioStreamBasicDescription: Sendable, Equatable {
    public var mSampleRate: Float64
    public var mFormatID: AudioFormatID
    public var mFormatFlags: AudioFormatFlags
    public var mBytesPerPacket: UInt32
    public var mFramesPerPacket: UInt32
    public var mBytesPerFrame: UInt32
    public var mChannelsPerFrame: UInt32
    public var mBitsPerChannel: UInt32
    public var mReserved: UInt32

    public init() {
        self.init(
            mSampleRate: 0, mFormatID: 0, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
            mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: 0, mReserved: 0)
    }

    public init(
        mSampleRate: Float64, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags, mBytesPerPacket: UInt32,
        mFramesPerPacket: UInt32, mBytesPerFrame: UInt32, mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32,
        mReserved: UInt32
    ) {
        (self.mSampleRate, self.mFormatID, self.mFormatFlags) = (mSampleRate, mFormatID, mFormatFlags)
        (self.mBytesPerPacket, self.mFramesPerPacket, self.mBytesPerFrame) =
            (mBytesPerPacket, mFramesPerPacket, mBytesPerFrame)
        (self.mChannelsPerFrame, self.mBitsPerChannel, self.mReserved) = (mChannelsPerFrame, mBitsPerChannel, mReserved)
    }
}

/// `AudioChannelDescription`: one channel's label and position.
public struct AudioChannelDescription: Sendable, Equatable {
    public var mChannelLabel: AudioChannelLabel
    public var mChannelFlags: AudioChannelFlags
    public var mCoordinates: (Float32, Float32, Float32)

    public init() { (mChannelLabel, mChannelFlags, mCoordinates) = (0, 0, (0, 0, 0)) }

    public static func == (a: Self, b: Self) -> Bool {
        a.mChannelLabel == b.mChannelLabel && a.mChannelFlags == b.mChannelFlags && a.mCoordinates == b.mCoordinates
    }
}

/// `AudioChannelLayout`: the channels' arrangement; variable length in C (`mNumberChannelDescriptions`
/// descriptions follow the header), here with room for the first, as Swift imports it.
public struct AudioChannelLayout: Sendable, Equatable {
    public var mChannelLayoutTag: AudioChannelLayoutTag
    public var mChannelBitmap: AudioChannelBitmap
    public var mNumberChannelDescriptions: UInt32
    public var mChannelDescriptions: (AudioChannelDescription)

    public init() {
        (mChannelLayoutTag, mChannelBitmap, mNumberChannelDescriptions) = (0, 0, 0)
        mChannelDescriptions = AudioChannelDescription()
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.mChannelLayoutTag == b.mChannelLayoutTag && a.mChannelBitmap == b.mChannelBitmap
            && a.mNumberChannelDescriptions == b.mNumberChannelDescriptions
            && a.mChannelDescriptions == b.mChannelDescriptions
    }

    /// The bytes of a layout with `descriptions` channel descriptions: the 12-byte header and 20 bytes each
    /// (`AudioChannelLayout`'s C size, `offsetof(mChannelDescriptions)` + n × `sizeof(AudioChannelDescription)`).
    package static func byteCount(descriptions: Int) -> Int { 12 + 20 * descriptions }

    /// The channel count a layout's bytes describe (the tag's low 16 bits, the bitmap's set bits, or the number of
    /// descriptions), or nil when they are too short to hold a layout.
    package static func channelCount(_ bytes: Data) -> Int? {
        guard bytes.count >= byteCount(descriptions: 0) else { return nil }
        func word(_ offset: Int) -> UInt32 {
            bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) }
        }
        let tag = word(0)
        switch tag {
        case kAudioChannelLayoutTag_UseChannelDescriptions: return Int(word(8))
        case kAudioChannelLayoutTag_UseChannelBitmap: return word(4).nonzeroBitCount
        default: return Int(tag & 0xFFFF)
        }
    }
}

/// Nanoseconds in a second (`NSEC_PER_SEC`, from Darwin's time headers), as capture code writes timescales.
public let NSEC_PER_SEC: UInt64 = 1_000_000_000
/// Nanoseconds in a millisecond (`NSEC_PER_MSEC`).
public let NSEC_PER_MSEC: UInt64 = 1_000_000
/// Nanoseconds in a microsecond (`NSEC_PER_USEC`).
public let NSEC_PER_USEC: UInt64 = 1_000
/// Microseconds in a second (`USEC_PER_SEC`).
public let USEC_PER_SEC: UInt64 = 1_000_000
