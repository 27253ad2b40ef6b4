import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Holds back the signals that ask a process to end (SIGINT, SIGTERM, SIGHUP) while a short step runs
/// that must not be cut in two, such as renaming the files of one set into place; a signal that arrives
/// meanwhile is delivered, to the handler that was in place before, once the step is over.
///
/// A set of files cannot be renamed into place in one system call, so a `kill` between two renames
/// would leave a new picture beside an old depth map. Blocking with a signal mask would not do: a
/// process-directed signal goes to any thread that does not block it. Replacing the handlers does, for
/// every signal but SIGKILL, which nothing can hold back.
public enum SignalDeferral {
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// One step at a time: handlers are process-wide, and two steps on two threads would otherwise
    /// restore each other's handlers.
    private static let lock = NSLock()

    /// Runs `body` with ending signals held back; sends the first that arrived again afterwards.
    public static func run<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        pendingSignal.store(0, ordering: .sequentiallyConsistent)
        var previous: [Int32: sigaction] = [:]
        for signal in signals {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { received in holdBack(received) }
            #else
            action.__sigaction_handler.sa_handler = { received in holdBack(received) }
            #endif
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            if sigaction(signal, &action, &old) == 0 { previous[signal] = old }
        }
        defer {
            for (signal, old) in previous {
                var restored = old
                _ = sigaction(signal, &restored, nil)
            }
            let received = pendingSignal.exchange(0, ordering: .sequentiallyConsistent)
            // To the process, not this thread: a thread may block the signal, another takes it.
            if received != 0 { _ = kill(getpid(), received) }
        }
        return try body()
    }
}

/// The first ending signal that arrived while held back; an atomic, as a signal handler may write
/// it on any thread (lock-free atomics are safe in a handler; nothing else is).
private let pendingSignal = Atomic<Int32>(0)

/// The handler: notes the first signal, touches nothing else (not even `errno`).
private func holdBack(_ received: Int32) {
    _ = pendingSignal.compareExchange(expected: 0, desired: received, ordering: .sequentiallyConsistent)
}
