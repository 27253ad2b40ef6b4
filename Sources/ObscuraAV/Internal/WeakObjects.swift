import Foundation

/// Objects held weakly, in the order added, for owners that tell them of changes without keeping them
/// alive (a session its preview layers, an output its readiness coordinators, the held orientation the
/// rotation coordinators).
final class WeakObjects<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private struct Entry { weak var object: Object? }
    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Adds `object` once; entries whose objects are gone are dropped.
    func add(_ object: Object) {
        lock.withLock {
            entries.removeAll { $0.object == nil }
            if !entries.contains(where: { $0.object === object }) { entries.append(Entry(object: object)) }
        }
    }

    func remove(_ object: Object) {
        lock.withLock { entries.removeAll { $0.object == nil || $0.object === object } }
    }

    /// The objects still alive.
    var all: [Object] { lock.withLock { entries.compactMap(\.object) } }
}
