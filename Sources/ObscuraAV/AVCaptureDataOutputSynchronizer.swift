import Foundation

/// Receives synchronized collections (spec §8 [D]).
public protocol AVCaptureDataOutputSynchronizerDelegate: NSObjectProtocol {
    func dataOutputSynchronizer(
        _ synchronizer: AVCaptureDataOutputSynchronizer,
        didOutput synchronizedDataCollection: AVCaptureSynchronizedDataCollection)
}

/// Delivers the data of several outputs together, aligned on the first output's timestamps
/// (spec §8).
///
/// - The first output is the primary. Its data at time T waits until every other output has
///   data at T or later, or is known to have none for T; then one collection carries
///   everything at T [D].
/// - Follower data earlier than a primary timestamp goes out first, one collection per
///   timestamp, without primary data [D][O].
/// - The primary queue holds at most 4 items with several outputs (1 with one); beyond that the
///   oldest goes out with whatever has arrived [O].
/// - Dropped frames appear as dropped entries [D]; audio never drops.
/// - While the delegate is set, the outputs' own delegates are not called [D].
open class AVCaptureDataOutputSynchronizer: NSObject, @unchecked Sendable {
    /// The outputs, as given; the first is the primary.
    public let dataOutputs: [AVCaptureOutput]

    private let lock = NSLock()
    private weak var delegateObject: AnyObject?
    private var queue: DispatchQueue?
    private var primaryQueue: [AVCaptureSynchronizedData] = []
    private var followerData: [ObjectIdentifier: [AVCaptureSynchronizedData]] = [:]
    private var watermarks: [ObjectIdentifier: CMTime] = [:]

    /// Validates the outputs (spec §8 [O], §13 N13): a non-empty array of supported data
    /// outputs, all added to one session and connected; otherwise `NSInvalidArgumentException`.
    public init(dataOutputs: [AVCaptureOutput]) {
        if let violation = Self.refusal(dataOutputs) { violation.raise() }
        self.dataOutputs = dataOutputs
        super.init()
        for output in dataOutputs { Self.attach(self, to: output) }
    }

    private static func refusal(_ outputs: [AVCaptureOutput]) -> Violation? {
        guard let first = outputs.first else { return .synchronizer("dataOutputs may not be an empty array") }
        for output in outputs {
            guard isSupported(output) else {
                return .synchronizer("\(output.className) is not a supported data output")
            }
            guard let session = output.session else {
                return .synchronizer("\(output.className) must be added to a session before synchronizing it")
            }
            guard session === first.session else {
                return .synchronizer("All dataOutputs must belong to the same AVCaptureSession")
            }
            guard !output.connections.isEmpty else {
                return .synchronizer("\(output.className) has no connection")
            }
        }
        return nil
    }

    static func isSupported(_ output: AVCaptureOutput) -> Bool {
        output is AVCaptureVideoDataOutput || output is AVCaptureDepthDataOutput || output is AVCaptureMetadataOutput
            || output is AVCaptureAudioDataOutput
    }

    private static func attach(_ synchronizer: AVCaptureDataOutputSynchronizer, to output: AVCaptureOutput) {
        switch output {
        case let o as AVCaptureVideoDataOutput: o.synchronizer = synchronizer
        case let o as AVCaptureDepthDataOutput: o.synchronizer = synchronizer
        case let o as AVCaptureAudioDataOutput: o.synchronizer = synchronizer
        case let o as AVCaptureMetadataOutput: o.synchronizer = synchronizer
        default: break
        }
    }

    /// Sets the delegate and its serial queue; nil and nil restores the outputs' own delegates.
    /// A delegate without a queue raises (spec §8 [D][O]).
    open func setDelegate(_ delegate: AVCaptureDataOutputSynchronizerDelegate?, queue delegateCallbackQueue: DispatchQueue?) {
        if delegate != nil, delegateCallbackQueue == nil {
            Violation.delegateWithoutQueue("-[AVCaptureDataOutputSynchronizer setDelegate:queue:]").raise()
        }
        lock.withLock {
            delegateObject = delegate
            queue = delegateCallbackQueue
        }
    }

    /// The delegate, held weakly.
    public var delegate: AVCaptureDataOutputSynchronizerDelegate? {
        lock.withLock { delegateObject as? AVCaptureDataOutputSynchronizerDelegate }
    }

    /// The delegate's queue.
    public var delegateCallbackQueue: DispatchQueue? { lock.withLock { queue } }

    var target: (delegate: AVCaptureDataOutputSynchronizerDelegate, queue: DispatchQueue)? {
        lock.withLock {
            guard let d = delegateObject as? AVCaptureDataOutputSynchronizerDelegate, let queue else { return nil }
            return (d, queue)
        }
    }

    /// The primary queue's bound (spec §8 [O]).
    var primaryLimit: Int { dataOutputs.count > 1 ? 4 : 1 }

    // MARK: Matching (called by the stream engine in timestamp order)

    /// Takes one output's data.
    func receive(_ data: AVCaptureSynchronizedData, from output: AVCaptureOutput) {
        lock.withLock {
            if output === dataOutputs.first {
                primaryQueue.append(data)
            } else {
                followerData[ObjectIdentifier(output), default: []].append(data)
            }
        }
    }

    /// Records that an output has delivered everything up to and including `time`.
    func advance(_ output: AVCaptureOutput, through time: CMTime) {
        lock.withLock { watermarks[ObjectIdentifier(output)] = time }
    }

    /// The collections that can go out now, in delivery order.
    func collectionsReady() -> [AVCaptureSynchronizedDataCollection] {
        lock.withLock {
            var out: [AVCaptureSynchronizedDataCollection] = []
            let followers = dataOutputs.dropFirst()
            while let primary = primaryQueue.first {
                let t = primary.timestamp
                let complete = followers.allSatisfy { f in
                    let id = ObjectIdentifier(f)
                    if let mark = watermarks[id], mark >= t { return true }
                    return followerData[id, default: []].contains { $0.timestamp >= t }
                }
                guard complete || primaryQueue.count > primaryLimit else { break }
                primaryQueue.removeFirst()
                out += takeFollowers(before: t)
                var entries: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)] = []
                for output in dataOutputs {
                    if output === dataOutputs.first {
                        entries.append((output, primary))
                        continue
                    }
                    let id = ObjectIdentifier(output)
                    if let i = followerData[id]?.firstIndex(where: { $0.timestamp == t }) {
                        entries.append((output, followerData[id, default: []].remove(at: i)))
                    }
                }
                out.append(AVCaptureSynchronizedDataCollection(entries))
            }
            return out
        }
    }

    /// Follower data earlier than `t`, one collection per timestamp, oldest first. Lock held.
    private func takeFollowers(before t: CMTime) -> [AVCaptureSynchronizedDataCollection] {
        var early: [(output: AVCaptureOutput, data: AVCaptureSynchronizedData)] = []
        for output in dataOutputs.dropFirst() {
            let id = ObjectIdentifier(output)
            let items = followerData[id, default: []]
            early += items.filter { $0.timestamp < t }.map { (output, $0) }
            followerData[id] = items.filter { $0.timestamp >= t }
        }
        let times = Set(early.map { $0.data.timestamp.seconds }).sorted()
        return times.map { time in
            // Entries in dataOutputs order, as `early` was built.
            AVCaptureSynchronizedDataCollection(early.filter { $0.data.timestamp.seconds == time })
        }
    }
}
