import Foundation

/// One track of an asset writer's movie (`AVAssetWriterInput`): video frames, or the microphone's
/// audio (Capture rules §23).
///
/// Samples are encoded as they are appended, so the input is ready for more whenever its writer is
/// writing and it has not been marked finished.
open class AVAssetWriterInput: NSObject, @unchecked Sendable {
    /// `.video` or `.audio`.
    public let mediaType: AVMediaType
    /// How the track is encoded (rule 3); nil for the defaults.
    public let outputSettings: [String: Any]?
    /// What the app said its samples would look like.
    public let sourceFormatHint: CMFormatDescription?

    private let lock = NSLock()
    private weak var owner: AVAssetWriter?
    private var finished = false
    private var realTime = false
    private var displayTransform = CGAffineTransform.identity
    private var pull: (queue: DispatchQueue, block: @Sendable () -> Void)?
    /// Whether a call of the pull block is queued or running: one at a time, however often it is asked for.
    private var pulling = false
    private var appendedSincePull = false

    /// An input of `mediaType` encoded with `outputSettings`.
    public init(mediaType: AVMediaType, outputSettings: [String: Any]?, sourceFormatHint: CMFormatDescription?) {
        self.mediaType = mediaType
        self.outputSettings = outputSettings
        self.sourceFormatHint = sourceFormatHint
        super.init()
    }

    /// An input of `mediaType` encoded with `outputSettings`.
    public convenience init(mediaType: AVMediaType, outputSettings: [String: Any]?) {
        self.init(mediaType: mediaType, outputSettings: outputSettings, sourceFormatHint: nil)
    }

    /// Whether samples come from a live source such as the camera. Encoding keeps up by taking the
    /// time it needs in `append`, so this changes nothing here.
    open var expectsMediaDataInRealTime: Bool {
        get { lock.withLock { realTime } }
        set { lock.withLock { realTime = newValue } }
    }

    /// How players turn the track: a multiple of 90 degrees is kept in the track header's matrix;
    /// any other transform is not written (rule 3).
    open var transform: CGAffineTransform {
        get { lock.withLock { displayTransform } }
        set { lock.withLock { displayTransform = newValue } }
    }

    /// Whether `append` takes a sample now: while the writer writes and until `markAsFinished()`.
    open var isReadyForMoreMediaData: Bool {
        let (writer, done) = lock.withLock { (owner, finished) }
        return !done && (writer?.isWriting ?? false)
    }

    /// Appends a video frame (its image buffer) or an audio buffer (its 16-bit mono samples).
    /// False when the input is not ready, or when the sample cannot be written, which fails the
    /// writer with the reason in its `error`. Before the writer's session starts it raises
    /// `NSInternalInconsistencyException` (rule 5).
    open func append(_ sampleBuffer: CMSampleBuffer) -> Bool {
        let selector = "-[AVAssetWriterInput appendSampleBuffer:]"
        // At its output presentation time: the presentation time unless the app moved it.
        let time = sampleBuffer.outputPresentationTimeStamp
        if mediaType == .video {
            return encode(selector) { movie throws(MovieWriter.Failure) in
                guard let image = sampleBuffer.imageBuffer else {
                    throw MovieWriter.Failure(unavailable: false, description: "a video sample buffer has no image")
                }
                try movie.appendPicture(image, at: time)
            }
        }
        return encode(selector) { movie throws(MovieWriter.Failure) in
            try movie.appendAudio(Self.monoSamples(sampleBuffer), at: time)
        }
    }

    /// Mono 16-bit samples at the microphone's rate starting at `time`, as an export hands over the sound it has
    /// mixed down (`AVAssetExportSession`).
    func appendMonoSamples(_ samples: [Int16], at time: CMTime) -> Bool {
        encode("-[AVAssetWriterInput appendSampleBuffer:]") { movie throws(MovieWriter.Failure) in
            try movie.appendAudio(samples, at: time)
        }
    }

    /// A pixel buffer appended through an adaptor.
    func appendPixelBuffer(_ buffer: CVPixelBuffer, at time: CMTime) -> Bool {
        encode("-[AVAssetWriterInputPixelBufferAdaptor appendPixelBuffer:withPresentationTime:]") {
            movie throws(MovieWriter.Failure) in try movie.appendPicture(buffer, at: time)
        }
    }

    private func encode(_ selector: String, _ body: (AssetWriterMovie) throws(MovieWriter.Failure) -> Void) -> Bool {
        let (writer, done) = lock.withLock { (owner, finished) }
        guard !done, let writer else { return false }
        let appended = writer.encode(selector, body)
        if appended { lock.withLock { appendedSincePull = true } }
        return appended
    }

    /// No more samples come: the track ends with the last one appended.
    open func markAsFinished() {
        lock.withLock {
            finished = true
            pull = nil
        }
    }

