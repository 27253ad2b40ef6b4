import Foundation

/// One channel of sound a connection carries (`AVCaptureAudioChannel`), with the levels a recording app's meter
/// shows: the mean power and the peak of the latest sound, in decibels relative to full scale.
///
/// The emulated microphone records mono, one channel, and what it hears is the capture API's test tone
/// (`AVCaptureAudioDataOutput`: 1 kHz at a quarter of full scale), so while the session runs the levels are the
/// tone's, measured on its samples: about −15.1 dB mean power (a sine's RMS is its amplitude over √2) and
/// −12.0 dB peak. While the session is stopped nothing is heard, and both read −160 dB, the floor Apple's audio
/// meters report for silence (our choice).
open class AVCaptureAudioChannel: NSObject, @unchecked Sendable {
    private weak var connection: AVCaptureConnection?

    init(connection: AVCaptureConnection) {
        self.connection = connection
        super.init()
    }

    /// The mean power of the latest sound, dB relative to full scale.
    open var averagePowerLevel: Float { hearing ? Self.tone.average : Self.silence }
    /// The highest level of the latest sound, dB relative to full scale.
    open var peakHoldLevel: Float { hearing ? Self.tone.peak : Self.silence }

    /// Whether the microphone is recording now: the connection's session runs.
    private var hearing: Bool {
        connection?.inputPorts.contains { $0.input.session?.isRunning == true } ?? false
    }

    static let silence: Float = -160

    /// The test tone's levels, measured on one buffer of its samples as a meter measures what it is given.
    static let tone: (average: Float, peak: Float) = {
        guard let bytes = AVCaptureAudioDataOutput.buffer(index: 0).dataBufferStorage?.bytes else {
            return (silence, silence)
        }
        let samples = bytes.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).map { Double(Int16(littleEndian: $0)) / Double(Int16.max) }
        }
        guard !samples.isEmpty else { return (silence, silence) }
        let power = samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)
        let peak = samples.map(abs).max() ?? 0
        return (Float(10 * log10(power)), Float(20 * log10(peak)))
    }()
}

extension AVCaptureConnection {
    /// The channels of sound the connection carries: one for a connection from the microphone (it records mono),
    /// none for one that carries pictures.
    public var audioChannels: [AVCaptureAudioChannel] {
        inputPorts.contains { $0.mediaType == .audio } ? [AVCaptureAudioChannel(connection: self)] : []
    }
}
