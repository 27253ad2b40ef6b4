import Foundation

/// Receives audio buffers (`AVCaptureAudioDataOutputSampleBufferDelegate`); optional.
public protocol AVCaptureAudioDataOutputSampleBufferDelegate: NSObjectProtocol {
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection)
}

extension AVCaptureAudioDataOutputSampleBufferDelegate {
    public func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {}
}

/// Delivers audio as buffers of 1,024 samples of 16-bit mono linear PCM at 44.1 kHz
/// (Testing on Linux, “Control the clock”) carrying a synthetic tone: a 1 kHz sine at a quarter of full scale
/// (−12 dBFS), continuous across buffers.
///
/// It connects to the audio port of the microphone's input (`AVCaptureDevice.default(for: .audio)`);
/// without one it has no connection and receives nothing, as on a device. Audio never reports
/// drops (spec §8 [D]).
open class AVCaptureAudioDataOutput: AVCaptureOutput, @unchecked Sendable {
    /// Samples per buffer and per second.
    static let samplesPerBuffer = 1024
    static let sampleRate = 44_100
    /// The tone's frequency (Hz) and amplitude (fraction of full scale).
    static let toneFrequency = 1000.0
    static let toneAmplitude = 0.25

    private let lock = NSLock()
    private weak var delegateObject: AnyObject?
    private var queue: DispatchQueue?
    weak var synchronizer: AVCaptureDataOutputSynchronizer?

    public override init() { super.init() }

    /// Sets the delegate and its serial queue; a delegate without a queue raises.
    open func setSampleBufferDelegate(
        _ sampleBufferDelegate: AVCaptureAudioDataOutputSampleBufferDelegate?, queue sampleBufferCallbackQueue: DispatchQueue?
    ) {
        if sampleBufferDelegate != nil, sampleBufferCallbackQueue == nil {
            Violation.delegateWithoutQueue("-[AVCaptureAudioDataOutput setSampleBufferDelegate:queue:]").raise()
        }
        lock.withLock {
            delegateObject = sampleBufferDelegate
            queue = sampleBufferCallbackQueue
        }
    }

    /// Audio settings for an asset writer of `outputFileType` that keep the microphone's sound as it
    /// is: AAC, mono, 44.1 kHz, 64 kbit/s, for QuickTime and MPEG-4 movies; nil for other file types
    /// (Capture rules §23 rule 3).
    public func recommendedAudioSettingsForAssetWriter(writingTo outputFileType: AVFileType) -> [String: Any]? {
        guard [.mov, .mp4, .m4v].contains(outputFileType) else { return nil }
        return [
            AVFormatIDKey: kAudioFormatMPEG4AAC, AVNumberOfChannelsKey: 1,
            AVSampleRateKey: Double(Self.sampleRate), AVEncoderBitRateKey: 64_000,
        ]
    }

    /// The delegate, held weakly.
    public var sampleBufferDelegate: AVCaptureAudioDataOutputSampleBufferDelegate? {
        lock.withLock { delegateObject as? AVCaptureAudioDataOutputSampleBufferDelegate }
    }

    /// The delegate's queue.
    public var sampleBufferCallbackQueue: DispatchQueue? { lock.withLock { queue } }

    var target: (delegate: AVCaptureAudioDataOutputSampleBufferDelegate, queue: DispatchQueue)? {
        lock.withLock {
            guard let d = delegateObject as? AVCaptureAudioDataOutputSampleBufferDelegate, let queue else { return nil }
            return (d, queue)
        }
    }

    /// The microphone's stream as its buffers describe it: one channel of 16-bit signed, packed, little-endian
    /// linear PCM at `sampleRate`, with a mono channel layout.
    static var streamDescription: CMFormatDescription {
        let stream = AudioStreamBasicDescription(
            mSampleRate: Float64(sampleRate), mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsPacked, mBytesPerPacket: 2,
            mFramesPerPacket: 1, mBytesPerFrame: 2, mChannelsPerFrame: 1, mBitsPerChannel: 16, mReserved: 0)
        var layout = Data(count: AudioChannelLayout.byteCount(descriptions: 0))
        layout.withUnsafeMutableBytes {
            $0.storeBytes(of: kAudioChannelLayoutTag_Mono, toByteOffset: 0, as: UInt32.self)
        }
        return CMFormatDescription(audio: stream, layout: layout)
    }

    /// Buffer `index` of the stream: its samples, timed from the start of the stream.
    static func buffer(index: Int) -> CMSampleBuffer {
        let first = index * samplesPerBuffer
        var bytes = Data(capacity: samplesPerBuffer * 2)
        for n in first..<(first + samplesPerBuffer) {
            let v = toneAmplitude * sin(2 * Double.pi * toneFrequency * Double(n) / Double(sampleRate))
            let s = Int16((v * Double(Int16.max)).rounded())
            withUnsafeBytes(of: s.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return CMSampleBuffer(
            imageBuffer: nil, presentationTimeStamp: CMTime(value: Int64(first), timescale: Int32(sampleRate)),
            duration: CMTime(value: Int64(samplesPerBuffer), timescale: Int32(sampleRate)),
            formatDescription: streamDescription,
            dataBuffer: CMBlockBuffer(bytes: bytes), sampleCount: samplesPerBuffer)
    }

    override func accepts(_ mediaType: AVMediaType) -> Bool { mediaType == .audio }

    override func sessionDidResolve(device: AVCaptureDevice?, preset: AVCaptureSession.Preset) {
        if let session { StreamEngine.shared.register(session) }
    }
}