    /// Calls `block` on `queue` whenever the input is ready for more, until it is marked finished
    /// or the writer stops. The block appends while `isReadyForMoreMediaData` is true; since
    /// samples are encoded as they are appended, the input is ready again as soon as the block
    /// returns, and it is called again after a millisecond's pause when it appended nothing.
    open func requestMediaDataWhenReady(on queue: DispatchQueue, using block: @escaping @Sendable () -> Void) {
        let writer = lock.withLock {
            pull = (queue, block)
            return owner
        }
        if writer?.isWriting ?? false { schedulePull(after: 0) }
    }

    /// Queues a call of the pull block unless one is queued or running already.
    private func schedulePull(after seconds: Double) {
        let queue: DispatchQueue? = lock.withLock {
            guard let pull, !pulling else { return nil }
            pulling = true
            return pull.queue
        }
        queue.map { pullLoop(on: $0, after: seconds) }
    }

    /// Calls the block, then queues the next call while the input is ready and asked for more.
    private func pullLoop(on queue: DispatchQueue, after seconds: Double) {
        queue.asyncAfter(deadline: .now() + seconds) { [self] in
            let ready = isReadyForMoreMediaData
            let block: (@Sendable () -> Void)? = lock.withLock {
                guard ready, let pull else {
                    pulling = false
                    return nil
                }
                appendedSincePull = false
                return pull.block
            }
            guard let block else { return }
            block()
            let appended = lock.withLock { appendedSincePull }
            pullLoop(on: queue, after: appended ? 0 : 0.001)
        }
    }

    // MARK: - What the writer calls

    var writer: AVAssetWriter? {
        get { lock.withLock { owner } }
        set { lock.withLock { owner = newValue } }
    }

    func writerDidStart() { schedulePull(after: 0) }

    func writerDidStop() { lock.withLock { pull = nil } }

    /// The 16-bit mono samples of an audio sample buffer, the microphone's format.
    private static func monoSamples(_ buffer: CMSampleBuffer) throws(MovieWriter.Failure) -> [Int16] {
        guard let format = buffer.formatDescription, format.mediaSubType == .linearPCM,
            let bytes = buffer.dataBuffer?.bytes
        else {
            throw MovieWriter.Failure(
                unavailable: false, description: "an audio sample buffer must hold the microphone's 16-bit mono PCM")
        }
        return bytes.withUnsafeBytes { raw in
            (0..<(raw.count / 2)).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }
}

/// Appends pixel buffers with their times to a video input, and offers a pool of buffers to draw
/// them into (`AVAssetWriterInputPixelBufferAdaptor`).
open class AVAssetWriterInputPixelBufferAdaptor: NSObject, @unchecked Sendable {
    /// The input the buffers go to.
    public let assetWriterInput: AVAssetWriterInput
    /// The size and format of the pool's buffers.
    public let sourcePixelBufferAttributes: [String: Any]?

    private let lock = NSLock()
    private var pool: CVPixelBufferPool?

    /// An adaptor for `input`; the pool's buffers follow `sourcePixelBufferAttributes` (rule 9).
    public init(assetWriterInput input: AVAssetWriterInput, sourcePixelBufferAttributes: [String: Any]? = nil) {
        assetWriterInput = input
        self.sourcePixelBufferAttributes = sourcePixelBufferAttributes
        super.init()
    }

    /// Buffers to draw frames into: nil until the writer starts writing, then buffers of the
    /// attributes' size (else the input's output size) and format (else 32-bit BGRA) (rule 9).
    open var pixelBufferPool: CVPixelBufferPool? {
        guard assetWriterInput.writer?.isWriting ?? false else { return nil }
        return lock.withLock {
            if let pool { return pool }
            let attributes = sourcePixelBufferAttributes ?? [:]
            let settings = assetWriterInput.outputSettings ?? [:]
            func value(_ key: String, _ fallback: String) -> Int? {
                (AssetWriterSettings.number(attributes[key]) ?? AssetWriterSettings.number(settings[fallback]))
                    .map { Int($0) }
            }
            guard let width = value(kCVPixelBufferWidthKey as String, AVVideoWidthKey),
                let height = value(kCVPixelBufferHeightKey as String, AVVideoHeightKey), width > 0, height > 0
            else { return nil }
            let format = AssetWriterSettings.number(attributes[kCVPixelBufferPixelFormatTypeKey])
                .flatMap { OSType(exactly: $0) } ?? kCVPixelFormatType_32BGRA
            guard PixelFormatLayout.of(format) != nil else { return nil }
            let made = CVPixelBufferPool(
                width: width, height: height, pixelFormat: format, pixelBufferAttributes: attributes as NSDictionary,
                poolAttributes: nil)
            pool = made
            return made
        }
    }

    /// Appends a frame shown at `presentationTime`, in the same time line as the session's start.
    open func append(_ pixelBuffer: CVPixelBuffer, withPresentationTime presentationTime: CMTime) -> Bool {
        assetWriterInput.appendPixelBuffer(pixelBuffer, at: presentationTime)
    }
}
