import Foundation

/// The faults scheduled in one world, waiting for the stream time or frame they name (spec §21).
///
/// Each fires once, on the first session whose stream reaches its moment, before that frame is made;
/// faults due at the same frame fire in the order they were scheduled.
final class FaultSchedule: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [(fault: InjectedFault, moment: InjectedFault.Moment)] = []

    func add(_ fault: InjectedFault, at moment: InjectedFault.Moment) {
        lock.withLock { pending.append((fault, moment)) }
    }

    var isEmpty: Bool { lock.withLock { pending.isEmpty } }

    func removeAll() { lock.withLock { pending.removeAll() } }

    /// Takes out the faults due by frame `frame`, whose presentation time is `seconds`.
    func takeDue(frame: Int, seconds: Double) -> [(fault: InjectedFault, moment: InjectedFault.Moment)] {
        lock.withLock {
            let due = pending.filter { entry in
                switch entry.moment {
                case .frame(let n): return n <= frame
                // A time is reached by the first frame presented at or after it (within a nanosecond).
                case .seconds(let s): return s <= seconds + 1e-9
                }
            }
            guard !due.isEmpty else { return [] }
            pending = pending.filter { entry in !due.contains { $0.fault == entry.fault && $0.moment == entry.moment } }
            return due
        }
    }
}
