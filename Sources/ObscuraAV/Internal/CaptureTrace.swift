import CaptureRules
import Foundation

/// The log behind `Emulation.trace`: the newest `capacity` entries, oldest first.
///
/// A process that runs sessions for hours (a test host, a soak) records about a hundred entries per
/// session lifecycle, so an unbounded log grows without end; the oldest entries are dropped instead.
/// Ten thousand entries hold many lifecycles, far more than one scenario step or one test reads.
final class CaptureTrace: @unchecked Sendable {
    /// How many entries the log keeps.
    static let capacity = 10_000

    private let lock = NSLock()
    private var log: [TraceEntry] = []

    var entries: [TraceEntry] { lock.withLock { log } }

    func append(_ entry: TraceEntry) {
        lock.withLock {
            log.append(entry)
            // Dropped in batches of a quarter, so appending stays amortised constant time.
            if log.count > Self.capacity + Self.capacity / 4 { log.removeFirst(log.count - Self.capacity) }
        }
    }

    func clear() { lock.withLock { log.removeAll() } }
}
