import CaptureRules
import Foundation

/// The append-only log behind `Emulation.trace`.
final class CaptureTrace: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [TraceEntry] = []

    var entries: [TraceEntry] { lock.withLock { log } }
    func append(_ entry: TraceEntry) { lock.withLock { log.append(entry) } }
    func clear() { lock.withLock { log.removeAll() } }
}
