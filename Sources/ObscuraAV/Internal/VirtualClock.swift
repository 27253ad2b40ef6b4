import Foundation

/// The session clock in virtual mode: it advances only when something happens, so that runs are
/// deterministic (Testing on Linux, “Control the clock”). Times are in nanoseconds on a 1/1,000,000,000 timescale.
final class VirtualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var nanoseconds: Int64 = 0

    /// Advances by `seconds` and returns the new time.
    func advance(by seconds: Double) -> CMTime {
        lock.withLock {
            nanoseconds += Int64((seconds * 1e9).rounded())
            return CMTime(value: nanoseconds, timescale: 1_000_000_000)
        }
    }

    var now: CMTime { lock.withLock { CMTime(value: nanoseconds, timescale: 1_000_000_000) } }
}
